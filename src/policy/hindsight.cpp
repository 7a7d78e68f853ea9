// Scheme `hindsight`: the redistribution points that minimize the predicted makespan, chosen
// before the run with every speed of the run known (planners/points/hindsight_plan.hpp), each point
// balancing for its decision speeds as every scheme's point does; the run then simulates them as
// the fixed scheme of its points. Not a policy a member could run: a bound for the online ones.
// The same run's optimum when points choose their targets too is scheme hindsight-targets'.
#include <chrono>

#include "io/progress_line.hpp"
#include "planners/points/hindsight_plan.hpp"
#include "policy/registry.hpp"

namespace ringsim::policy {

namespace {

// The scheme's name, written here once: its entry and its progress line name it.
constexpr const char* kHindsight = "hindsight";

ReferencePlan plan_hindsight(const ReferenceInput& in, RunResult& result) {
  const auto t0 = std::chrono::steady_clock::now();
  points::RunModel model = *in.model;
  io::ProgressLine line(kHindsight);
  model.progress = [&line](const char* step, double done, double total) { line.update(step, done, total); };
  const points::HindsightPlan plan = points::plan_hindsight(model);
  result.hindsight = RunResult::Hindsight{};
  RunResult::Hindsight& h = *result.hindsight;
  h.points = plan.points;
  h.simulated_as = fixed_scheme_of(plan.points);
  h.predicted_makespan = plan.predicted_makespan;
  h.predicted_none = plan.predicted_none;
  h.planner_calls = plan.planner_calls;
  h.exact = plan.exact;
  h.seconds = seconds_since(t0);
  return {plan.points, {}};
}

}  // namespace

SchemeEntry hindsight_scheme() {
  SchemeEntry e = reference_entry(kHindsight,
                                   "the points that minimize the predicted makespan, chosen knowing every speed of the run (a bound)",
                                   Knows::future_traces, plan_hindsight);
  e.checked_in_simulation = true;
  return e;
}

}  // namespace ringsim::policy
