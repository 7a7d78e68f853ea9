// Scheme `hindsight` (planners/points/hindsight.hpp): before the run, the redistribution points
// that minimize the predicted makespan, found with the traces this run will apply; the run then
// simulates them as the fixed scheme "after:a,b,.." (or "none"), like any other scheme. The
// recurrence predicts with the simulation's own models: each member's computation at its speed
// (applied as the members will apply it: by iteration, or the profile integrated over time), the
// border exchange of predicted_tstep, the one-way all-gather, the planners' decision and schedule.
#include "sim/ring_app.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "model/errors.hpp"
#include "planners/points/hindsight.hpp"
#include "planners/points/hindsight_targets.hpp"

namespace ringsim::sim {

namespace {

// The one-way all-gather (redistribution_point.cpp): n - 1 rounds, each one report to the
// successor; a round lasts as long as the slowest neighbour path.
double predicted_gather_time(const RingRun& r) {
  double round = 0.0;
  const double bytes = std::max(1.0, r.app.report_bytes);
  for (std::size_t i = 0; r.n > 1 && i < r.n; ++i) {
    double latency = 0.0, bandwidth = INFINITY;
    route_latency_bandwidth(r.hosts[i], r.hosts[succ(r, i)], latency, bandwidth);
    round = std::max(round, latency + (std::isfinite(bandwidth) ? bytes / bandwidth : 0.0));
  }
  return static_cast<double>(r.n > 0 ? r.n - 1 : 0) * round;
}

// The trace's speed changes with the clock (a profile with changes), not once per iteration.
bool follows_clock(const RingRun& r, const HostTrace& t) { return !placed_by_iteration(r, t) && !t.changes.empty(); }

}  // namespace

points::RunModel hindsight_run_model(const RingRun& r, const std::vector<Count>& initial) {
  points::RunModel m;
  m.iterations = r.app.iterations;
  m.columns = r.app.columns;
  m.flops_per_column = r.flops_per_column;
  m.start = r.time_origin;
  m.initial_loads = initial;
  m.cost_next = r.cost_next;
  m.cost_prev = r.cost_prev;
  m.border_time = r.border_time;
  m.gather_time = predicted_gather_time(r);
  m.decision_flops = r.app.decision_flops;
  m.algorithm = r.app.algorithm;
  for (const HostTrace* t : r.traces) m.clock_dependent = m.clock_dependent || follows_clock(r, *t);
  const RingRun* run = &r;
  // As execute_in_iteration applies it: placed by iteration, the iteration's multiplier for the
  // whole computation; otherwise SimGrid's profile, piecewise constant in time.
  m.finish = [run](std::size_t i, int it, double start, double flops) {
    const RingRun& rr = *run;
    if (rr.traces.empty()) return start + flops / rr.peak[i];
    const HostTrace& t = *rr.traces[i];
    if (placed_by_iteration(rr, t)) return start + flops / (rr.peak[i] * multiplier_at_iteration(t, it));
    return finish_of_work(t, rr.peak[i], rr.iteration_time0, start, flops, rr.time_origin);
  };
  // As decision_speeds (redistribution_point.cpp) after an all-gather: oracle, each member's true
  // speed at the decision (current_speed); measured, its columns over its last computation time.
  m.decision_speeds = [run](int j, const std::vector<Count>& loads, const std::vector<double>& compute, double,
                            double decided) {
    const RingRun& rr = *run;
    std::vector<double> speeds(rr.n);
    for (std::size_t i = 0; i < rr.n; ++i) {
      // A speed that does not follow the clock is constant during the iteration: what the member
      // measures is that speed (to the clock's rounding, which would otherwise split one point's
      // arrivals into several labels for nothing), the oracle's.
      if (rr.app.targets == TargetMode::measured && !rr.traces.empty() && follows_clock(rr, *rr.traces[i]))
        speeds[i] = static_cast<double>(loads[i]) * rr.flops_per_column / std::max(compute[i], 1e-300);
      else
        speeds[i] = rr.traces.empty() ? rr.peak[i]
                                      : rr.peak[i] * multiplier_during(rr, *rr.traces[i], j, decided, rr.time_origin);
    }
    return speeds;
  };
  return m;
}

points::HindsightPlan plan_hindsight_points(const RingRun& r, const std::vector<Count>& initial) {
  if (!r.app.rebuilds.empty())
    throw InputError("scheme 'hindsight' does not combine with rebuilds (the recurrence knows one ring)");
  return points::plan_hindsight(hindsight_run_model(r, initial));
}

std::optional<RunResult::Hindsight::ChosenTargets> plan_chosen_targets(const RingRun& r, const std::vector<Count>& initial) {
  const auto t0 = std::chrono::steady_clock::now();
  const points::RunModel model = hindsight_run_model(r, initial);
  if (model.clock_dependent) return std::nullopt;
  const points::ChosenTargetsPlan plan = points::plan_hindsight_chosen_targets(model);
  return RunResult::Hindsight::ChosenTargets{plan.points, plan.predicted_makespan, plan.candidates, plan.planner_calls,
                                             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
}

RunResult::Hindsight plan_hindsight_targets_points(RingRun& r, const std::vector<Count>& initial) {
  const auto t0 = std::chrono::steady_clock::now();
  const points::RunModel model = hindsight_run_model(r, initial);
  if (model.clock_dependent)
    throw InputError("scheme 'hindsight-targets' needs speeds that change between iterations only; these traces "
                     "follow the clock (a profile or a trace by time)");
  const points::ChosenTargetsPlan plan = points::plan_hindsight_chosen_targets(model);
  for (std::size_t k = 0; k < plan.points.size(); ++k) r.app.planned_targets[plan.points[k]] = plan.targets[k];
  RunResult::Hindsight h;
  h.points = plan.points;
  h.simulated_as = fixed_scheme_of(plan.points);
  h.predicted_makespan = plan.predicted_makespan;
  h.predicted_none = points::predicted_makespan(model, {});
  h.planner_calls = plan.planner_calls;
  h.targets = plan.targets;
  h.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return h;
}

std::string fixed_scheme_of(const std::vector<int>& points) {
  if (points.empty()) return "none";
  std::string s = "after:";
  for (std::size_t k = 0; k < points.size(); ++k) s += (k ? "," : "") + std::to_string(points[k]);
  return s;
}

}  // namespace ringsim::sim
