// The ring the planner chooses for a run's `ratio` (docs/configs.md, key `ratio`).
//
// ratio = (one column computed at the ring's mean speed) / (one column sent over the ring's mean
// neighbour path), so the work per column is ratio x mean column time x mean speed: it depends on
// the ring, while the planner needs the work W = columns x work per column to choose the ring.
// The ring is the fixed point of ring -> W(ring) -> plan_ring(W). Starting from the work that the
// platform's means imply, each round plans for the current W and takes the W implied by the ring
// it chose; it stops when a ring repeats. If it repeats the previous round's ring, that ring was
// planned for its own W: a fixed point. Otherwise the rounds cycle (no fixed point reachable
// this way), and the ring of the cycle with the least T_step under its own implied W is kept;
// so is it when the rounds run out. High ratios reach the fixed point in three plans (the third
// repeats the second ring). Low ratios may cycle: a lone host has no neighbour path, its column time
// counts as 1 s (as in the simulation), so it implies a work far above what a larger ring implies,
// the larger ring's small work makes the planner pick the lone host again, and the rounds alternate.
#pragma once

#include <functional>
#include <vector>

#include "planners/ring/ring_plan.hpp"

namespace ringsim::ring {

class RingNetwork;

struct RatioRing {
  RingPlan plan;               // planned for `work` when `converged`
  double work = 0.0;           // W the ring's own ratio implies (flop per iteration)
  double planned_for = 0.0;    // W the plan was made for (= work when `converged`)
  double tstep = 0.0;          // T_step of the ring under `work`
  int rounds = 0;              // plans made
  bool converged = false;      // the ring was planned for its own implied W
};

// Mean time to send `bytes` over the plan's 2q neighbour paths (latency + bytes / bottleneck
// bandwidth of each path, the cost SimGrid's linear model gives a lone flow); 1 s for q = 1, so
// that a lone member's work per column is ratio x its speed, as in the simulation.
double mean_neighbour_column_time(const RingNetwork& net, const RingPlan& plan, double bytes);
// Mean speed of the plan's members (flop/s).
double mean_member_speed(const RingNetwork& net, const RingPlan& plan);
// T_step of the plan's ring and paths when the work per iteration is `work`.
double tstep_under_work(const RingNetwork& net, const RingPlan& plan, double work);

// The fixed point above, on callbacks (plan for a W; the W a planned ring implies; T_step of a
// planned ring under a W), at most `max_rounds` plans.
RatioRing ratio_fixed_point(const std::function<RingPlan(double)>& plan_for_work,
                            const std::function<double(const RingPlan&)>& implied_work,
                            const std::function<double(const RingPlan&, double)>& tstep_under, double initial_work,
                            int max_rounds = 8);

// The same on a network: W(ring) = columns x ratio x mean column time x mean speed.
RatioRing plan_ring_for_ratio(const RingNetwork& net, double ratio, double columns, double column_bytes,
                              double initial_work, const std::string& method, int max_rounds = 8);

}  // namespace ringsim::ring
