// Hindsight with chosen targets: knowing the whole run's speeds, the points and, at each point, the
// loads to move to, that minimize the predicted makespan, where a point may balance for the
// speeds of any iteration of the run (past, present or future) or return to the initial loads.
//
// `hindsight` (hindsight_plan.hpp) is optimal over its points with each point balancing for the
// present, the targets every scheme's point takes. The best possible schedule may choose its
// targets too: knowing that a member is loaded from iteration 41, it balances for iteration 41's
// speeds after iteration 40, before the slow iteration instead of after it. This plan measures
// how much lower the optimum lies once targets are chosen as well, over a stated set of targets:
// the balance of each iteration's speeds (every balance a schedule could aim at with what the
// run's speeds are) and the initial loads. Moves to other distributions (a blend of two
// iterations' speeds) are outside it.
//
// The recurrence is forward over (iteration, loads): with speeds indexed by the iteration, the
// cost of every later iteration and point depends on the iteration and the loads held, not on how
// the run got there, so the earliest end of iteration t with each candidate loads is all a later
// choice needs (optimal substructure, as in hindsight_plan.hpp's exact case), O(iterations C^2) with C
// candidate loads (at most iterations + 1) and at most C^2 planner runs. Clock-dependent speeds
// break that substructure: the plan refuses them.
#pragma once

#include <cstddef>
#include <vector>

#include "planners/points/hindsight_plan.hpp"

namespace ringsim::points {

struct ChosenTargetsPlan {
  std::vector<int> points;                  // after these iterations, increasing
  std::vector<std::vector<Count>> point_loads;  // per point, the loads it moves to
  double predicted_makespan = 0.0;          // the model's clock when the last iteration ends
  std::size_t candidates = 0;               // distinct loads a point could move to
  std::size_t planner_calls = 0;
};

// Throws std::invalid_argument when the model's speeds depend on the clock.
ChosenTargetsPlan plan_hindsight_chosen_targets(const RunModel& model);

// The model's makespan for given points and the loads each moves to (each different from the
// loads it leaves): what the recurrence adds up along one path, for tests and reports.
double predicted_makespan_with_targets(const RunModel& model, const std::vector<int>& points,
                                       const std::vector<std::vector<Count>>& targets);

}  // namespace ringsim::points
