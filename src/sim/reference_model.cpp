// The references' model of a run (policy/scheme.hpp: schemes chosen before the run, then
// simulated as the fixed scheme of their points): the simulation's own predictions, so that what
// a reference optimizes is what the run will do up to SimGrid's sharing and latencies. Each
// member's computation at its speed (applied as the members will apply it: by iteration, or the
// profile integrated over time), the border exchange of predicted_tstep, the one-way all-gather,
// the planners' decision and schedule.
#include "sim/reference_model.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "planners/points/all_gather.hpp"

namespace ringsim::sim {

namespace {

// Each member's end of the one-way all-gather (redistribution_point.cpp), after the point's start:
// one report to the successor per round, sharing the links where neighbour transfers do.
std::vector<double> predicted_gather_ends(const RunSetup& s, const RingShape& ring,
                                          const points::NeighbourRoutes& routes) {
  const double bytes = std::max(1.0, s.app.report_bytes);
  if (!routes.empty()) return points::shared_all_gather_ends(routes, bytes);
  std::vector<double> report_cost(ring.n, 0.0);
  for (std::size_t i = 0; ring.n > 1 && i < ring.n; ++i) {
    double latency = 0.0, bandwidth = INFINITY;
    route_latency_bandwidth(ring.hosts[i], ring.hosts[ring.succ(i)], latency, bandwidth);
    report_cost[i] = latency + (std::isfinite(bandwidth) ? bytes / bandwidth : 0.0);
  }
  return points::all_gather_ends(report_cost);
}

// The trace's speed changes with the clock (a profile with changes), not once per iteration.
bool follows_clock(const RunSetup& s, const HostTrace& t) { return !placed_by_iteration(s, t) && !t.changes.empty(); }

}  // namespace

// The model keeps pointers to `s` and `ring`: they must outlive it (the run's setup and its
// initial ring do).
points::RunModel reference_run_model(const RunSetup& s, const RingShape& ring, const std::vector<Count>& initial) {
  points::RunModel m;
  m.iterations = s.app.iterations;
  m.columns = s.app.columns;
  m.flops_per_column = s.flops_per_column;
  m.start = s.time_origin;
  m.initial_loads = initial;
  m.cost_next = ring.cost_next;
  m.cost_prev = ring.cost_prev;
  m.border_time = ring.border_time;
  m.neighbour_routes = ring.routes;
  m.gathered = predicted_gather_ends(s, ring, m.neighbour_routes);
  m.decision_flops = s.app.decision_flops;
  m.planner = s.app.planner;
  for (const HostTrace* t : ring.traces) m.clock_dependent = m.clock_dependent || follows_clock(s, *t);
  const RunSetup* setup = &s;
  const RingShape* shape = &ring;
  // As execute_in_iteration applies it: placed by iteration, the iteration's multiplier for the
  // whole computation; otherwise SimGrid's profile, piecewise constant in time.
  m.finish = [setup, shape](std::size_t i, int it, double start, double flops) {
    const RunSetup& rs = *setup;
    const RingShape& rr = *shape;
    if (rr.traces.empty()) return start + flops / rr.peak[i];
    const HostTrace& t = *rr.traces[i];
    if (placed_by_iteration(rs, t)) return start + flops / (rr.peak[i] * multiplier_at_iteration(t, it));
    return finish_of_work(t, rr.peak[i], rs.iteration_time0, start, flops, rs.time_origin);
  };
  // As decision_speeds (redistribution_point.cpp) after an all-gather: oracle, each member's true
  // speed at the decision (current_speed); measured, its columns over its last computation time.
  m.decision_speeds = [setup, shape](int j, const std::vector<Count>& loads, const std::vector<double>& compute,
                                      double, double decided) {
    const RunSetup& rs = *setup;
    const RingShape& rr = *shape;
    std::vector<double> speeds(rr.n);
    for (std::size_t i = 0; i < rr.n; ++i) {
      // A speed that does not follow the clock is constant during the iteration: what the member
      // measures is that speed (to the clock's rounding, which would otherwise split one point's
      // arrivals into several labels for nothing), the oracle's.
      if (rs.app.targets == TargetMode::measured && !rr.traces.empty() && follows_clock(rs, *rr.traces[i]))
        speeds[i] = static_cast<double>(loads[i]) * rs.flops_per_column / std::max(compute[i], 1e-300);
      else
        speeds[i] = rr.traces.empty() ? rr.peak[i]
                                      : rr.peak[i] * multiplier_during(rs, *rr.traces[i], j, decided, rs.time_origin);
    }
    return speeds;
  };
  return m;
}

policy::ReferenceInput reference_input(const RunSetup& s, const RingShape& ring, const RunConfig& cfg,
                                       const points::RunModel& model) {
  policy::ReferenceInput in;
  in.config = &cfg;
  in.model = &model;
  in.peak = ring.peak;
  in.traces.assign(ring.traces.begin(), ring.traces.end());
  for (const HostTrace* t : ring.traces) in.placed_by_iteration.push_back(placed_by_iteration(s, *t));
  return in;
}

}  // namespace ringsim::sim
