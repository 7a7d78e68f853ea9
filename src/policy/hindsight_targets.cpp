// Scheme `hindsight-targets`: the best points and the loads each moves to, chosen before the run
// with every speed known, targets among the balance of any iteration's speeds and the initial
// loads (planners/points/chosen_targets_plan.hpp); simulated as the fixed scheme of its points, each
// point carrying out its planned move. Its recurrence is exact for speeds that change between
// iterations only, so it refuses traces that follow the clock.
#include <chrono>

#include "io/progress_line.hpp"
#include "io/trace_files.hpp"
#include "model/errors.hpp"
#include "planners/points/chosen_targets_plan.hpp"
#include "policy/registry.hpp"

namespace ringsim::policy {

namespace {

// The scheme's name, written here once: its entry and its progress line name it.
constexpr const char* kHindsightTargets = "hindsight-targets";

ReferencePlan plan_hindsight_targets(const ReferenceInput& in, RunResult& result) {
  const auto t0 = std::chrono::steady_clock::now();
  points::RunModel model = *in.model;
  io::ProgressLine line(kHindsightTargets);
  model.progress = [&line](const char* step, double done, double total) { line.update(step, done, total); };
  if (model.clock_dependent)
    throw InputError(std::string("scheme '") + kHindsightTargets +
                     "' needs speeds that change between iterations only; these traces follow the clock (a profile "
                     "or a trace by time)");
  const points::ChosenTargetsPlan plan = points::plan_hindsight_chosen_targets(model);
  ReferencePlan out{plan.points, {}};
  for (std::size_t k = 0; k < plan.points.size(); ++k) out.point_loads[plan.points[k]] = plan.point_loads[k];
  result.hindsight = RunResult::Hindsight{};
  RunResult::Hindsight& h = *result.hindsight;
  h.points = plan.points;
  h.simulated_as = fixed_scheme_of(plan.points);
  h.predicted_makespan = plan.predicted_makespan;
  h.predicted_none = points::predicted_makespan(model, {});
  h.planner_calls = plan.planner_calls;
  h.point_loads = plan.point_loads;
  h.seconds = seconds_since(t0);
  return out;
}

// The config's traces follow the clock whatever the platform: the Failure Trace Archive's and the
// user's profiles are by time, a CSV by time when its header says so (the file is read), measured
// utilization unless laid over the iterations (time_scale "span").
bool traces_follow_clock(const RunConfig& cfg) {
  if (cfg.traces.source == TraceSource::fta) return true;
  if (cfg.traces.source == TraceSource::planetlab || cfg.traces.source == TraceSource::utilization_csv)
    return !cfg.traces.real.availability.over_iterations;
  if (cfg.traces.source != TraceSource::files) return false;
  if (!cfg.traces.profiles.empty()) return true;
  return !cfg.traces.csv.empty() && !io::read_speed_csv(cfg.traces.csv).by_iteration;
}

// What the run would refuse once its model is built (plan_hindsight_targets), refused from the
// config alone, so that a sweep refuses it before it starts.
void needs_iteration_placement(const RunConfig& cfg, const std::string& prefix) {
  if (cfg.traces.placement != TracePlacement::iteration)
    throw InputError(prefix + "needs traces 'placement': 'iteration' (its recurrence needs speeds that change "
                     "between iterations only)");
  if (traces_follow_clock(cfg))
    throw InputError(prefix + "needs speeds that change between iterations only; these traces follow the clock (a "
                     "profile or a trace by time, source '" + trace_source_name(cfg) + "')");
}

}  // namespace

SchemeEntry hindsight_targets_scheme() {
  SchemeEntry e = reference_entry(kHindsightTargets,
                                   "the best points and the loads each moves to, chosen knowing every speed of the run (a bound)",
                                   Knows::future_traces, plan_hindsight_targets, needs_iteration_placement);
  e.checked_in_simulation = true;
  return e;
}

}  // namespace ringsim::policy
