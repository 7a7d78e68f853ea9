#include "planners/kpbs/bipartite_matching.hpp"

#include <algorithm>
#include <stdexcept>

namespace ringsim::kpbs {

BipartiteMatcher::BipartiteMatcher(std::size_t left_nodes, std::size_t right_nodes, std::vector<WeightedEdge> edges)
    : edges_(std::move(edges)),
      adj_(left_nodes),
      mate_left_(left_nodes, none),
      mate_right_(right_nodes, none),
      dist_(left_nodes, none),
      next_(left_nodes, 0),
      seen_right_(right_nodes, 0),
      parent_(left_nodes, none) {
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    const auto& ed = edges_[e];
    if (ed.left >= left_nodes || ed.right >= right_nodes) throw std::logic_error("matching: edge out of range");
    if (ed.weight < 0) throw std::logic_error("matching: negative weight");
    if (ed.weight == 0) continue;
    adj_[ed.left].push_back(e);
    ++live_;
  }
}

void BipartiteMatcher::unmatch(std::size_t e) {
  const auto& ed = edges_[e];
  if (mate_left_[ed.left] == e) {
    mate_left_[ed.left] = none;
    mate_right_[ed.right] = none;
    --matched_;
  }
}

void BipartiteMatcher::decrease(std::size_t e, Weight by) {
  WeightedEdge& ed = edges_[e];
  if (by < 0 || by > ed.weight) throw std::logic_error("matching: weight decrease out of range");
  if (by == 0 || ed.weight == 0) return;
  ed.weight -= by;
  if (ed.weight == 0) {
    unmatch(e);
    --live_;
    if (++dead_in_adj_ > live_ + 64) compact();
  }
}

void BipartiteMatcher::compact() {
  for (auto& list : adj_)
    list.erase(std::remove_if(list.begin(), list.end(), [&](std::size_t e) { return edges_[e].weight == 0; }),
               list.end());
  dead_in_adj_ = 0;
}

Weight BipartiteMatcher::smallest_matched_weight() const {
  Weight s = 0;
  bool first = true;
  for (std::size_t e : mate_left_) {
    if (e == none) continue;
    s = first ? edges_[e].weight : std::min(s, edges_[e].weight);
    first = false;
  }
  return s;
}

// Layers of Hopcroft-Karp: free left nodes at 0, then alternating paths; stops at the first
// layer that reaches a free right node.
bool BipartiteMatcher::bfs(Weight threshold) {
  std::vector<std::size_t> queue;
  queue.reserve(adj_.size());
  for (std::size_t u = 0; u < adj_.size(); ++u) {
    dist_[u] = mate_left_[u] == none ? 0 : none;
    if (dist_[u] == 0) queue.push_back(u);
  }
  found_layer_ = none;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::size_t u = queue[head];
    if (found_layer_ != none && dist_[u] >= found_layer_) break;
    for (std::size_t e : adj_[u]) {
      if (edges_[e].weight < threshold) continue;
      const std::size_t me = mate_right_[edges_[e].right];
      if (me == none) {
        if (found_layer_ == none) found_layer_ = dist_[u] + 1;
        continue;
      }
      const std::size_t u2 = edges_[me].left;
      if (dist_[u2] == none) {
        dist_[u2] = dist_[u] + 1;
        queue.push_back(u2);
      }
    }
  }
  return found_layer_ != none;
}

bool BipartiteMatcher::dfs(std::size_t u, Weight threshold) {
  for (; next_[u] < adj_[u].size(); ++next_[u]) {
    const std::size_t e = adj_[u][next_[u]];
    if (edges_[e].weight < threshold) continue;
    const std::size_t v = edges_[e].right;
    const std::size_t me = mate_right_[v];
    bool augment = false;
    if (me == none) {
      augment = dist_[u] + 1 == found_layer_;
    } else {
      const std::size_t u2 = edges_[me].left;
      augment = dist_[u2] == dist_[u] + 1 && dfs(u2, threshold);
    }
    if (augment) {
      mate_left_[u] = e;
      mate_right_[v] = e;
      return true;
    }
  }
  dist_[u] = none;
  return false;
}

// Augmenting paths of length 1 (u -> a free right node) or 3 (u -> v1, matched to u1, and u1 ->
// a free right node), tried for at most 16 nodes v1. After a peeling step the graph is dense and
// a few nodes are free, so such a path nearly always exists and is found after a few edges,
// where a Hopcroft-Karp phase scans most of the graph.
bool BipartiteMatcher::augment_short(std::size_t u, Weight threshold) {
  for (std::size_t e : adj_[u]) {
    if (edges_[e].weight < threshold || mate_right_[edges_[e].right] != none) continue;
    mate_left_[u] = mate_right_[edges_[e].right] = e;
    ++matched_;
    return true;
  }
  std::size_t tried = 0;
  for (std::size_t e : adj_[u]) {
    if (edges_[e].weight < threshold) continue;
    if (++tried > 16) break;
    const std::size_t v1 = edges_[e].right;
    const std::size_t u1 = edges_[mate_right_[v1]].left;
    for (std::size_t e2 : adj_[u1]) {
      if (edges_[e2].weight < threshold || mate_right_[edges_[e2].right] != none) continue;
      mate_left_[u1] = mate_right_[edges_[e2].right] = e2;
      mate_left_[u] = mate_right_[v1] = e;
      ++matched_;
      return true;
    }
  }
  return false;
}

// Breadth-first search for an augmenting path from the free left node u, stopping at the first
// free right node reached. Cheaper than a Hopcroft-Karp phase when only a few nodes are free.
bool BipartiteMatcher::augment_bfs(std::size_t u, Weight threshold) {
  ++stamp_;
  std::vector<std::size_t>& queue = next_;  // reused as the queue of left nodes
  std::size_t head = 0, tail = 0;
  queue[tail++] = u;
  parent_[u] = none;
  while (head < tail) {
    const std::size_t x = queue[head++];
    for (std::size_t e : adj_[x]) {
      if (edges_[e].weight < threshold) continue;
      const std::size_t v = edges_[e].right;
      if (seen_right_[v] == stamp_) continue;
      seen_right_[v] = stamp_;
      const std::size_t me = mate_right_[v];
      if (me == none) {
        // Flip the path: e, then the parent edges back to u.
        std::size_t edge = e;
        for (;;) {
          const std::size_t l = edges_[edge].left;
          mate_left_[l] = edge;
          mate_right_[edges_[edge].right] = edge;
          if (l == u) break;
          edge = parent_[l];
        }
        ++matched_;
        return true;
      }
      const std::size_t x2 = edges_[me].left;
      parent_[x2] = e;
      queue[tail++] = x2;
    }
  }
  return false;
}

std::size_t BipartiteMatcher::maximize(Weight threshold, bool perfect_or_nothing) {
  if (threshold < 1) threshold = 1;
  for (std::size_t u = 0; u < mate_left_.size(); ++u)
    if (mate_left_[u] != none && edges_[mate_left_[u]].weight < threshold) unmatch(mate_left_[u]);
  std::size_t still_free = 0;
  for (std::size_t u = 0; u < mate_left_.size(); ++u)
    if (mate_left_[u] == none && !augment_short(u, threshold)) ++still_free;
  // A left node without augmenting path never gets one later (Berge), so one failure settles it.
  if (still_free <= 16) {
    for (std::size_t u = 0; u < mate_left_.size(); ++u)
      if (mate_left_[u] == none && !augment_bfs(u, threshold) && perfect_or_nothing) return matched_;
    return matched_;
  }
  while (matched_ < std::min(mate_left_.size(), mate_right_.size()) && bfs(threshold)) {
    std::fill(next_.begin(), next_.end(), 0);
    std::size_t grown = 0;
    for (std::size_t u = 0; u < adj_.size(); ++u)
      if (mate_left_[u] == none && dist_[u] == 0 && dfs(u, threshold)) ++grown;
    matched_ += grown;
    if (grown == 0) break;
  }
  return matched_;
}

bool BipartiteMatcher::bottleneck_perfect() {
  if (mate_left_.size() != mate_right_.size()) return false;
  maximize(1);
  if (!perfect()) return false;
  const std::size_t n = mate_left_.size();
  if (n == 0) return true;
  Weight lo = smallest_matched_weight();
  // No perfect matching can use only edges heavier than the lightest of the heaviest edges at
  // each node: an upper bound that often ends the search at once.
  std::vector<Weight> best_left(n, 0), best_right(n, 0);
  for (const auto& list : adj_)
    for (std::size_t e : list) {
      const auto& ed = edges_[e];
      best_left[ed.left] = std::max(best_left[ed.left], ed.weight);
      best_right[ed.right] = std::max(best_right[ed.right], ed.weight);
    }
  Weight hi = *std::min_element(best_left.begin(), best_left.end());
  hi = std::min(hi, *std::min_element(best_right.begin(), best_right.end()));
  std::vector<std::size_t> saved_left, saved_right;
  // One test: is there a perfect matching within the edges of weight >= t? On success the
  // matching found is kept (its smallest weight may exceed t), otherwise the best one is restored.
  auto feasible = [&](Weight t) {
    saved_left = mate_left_;
    saved_right = mate_right_;
    const std::size_t saved_matched = matched_;
    if (maximize(t, true) == n) return true;
    mate_left_.swap(saved_left);
    mate_right_.swap(saved_right);
    matched_ = saved_matched;
    return false;
  };
  if (hi - lo <= static_cast<Weight>(live_)) {
    // Few possible values: bisect the integer range (lo, hi] itself.
    Weight top = hi;  // the bottleneck lies in [lo, top]
    while (lo < top) {
      const Weight t = lo + (top - lo + 1) / 2;
      if (feasible(t))
        lo = smallest_matched_weight();
      else
        top = t - 1;
    }
    return true;
  }
  // Otherwise bisect the live weights in (lo, hi]: the median of the remaining candidates, so
  // that each test discards at least half of them.
  std::vector<Weight> candidates;
  for (const auto& list : adj_)
    for (std::size_t e : list)
      if (edges_[e].weight > lo && edges_[e].weight <= hi) candidates.push_back(edges_[e].weight);
  while (!candidates.empty()) {
    auto mid = candidates.begin() + static_cast<std::ptrdiff_t>(candidates.size() / 2);
    std::nth_element(candidates.begin(), mid, candidates.end());
    const Weight t = *mid;
    if (feasible(t)) {
      lo = smallest_matched_weight();
      candidates.erase(std::remove_if(candidates.begin(), candidates.end(), [lo](Weight w) { return w <= lo; }),
                       candidates.end());
    } else {
      candidates.erase(std::remove_if(candidates.begin(), candidates.end(), [t](Weight w) { return w >= t; }),
                       candidates.end());
    }
  }
  return true;
}

}  // namespace ringsim::kpbs
