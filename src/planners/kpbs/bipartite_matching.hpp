// Matchings in a bipartite graph with integer edge weights whose weights only go down (the
// peeling of GGP and OGGP, step 5 of the KPBS paper's algorithm). An edge is live while its weight is
// positive. maximize() grows the current matching, restricted to live edges of weight >= a
// threshold: first augmenting paths of length 1 or 3 (after a peeling step only the few nodes
// whose matched edge died are free, and the graph is dense), then one breadth-first search per
// free node when few remain, Hopcroft-Karp phases otherwise. The bottleneck perfect matching
// (OGGP) bisects the threshold, each test started from the best matching found so far.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ringsim::kpbs {

using Weight = std::int64_t;

struct WeightedEdge {
  std::size_t left = 0;
  std::size_t right = 0;
  Weight weight = 0;
};

class BipartiteMatcher {
 public:
  static constexpr std::size_t none = static_cast<std::size_t>(-1);

  BipartiteMatcher(std::size_t left_nodes, std::size_t right_nodes, std::vector<WeightedEdge> edges);

  std::size_t left_nodes() const { return mate_left_.size(); }
  std::size_t right_nodes() const { return mate_right_.size(); }
  std::size_t live_edges() const { return live_; }
  const WeightedEdge& edge(std::size_t e) const { return edges_[e]; }

  // Lowers the weight of edge e by `by` (<= its weight); at 0 the edge dies and leaves the matching.
  void decrease(std::size_t e, Weight by);

  // A maximum matching among live edges of weight >= threshold (>= 1), grown from the current
  // matching after dropping its edges below the threshold. Returns its size. With
  // `perfect_or_nothing`, stops as soon as some left node is proven unmatchable (the matching
  // is then maximal but perhaps not maximum).
  std::size_t maximize(Weight threshold = 1, bool perfect_or_nothing = false);

  // A perfect matching (every left and right node matched; needs as many left as right nodes)
  // whose smallest weight is as large as possible. Returns false, with a maximum matching in
  // place, when the live edges hold no perfect matching.
  bool bottleneck_perfect();

  bool perfect() const { return matched_ == mate_left_.size() && matched_ == mate_right_.size(); }
  std::size_t size() const { return matched_; }
  // Matched edge of each left node (none when unmatched).
  const std::vector<std::size_t>& mate_of_left() const { return mate_left_; }
  // Smallest weight of a matched edge (0 for an empty matching).
  Weight smallest_matched_weight() const;

 private:
  bool augment_short(std::size_t u, Weight threshold);
  bool augment_bfs(std::size_t u, Weight threshold);
  bool bfs(Weight threshold);
  bool dfs(std::size_t u, Weight threshold);
  void compact();
  void unmatch(std::size_t e);

  std::vector<WeightedEdge> edges_;
  std::vector<std::vector<std::size_t>> adj_;  // left node -> incident edges (dead ones pruned lazily)
  std::vector<std::size_t> mate_left_, mate_right_;
  std::vector<std::size_t> dist_, next_;       // Hopcroft-Karp layers and DFS cursors
  std::size_t found_layer_ = 0;
  std::vector<std::size_t> seen_right_, parent_;  // single-source search: visit stamps, edge into a left node
  std::size_t stamp_ = 0;
  std::size_t matched_ = 0;
  std::size_t live_ = 0;
  std::size_t dead_in_adj_ = 0;
};

}  // namespace ringsim::kpbs
