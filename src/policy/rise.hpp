// The rise, a rule of the adaptive family (adaptive.hpp; scheme adaptive-lasting and what composes
// it): when the time the ring has lost since the last decision pays for a look. Pure: no SimGrid,
// tested in-process (tests/test_policy_adaptive_lasting.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "policy/policy.hpp"

namespace ringsim::policy {

// Stop at a rise: a look is bought once the time the ring has lost since the last decision pays for
// it. Members start each iteration together and leave its barrier together, so every member
// measures the iteration's time alike (MemberView::ring_time): a slowdown is common knowledge the
// iteration after it happens, where reports reach every member floor(n/2) iterations later (16
// iterations of a 5x slowdown on a ring of 32, paper's traces, ratio 1). What is lost is the excess
// of each iteration over the first one after the last decision (its loads, the speeds then). Buying
// a look (an all-gather and a planner run) and the least move that could undo the rise when the
// loss reaches their cost is the ski-rental rule (Karlin, Manasse, Rudolph and Sleator, 1988): what
// is spent on looks never exceeds what had been lost, and a rise that lasts is looked at within
// (look + move) / excess iterations. Nicol and Saltz's Stop-At-Rise (1988) also decides on the
// degradation measured since the last remap. Whether to move stays the policy's accept(), as after
// any look.
struct Rise {
  double floor = 0.0;      // s, the least move known for the present loads (a refused plan's)
  double reference = 0.0;  // s, the first iteration after the last decision (0: not yet seen)
  double lost = 0.0;       // s, the excess over it summed since
  double excess = 0.0;     // s, the last iteration's
  double move = 0.0;       // s, at least what undoing the last excess would move
  // Whether the loss up to the previous iteration reaches a look (`look`, s) and the least move.
  bool paid(const MemberView& v, const RingFacts& f, double look) {
    if (!(v.ring_time > 0.0) || v.last_move >= v.iteration - 1) return false;  // unknown, or before a move
    if (reference == 0.0) {
      reference = v.ring_time;
      return false;
    }
    excess = std::max(0.0, v.ring_time - reference);
    lost += excess;
    move = std::max(floor, least_move(f, *v.loads, v.ring_time, reference));
    return lost >= look + move;
  }
  // A lower bound on a move that takes an iteration of `from` s back to `to`: the slowest member,
  // whichever it is, computes from - border s and must shed the share 1 - (to - border) /
  // (from - border) of its columns, to its two neighbours at once (one port per link: the split
  // that ends both sends together).
  static double least_move(const RingFacts& f, const std::vector<long>& loads, double from, double to) {
    if (!(from > to)) return 0.0;
    const double keep = std::clamp((to - f.border_time) / std::max(from - f.border_time, 1e-300), 0.0, 1.0);
    double least = INFINITY;
    for (std::size_t m = 0; m < loads.size(); ++m) {
      const double next = f.cost_next[m], prev = f.cost_prev[m];
      least = std::min(least, static_cast<double>(loads[m]) * (1.0 - keep) * next * prev / (next + prev));
    }
    return std::isfinite(least) ? least : 0.0;
  }
};

}  // namespace ringsim::policy
