// The references' model of a run (policies/scheme.hpp: schemes chosen before the run, then
// simulated as the fixed scheme of their points): the simulation's own predictions, so that what
// a reference optimizes is what the run will do up to SimGrid's sharing and latencies. Each
// member's computation at its speed (applied as the members will apply it: by iteration, or the
// profile integrated over time), the border exchange of predicted_tstep, the one-way all-gather,
// the planners' decision and schedule.
#include "sim/reference_model.hpp"

#include <algorithm>
#include <cmath>
#include <string>

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

points::RunModel reference_run_model(const RingRun& r, const std::vector<Count>& initial) {
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

policy::ReferenceInput reference_input(const RingRun& r, const RunConfig& cfg, const points::RunModel& model) {
  policy::ReferenceInput in;
  in.config = &cfg;
  in.model = &model;
  in.peak = r.peak;
  in.traces.assign(r.traces.begin(), r.traces.end());
  for (const HostTrace* t : r.traces) in.placed_by_iteration.push_back(placed_by_iteration(r, *t));
  return in;
}

}  // namespace ringsim::sim
