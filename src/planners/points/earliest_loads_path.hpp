// The earliest end of a run whose points may each keep the loads held or move them to any of a
// list of candidate loads, knowing every cost in advance: the forward recurrence behind both
// clairvoyant references that choose targets (chosen_targets_plan.hpp over the balances of the run's
// iterations, OnlineOptimal::hindsight_any_target_along over the balances of the on/off states).
//
// Exact when the costs of an iteration and of a point depend on the iteration and the loads held,
// not on how the run got there, the start clock only shifting them (speeds indexed by the
// iteration): the earliest end of iteration t with each candidate loads is then all a later choice
// needs (optimal substructure), O(iterations C^2) for C candidates. A move ends no sooner than its
// decision plus a lower bound of its time, so a move whose decision plus that bound does not end
// before the best arrival found so far is not priced: only strictly earlier arrivals are taken,
// and the answer is the same.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

namespace ringsim::points {

struct LoadsPath {
  double makespan = 0.0;
  std::vector<int> points;       // after these iterations, increasing
  std::vector<std::size_t> to;   // per point, the candidate it moves to
};

// Candidate 0 is the loads held before iteration 1. `iteration_end(t, l, start)`: when iteration t
// started at `start` with candidate l ends; `decided(t, l, end)`: when a point after iteration t,
// which ended at `end` with candidate l, has decided; `move(l, to)`: the move's time (>= 0, asked
// only for l != to); `least_move(l, to)`: a lower bound of it (0 where none is known).
template <class IterationEnd, class Decided, class Move, class LeastMove>
LoadsPath earliest_loads_path(int iterations, std::size_t count, double start, IterationEnd iteration_end,
                              Decided decided_at, Move move, LeastMove least_move) {
  const double unreached = std::numeric_limits<double>::infinity();
  // at[l]: the earliest end of iteration t holding candidate l; from[t][l]: the candidate held
  // during t when the point after t moved to l (l itself when it did not).
  std::vector<double> at(count, unreached), next(count), decided(count);
  std::vector<std::vector<std::size_t>> from(static_cast<std::size_t>(iterations), std::vector<std::size_t>(count));
  at[0] = iteration_end(1, std::size_t{0}, start);
  for (int t = 1; t < iterations; ++t) {
    for (std::size_t l = 0; l < count; ++l) decided[l] = at[l] == unreached ? unreached : decided_at(t, l, at[l]);
    std::vector<std::size_t>& came = from[static_cast<std::size_t>(t)];
    for (std::size_t to = 0; to < count; ++to) {
      next[to] = at[to];
      came[to] = to;
      for (std::size_t l = 0; l < count; ++l) {
        if (l == to || decided[l] >= next[to] || decided[l] + least_move(l, to) >= next[to]) continue;
        const double moved = decided[l] + move(l, to);
        if (moved < next[to]) {
          next[to] = moved;
          came[to] = l;
        }
      }
    }
    for (std::size_t l = 0; l < count; ++l) at[l] = next[l] == unreached ? unreached : iteration_end(t + 1, l, next[l]);
  }
  LoadsPath path;
  std::size_t l = static_cast<std::size_t>(std::min_element(at.begin(), at.end()) - at.begin());
  path.makespan = at[l];
  for (int t = iterations - 1; t >= 1; --t) {
    const std::size_t held = from[static_cast<std::size_t>(t)][l];
    if (held == l) continue;
    path.points.push_back(t);
    path.to.push_back(l);
    l = held;
  }
  std::reverse(path.points.begin(), path.points.end());
  std::reverse(path.to.begin(), path.to.end());
  return path;
}

template <class IterationEnd, class Decided, class Move>
LoadsPath earliest_loads_path(int iterations, std::size_t count, double start, IterationEnd iteration_end,
                              Decided decided_at, Move move) {
  return earliest_loads_path(iterations, count, start, iteration_end, decided_at, move,
                             [](std::size_t, std::size_t) { return 0.0; });
}

}  // namespace ringsim::points
