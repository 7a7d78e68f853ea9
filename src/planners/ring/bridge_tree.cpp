#include "planners/ring/bridge_tree.hpp"

#include "planners/ring/low_link.hpp"

#include <algorithm>

namespace ringsim::ring {

BridgeTree::BridgeTree(const Platform& platform) {
  const std::size_t n = platform.nodes.size(), m = platform.edges.size();
  const EdgeAdjacency g(platform);
  const auto& start = g.start;
  const auto& adj = g.entries;
  // Bridges: the tree edges p-c whose subtree reaches nothing above c by another edge.
  std::vector<std::uint32_t> disc, low;
  std::vector<char> bridge(m, 0);
  low_link_search(
      g, disc, low, [](std::uint32_t, std::uint32_t, std::uint32_t) {}, [](std::uint32_t, std::uint32_t, std::uint32_t) {},
      [&](std::uint32_t p, std::uint32_t c, std::uint32_t e) {
        if (low[c] > disc[p]) bridge[e] = 1;
      });
  // Components: connected through the other edges.
  comp_.assign(n, kNone);
  std::vector<std::uint32_t> size, queue;
  for (std::uint32_t s = 0; s < n; ++s) {
    if (comp_[s] != kNone) continue;
    const auto c = static_cast<std::uint32_t>(size.size());
    size.push_back(0);
    comp_[s] = c;
    queue.assign(1, s);
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const std::uint32_t v = queue[q];
      ++size[c];
      for (std::uint32_t a = start[v]; a < start[v + 1]; ++a) {
        const auto [u, e] = adj[a];
        if (!bridge[e] && comp_[u] == kNone) {
          comp_[u] = c;
          queue.push_back(u);
        }
      }
    }
  }
  // The tree: components joined by bridges, rooted at each connected part's largest component.
  const std::size_t k = size.size();
  std::vector<std::uint32_t> tstart(k + 1, 0);
  for (std::size_t e = 0; e < m; ++e)
    if (bridge[e]) {
      ++tstart[comp_[platform.edges[e].a] + 1];
      ++tstart[comp_[platform.edges[e].b] + 1];
    }
  for (std::size_t c = 0; c < k; ++c) tstart[c + 1] += tstart[c];
  std::vector<std::pair<std::uint32_t, std::uint32_t>> tadj(tstart[k]);  // (component, link)
  {
    std::vector<std::uint32_t> put(tstart.begin(), tstart.end() - 1);
    for (std::size_t e = 0; e < m; ++e)
      if (bridge[e]) {
        const std::uint32_t a = comp_[platform.edges[e].a], b = comp_[platform.edges[e].b];
        const auto l = static_cast<std::uint32_t>(platform.edges[e].link);
        tadj[put[a]++] = {b, l};
        tadj[put[b]++] = {a, l};
      }
  }
  std::vector<std::uint32_t> part(k, kNone), parts;  // connected part of each component
  for (std::uint32_t c = 0; c < k; ++c) {
    if (part[c] != kNone) continue;
    const auto id = static_cast<std::uint32_t>(parts.size());
    std::uint32_t largest = c;
    part[c] = id;
    queue.assign(1, c);
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const std::uint32_t x = queue[q];
      if (size[x] > size[largest]) largest = x;
      for (std::uint32_t a = tstart[x]; a < tstart[x + 1]; ++a)
        if (part[tadj[a].first] == kNone) {
          part[tadj[a].first] = id;
          queue.push_back(tadj[a].first);
        }
    }
    parts.push_back(largest);
  }
  parent_.assign(k, kNone);
  link_.assign(k, kNone);
  top_.assign(k, kNone);
  std::vector<char> seen(k, 0);
  for (const std::uint32_t root : parts) {
    seen[root] = 1;
    queue.assign(1, root);
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const std::uint32_t x = queue[q];
      for (std::uint32_t a = tstart[x]; a < tstart[x + 1]; ++a) {
        const auto [y, l] = tadj[a];
        if (seen[y]) continue;
        seen[y] = 1;
        parent_[y] = x;
        link_[y] = l;
        top_[y] = x == root ? y : top_[x];
        queue.push_back(y);
      }
    }
  }
}

}  // namespace ringsim::ring
