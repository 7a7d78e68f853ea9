#include "planners/ring/block_tree.hpp"

#include "planners/ring/low_link.hpp"

#include <algorithm>

namespace ringsim::ring {

BlockTree::BlockTree(const Platform& platform) {
  const std::size_t n = platform.nodes.size();
  const EdgeAdjacency g(platform);
  // Blocks: when the search finishes child c of p with low[c] >= disc[p], the edges stacked since
  // the tree edge p-c (included) are one block. A node without edges is a block of its own.
  std::vector<std::uint32_t> disc, low, edges, stamp(n, kNone);
  auto close_block = [&](std::uint32_t last_edge) {
    const auto id = static_cast<std::uint32_t>(nodes_.size());
    nodes_.emplace_back();
    for (;;) {
      const std::uint32_t e = edges.back();
      edges.pop_back();
      for (const std::size_t x : {platform.edges[e].a, platform.edges[e].b})
        if (stamp[x] != id) {
          stamp[x] = id;
          nodes_.back().push_back(static_cast<std::uint32_t>(x));
        }
      if (e == last_edge) break;
    }
  };
  low_link_search(
      g, disc, low, [&](std::uint32_t, std::uint32_t, std::uint32_t e) { edges.push_back(e); },
      [&](std::uint32_t, std::uint32_t, std::uint32_t e) { edges.push_back(e); },
      [&](std::uint32_t p, std::uint32_t c, std::uint32_t e) {
        if (low[c] >= disc[p]) close_block(e);
      });
  for (std::uint32_t v = 0; v < n; ++v)
    if (g.start[v] == g.start[v + 1]) nodes_.push_back({v});
  // The tree: from each connected part's largest block, breadth first through the articulation
  // points (nodes in several blocks).
  const std::size_t k = nodes_.size();
  std::vector<std::uint32_t> count(n, 0);
  for (const auto& b : nodes_)
    for (auto v : b) ++count[v];
  std::vector<std::uint32_t> bstart(n + 1, 0);  // node -> its blocks
  for (std::size_t v = 0; v < n; ++v) bstart[v + 1] = bstart[v] + count[v];
  std::vector<std::uint32_t> blocks_of(bstart[n]);
  {
    std::vector<std::uint32_t> put(bstart.begin(), bstart.end() - 1);
    for (std::uint32_t b = 0; b < k; ++b)
      for (auto v : nodes_[b]) blocks_of[put[v]++] = b;
  }
  std::vector<std::uint32_t> order(k);
  for (std::uint32_t b = 0; b < k; ++b) order[b] = b;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) { return nodes_[x].size() > nodes_[y].size(); });
  home_.assign(n, kNone);
  parent_.assign(k, kNone);
  joint_.assign(k, kNone);
  std::vector<char> seen(k, 0);
  std::vector<std::uint32_t> queue;
  for (const std::uint32_t root : order) {  // the largest block of each part is met first
    if (seen[root]) continue;
    seen[root] = 1;
    queue.assign(1, root);
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const std::uint32_t b = queue[q];
      for (const std::uint32_t v : nodes_[b]) {
        if (home_[v] != kNone) continue;
        home_[v] = b;
        for (std::uint32_t x = bstart[v]; x < bstart[v + 1]; ++x) {
          const std::uint32_t c = blocks_of[x];
          if (seen[c]) continue;
          seen[c] = 1;
          parent_[c] = b;
          joint_[c] = v;
          queue.push_back(c);
        }
      }
    }
  }
}

}  // namespace ringsim::ring
