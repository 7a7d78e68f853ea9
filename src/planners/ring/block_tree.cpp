#include "planners/ring/block_tree.hpp"

#include <algorithm>

namespace ringsim::ring {

BlockTree::BlockTree(const Platform& platform) {
  const std::size_t n = platform.nodes.size(), m = platform.edges.size();
  std::vector<std::uint32_t> start(n + 1, 0);
  for (const auto& e : platform.edges) {
    ++start[e.a + 1];
    ++start[e.b + 1];
  }
  for (std::size_t v = 0; v < n; ++v) start[v + 1] += start[v];
  std::vector<std::pair<std::uint32_t, std::uint32_t>> adj(start[n]);  // (neighbour, edge)
  {
    std::vector<std::uint32_t> put(start.begin(), start.end() - 1);
    for (std::size_t e = 0; e < m; ++e) {
      const auto a = static_cast<std::uint32_t>(platform.edges[e].a), b = static_cast<std::uint32_t>(platform.edges[e].b);
      adj[put[a]++] = {b, static_cast<std::uint32_t>(e)};
      adj[put[b]++] = {a, static_cast<std::uint32_t>(e)};
    }
  }
  // Blocks: when the DFS returns from child u to p with low[u] >= disc[p], the edges stacked since
  // the tree edge p-u (included) are one block.
  std::vector<std::uint32_t> disc(n, kNone), low(n, 0), edges, stamp(n, kNone);
  struct Frame {
    std::uint32_t v, via_edge, next;
  };
  std::vector<Frame> stack;
  std::uint32_t clock = 0;
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
  for (std::uint32_t s = 0; s < n; ++s) {
    if (disc[s] != kNone) continue;
    disc[s] = low[s] = clock++;
    if (start[s] == start[s + 1]) {  // an isolated node: a block of its own
      nodes_.push_back({s});
      continue;
    }
    stack.push_back({s, kNone, start[s]});
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next < start[f.v + 1]) {
        const auto [u, e] = adj[f.next++];
        if (e == f.via_edge) continue;
        if (disc[u] == kNone) {
          edges.push_back(e);
          disc[u] = low[u] = clock++;
          stack.push_back({u, e, start[u]});
        } else if (disc[u] < disc[f.v]) {  // a back edge, seen from its lower end
          edges.push_back(e);
          low[f.v] = std::min(low[f.v], disc[u]);
        }
        continue;
      }
      const Frame done = f;
      stack.pop_back();
      if (stack.empty()) continue;
      const std::uint32_t p = stack.back().v;
      low[p] = std::min(low[p], low[done.v]);
      if (low[done.v] >= disc[p]) close_block(done.via_edge);
    }
  }
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
