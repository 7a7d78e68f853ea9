// System 2 of the HiPC 2004 paper (Section 6) solved exactly through its single free parameter.
// Once items only cross each edge in one direction (opposite flows on an edge cancel, which can
// only lower every processor's time), conservation fixes the net flows up to one integer constant,
// the circulation x around the ring: g_i = F_i + x. Every processor's sending and receiving time is
// a convex piecewise-linear function of x, so the optimal tau(x) is convex too and the best integer
// x is found by binary search on the sign of tau(x+1) - tau(x): O(n log(max F - min F)).
// By convexity the best integer x is the floor or the ceiling of a rational optimum, which is the
// paper's "one of the two natural roundings is optimal".
#pragma once

#include "model/redistribution.hpp"
#include "planners/redistribution/ring_math.hpp"

namespace ringsim::redistribution {

// tau(x) of System 2: the largest sending or receiving time over all processors when the net
// flows are F + x. Unidirectional instances are not accepted (no cost_prev).
double system2_time(const RingInstance& inst, const std::vector<Count>& F, Count x);

struct CirculationOptimum {
  Count x = 0;               // an optimal circulation (light when `light` is true)
  double tau = 0.0;          // integer optimum of System 2: a lower bound for every schedule
  Count x_min = 0, x_max = 0;  // all optimal integer circulations
  bool light = false;        // some optimal x lets every processor send only items it holds
};

CirculationOptimum optimal_integer_circulation(const RingInstance& inst);

// Items P_i sends in total under circulation x: max(0, delta_i, F_i + x, -(F_(i-1) + x)).
Count items_sent(const std::vector<Count>& delta, const std::vector<Count>& F, std::size_t i, Count x);

}  // namespace ringsim::redistribution
