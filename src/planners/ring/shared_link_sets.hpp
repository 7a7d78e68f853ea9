// The inputs of Section 4.2's allocation for a few paths: each path's cap (its smallest FATPIPE
// capacity) and, per subset of paths (a mask), the smallest capacity of the SHARED links crossed
// by exactly those paths (min_weighted_cost_allocation_small's `set_cap`).
//
// shared_sets() computes them by searching each link of a path in the others' lists.
// FixedRouteSets computes the same values by marking links, which costs one pass over the four
// routes instead of a search of one route in another (the per-candidate cost of a greedy step on
// a large Full platform). Why it is the same: a link's mark is the set of paths that cross it,
// exactly the mask shared_sets() builds for it when the first path crossing it is read, and both
// fold min(full capacity, residual + what the replaced paths give back) into that mask's entry.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "planners/ring/ring_network.hpp"

namespace ringsim::ring {

// A ring path: its links and its bandwidth fraction.
struct PathState {
  std::vector<std::size_t> links;
  double bw = 0.0;
};

// Sets (table by mask over `n` paths) and caps of paths given by link lists, on `capacity` (the
// full or residual capacity of every link), each SHARED link at most its full capacity.
template <class List>
void shared_sets(const RingNetwork& net, const std::vector<double>& full, int n, const List* const* lists,
                 const std::vector<double>& capacity, double* cap, double* set_cap) {
  for (int m = 0; m < (1 << n); ++m) set_cap[m] = kInfinity;
  for (int p = 0; p < n; ++p) cap[p] = kInfinity;
  for (int p = 0; p < n; ++p)
    for (auto l : *lists[p]) {
      if (net.fatpipe(l)) {
        cap[p] = std::min(cap[p], full[l]);
        continue;
      }
      bool seen = false;  // one set per link: handled by the first path crossing it
      for (int o = 0; o < p && !seen; ++o)
        seen = std::find(lists[o]->begin(), lists[o]->end(), l) != lists[o]->end();
      if (seen) continue;
      int mask = 1 << p;
      for (int o = p + 1; o < n; ++o)
        if (std::find(lists[o]->begin(), lists[o]->end(), l) != lists[o]->end()) mask |= 1 << o;
      set_cap[mask] = std::min(set_cap[mask], std::min(full[l], capacity[l]));
    }
}

// The same for four fixed routes, with the two replaced paths S_i and P_j giving their bandwidth
// back on their links, by marking links. Reusable workspace.
class FixedRouteSets {
 public:
  void build(const RingNetwork& net, const std::vector<double>& full, const std::vector<double>& residual,
             const RouteView* const* lists, const PathState& old_si, const PathState& old_pj, double* cap,
             double* set_cap);

 private:
  std::vector<std::uint32_t> mark_stamp_, old_stamp_;
  std::vector<unsigned char> mark_, old_mark_;
  std::vector<std::size_t> touched_;
  std::uint32_t mark_gen_ = 0;
};

}  // namespace ringsim::ring
