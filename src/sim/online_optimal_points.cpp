// Scheme `online-optimal` (planners/points/online_optimal.hpp): before the run, the points that the
// best online rule takes along this run's traces. The rule knows, after every iteration, whether
// each member is loaded, and the traces' law (geometric on/off with the config's mean durations),
// not their future; the run then simulates its points as the fixed scheme "after:a,b,.." (or
// "none"), like hindsight's. Its model is hindsight's (hindsight_run_model), so that the two
// schemes differ only in what they know.
#include "sim/ring_app.hpp"

#include <stdexcept>

#include "model/errors.hpp"
#include "planners/points/online_optimal.hpp"

namespace ringsim::sim {

namespace {

points::OnOffLaw law_of(const OnOffSpec& spec) {
  points::OnOffLaw law;
  law.load_factor = spec.load_factor;
  law.leave_available = 1.0 / spec.available;  // trace_families.cpp: leaves with 1 / mean each iteration
  law.leave_loaded = 1.0 / spec.loaded;
  law.loaded_at_start = spec.loaded / (spec.available + spec.loaded);
  return law;
}

// Each iteration's joint state, read back from the traces the members will apply.
std::vector<points::LoadStates> states_of(const RingRun& r, const points::OnOffLaw& law) {
  std::vector<points::LoadStates> states(static_cast<std::size_t>(r.app.iterations), 0);
  for (std::size_t i = 0; i < r.n && !r.traces.empty(); ++i) {
    if (r.traces[i]->changes.empty()) continue;  // available throughout
    if (!placed_by_iteration(r, *r.traces[i]))
      throw InputError("scheme 'online-optimal' needs on/off traces placed by iteration");
    for (int it = 1; it <= r.app.iterations; ++it) {
      const double m = multiplier_at_iteration(*r.traces[i], it);
      if (m != 1.0 && m != law.load_factor)
        throw std::logic_error("online-optimal: a multiplier that is neither state's");
      if (m != 1.0) states[static_cast<std::size_t>(it) - 1] |= points::LoadStates{1} << i;
    }
  }
  return states;
}

}  // namespace

RunResult::OnlineOptimal plan_online_optimal_points(const RingRun& r, const std::vector<Count>& initial,
                                                    const OnOffSpec& spec) {
  const points::RunModel run = hindsight_run_model(r, initial);
  const points::OnOffLaw law = law_of(spec);
  const points::OnlineOptimal online(run, r.peak, law);
  const std::vector<points::LoadStates> states = states_of(r, law);
  RunResult::OnlineOptimal out;
  out.points = online.points_along(states);
  out.expected_makespan = online.expected_makespan();
  out.expected_none = online.expected_none();
  out.predicted_makespan = points::predicted_makespan(run, out.points);
  out.loads = online.loads_count();
  out.planner_calls = online.planner_calls();
  out.expected_any_target = online.expected_any_target();
  const points::OnlineOptimal::Path any = online.any_target_along(states);
  out.any_target_points = any.points;
  out.any_target_returns = any.moves_to_initial;
  out.any_target_makespan = any.makespan;
  out.any_target_none = any.none;
  const points::OnlineOptimal::Path knowing = online.hindsight_any_target_along(states);
  out.hindsight_any_target_points = knowing.points;
  out.hindsight_any_target_returns = knowing.moves_to_initial;
  out.hindsight_any_target_makespan = knowing.makespan;
  return out;
}

}  // namespace ringsim::sim
