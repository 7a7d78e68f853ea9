// Tarjan's depth-first search by edges, shared by the bridge tree and the block-cut tree: the
// platform graph as (neighbour, edge) lists, and one iterative search that keeps each node's
// discovery time and low-link (the earliest discovery time its subtree reaches by one edge
// leaving the tree), telling its caller of tree edges, edges back to an ancestor and finished
// subtrees.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "model/platform_graph.hpp"

namespace ringsim::ring {

struct EdgeAdjacency {
  std::vector<std::uint32_t> start;                              // node -> its first entry
  std::vector<std::pair<std::uint32_t, std::uint32_t>> entries;  // (neighbour, edge)

  explicit EdgeAdjacency(const Platform& platform);
  std::size_t node_count() const { return start.size() - 1; }
};

inline constexpr std::uint32_t kNotFound = std::numeric_limits<std::uint32_t>::max();

// From every node not yet found, in index order: tree(p, c, e) when c is found from p through
// edge e; back(v, u, e) for an edge from v to an ancestor u other than v's tree edge; done(p, c, e)
// when c's subtree is finished (low[c] final, low[p] already lowered by it). A multi-edge-free
// graph is assumed (the platform model has no parallel edges).
template <class Tree, class Back, class Done>
void low_link_search(const EdgeAdjacency& g, std::vector<std::uint32_t>& disc, std::vector<std::uint32_t>& low,
                     Tree&& tree, Back&& back, Done&& done) {
  const std::size_t n = g.node_count();
  disc.assign(n, kNotFound);
  low.assign(n, 0);
  struct Frame {
    std::uint32_t v, via_edge, next;
  };
  std::vector<Frame> stack;
  std::uint32_t clock = 0;
  for (std::uint32_t s = 0; s < n; ++s) {
    if (disc[s] != kNotFound) continue;
    disc[s] = low[s] = clock++;
    stack.push_back({s, kNotFound, g.start[s]});
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next < g.start[f.v + 1]) {
        const auto [u, e] = g.entries[f.next++];
        if (e == f.via_edge) continue;
        if (disc[u] == kNotFound) {
          const std::uint32_t v = f.v;  // f is not valid once the stack grows
          disc[u] = low[u] = clock++;
          tree(v, u, e);
          stack.push_back({u, e, g.start[u]});
        } else if (disc[u] < disc[f.v]) {
          low[f.v] = std::min(low[f.v], disc[u]);
          back(f.v, u, e);
        }
        continue;
      }
      const Frame finished = f;
      stack.pop_back();
      if (stack.empty()) continue;
      const std::uint32_t p = stack.back().v;
      low[p] = std::min(low[p], low[finished.v]);
      done(p, finished.v, finished.via_edge);
    }
  }
}

}  // namespace ringsim::ring
