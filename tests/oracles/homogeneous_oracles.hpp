// Exact test oracles for homogeneous bidirectional rings in unit steps (every link costs c, step s
// occupies [(s-1)c, sc)), independent of the planners' code. Model: per step every processor sends
// at most one item to one of its two neighbours and receives at most one item (one-port, HiPC 2004
// Section 2); it only sends items it holds at the start of the step (an item received during a
// step can leave from the next step on).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "model/redistribution.hpp"

namespace ringsim::oracles {

// Fewest steps, by breadth-first search over the holdings vector, each step enumerating every set
// of sends allowed by the model. For tiny rings (n <= 5, a few items in total). Nothing when no
// schedule of at most `max_steps` steps exists or more than `max_states` states are visited.
std::optional<long> homogeneous_brute_force_steps(const RingInstance& inst, long max_steps = 64,
                                                  std::size_t max_states = 2000000);

// Time-expanded max flow over `steps` steps: node (i, t) per processor and time, holdover arcs,
// a send node and a receive node per processor and step with capacity 1 (one-port), supplies =
// loads at t = 0, demands = targets at t = steps. Integral flows are exactly the schedules.
// When feasible and `schedule` is given, fills it with the flow decomposed into Transfers (one per
// maximal run of consecutive steps in which a processor sends in the same direction).
bool time_expanded_feasible(const RingInstance& inst, long steps, RedistributionPlan* schedule = nullptr);

struct TimeExpandedOptimum {
  long steps = 0;
  RedistributionPlan schedule;  // an optimal schedule, in time units of c = cost_next[0]
};

// Smallest feasible number of steps, searched upwards from 0 (so independent of any bound);
// nothing above `max_steps`.
std::optional<TimeExpandedOptimum> time_expanded_optimum(const RingInstance& inst, long max_steps = 200);

}  // namespace ringsim::oracles
