// Scheme `online-optimal`: the points that the best online rule takes along this run's traces
// (planners/points/on_off_recursion.hpp). The rule knows, after every iteration, whether each member
// is loaded, and the traces' law (geometric on/off with the config's mean durations), not their
// future: a bound for policies that know less. Chosen before the run on hindsight's model, so that
// the two references differ only in what they know, and simulated as the fixed scheme of its points.
#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "io/progress_line.hpp"
#include "model/errors.hpp"
#include "planners/points/on_off_recursion.hpp"
#include "policy/predictions.hpp"
#include "policy/registry.hpp"

namespace ringsim::policy {

namespace {

// The scheme's name, written here once: its entry and its progress line name it.
constexpr const char* kOnlineOptimal = "online-optimal";

points::OnOffLaw law_of(const OnOffSpec& spec) {
  points::OnOffLaw law;
  law.load_factor = spec.load_factor;
  law.leave_available = 1.0 / spec.available;  // trace_families.cpp: leaves with 1 / mean each iteration
  law.leave_loaded = 1.0 / spec.loaded;
  law.loaded_at_start = spec.loaded / (spec.available + spec.loaded);
  return law;
}

// Each iteration's joint state, read back from the traces the members will apply.
std::vector<points::LoadStates> states_of(const ReferenceInput& in, const points::OnOffLaw& law) {
  const int iterations = in.model->iterations;
  std::vector<points::LoadStates> states(static_cast<std::size_t>(iterations), 0);
  for (std::size_t i = 0; i < in.traces.size(); ++i) {
    if (in.traces[i]->changes.empty()) continue;  // available throughout
    if (!in.placed_by_iteration[i]) throw InputError("scheme 'online-optimal' needs on/off traces placed by iteration");
    for (int it = 1; it <= iterations; ++it) {
      const double m = multiplier_at_iteration(*in.traces[i], it);
      if (m != 1.0 && m != law.load_factor) throw std::logic_error("online-optimal: a multiplier that is neither state's");
      if (m != 1.0) states[static_cast<std::size_t>(it) - 1] |= points::LoadStates{1} << i;
    }
  }
  return states;
}

// The learning late rule solves again when an estimated leaving probability has moved by more
// than this share of the one it last solved for. Each solve is the whole recursion from the
// present to the end (seconds on a ring of 8 over 100 iterations); the estimate moves fast while
// few changes are seen, then slowly, so this bounds the solves without letting the rule act long
// on a law far from its estimate.
constexpr double learning_resolve = 0.2;

ReferencePlan plan_online_optimal(const ReferenceInput& in, RunResult& result) {
  const auto t0 = std::chrono::steady_clock::now();
  points::RunModel run = *in.model;
  io::ProgressLine line(kOnlineOptimal);
  run.progress = [&line](const char* step, double done, double total) { line.update(step, done, total); };
  const points::OnOffLaw law = law_of(in.config->traces.on_off);
  const points::OnlineOptimal online(run, in.peak, law);
  const std::vector<points::LoadStates> states = states_of(in, law);
  result.online_optimal = RunResult::OnlineOptimal{};
  RunResult::OnlineOptimal& out = *result.online_optimal;
  out.points = online.points_along(states);
  out.simulated_as = fixed_scheme_of(out.points);
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
  // A policy's information on this ring: the common snapshot floor(n/2) - 1 iterations late
  // (member_reports.cpp), the present by an all-gather both ways of floor(n/2) rounds, each round
  // taken as the mean round of the model's one-way all-gather of n - 1 rounds.
  const std::size_t n = run.initial_loads.size();
  out.late_delay = common_snapshot_lag(n);
  out.late_look = 0.0;
  if (n >= 2 && !run.gathered.empty())
    out.late_look = static_cast<double>(n / 2) * *std::max_element(run.gathered.begin(), run.gathered.end()) /
                    static_cast<double>(n - 1);
  out.expected_late = online.expected_late(out.late_delay, out.late_look);
  auto kept = [](const points::OnlineOptimal::LatePath& p) {
    return RunResult::OnlineOptimal::LatePath{p.points, p.looks, p.makespan, p.solves};
  };
  out.late_path = kept(online.late_along(states, out.late_delay, out.late_look));
  out.learning_resolve = learning_resolve;
  out.learning_path = kept(online.learning_late_along(states, out.late_delay, out.late_look, out.learning_resolve));
  out.seconds = seconds_since(t0);
  return {out.points, {}};
}

// The one load whose law the rule can know exactly, changing between iterations, on a ring small
// enough for its recursion over the 2^n joint on/off states.
void needs_geometric_on_off(const RunConfig& cfg, const std::string& prefix) {
  if (cfg.traces.source != TraceSource::on_off || cfg.traces.on_off.durations != OnOffDurations::geometric) {
    const std::string got = cfg.traces.source == TraceSource::on_off
                                ? std::string(to_string(cfg.traces.on_off.durations)) + " durations"
                                : "source " + trace_source_name(cfg);
    throw InputError(prefix + "needs traces {source: on-off} with geometric durations (the one load whose law it can "
                     "know exactly), got " + got);
  }
  if (cfg.traces.placement != TracePlacement::iteration)
    throw InputError(prefix + "needs traces 'placement': 'iteration' (its states change between iterations)");
  const std::size_t most = points::OnlineOptimal::max_members;
  const std::size_t n =
      cfg.ring.selection == RingSelection::hosts ? cfg.ring.hosts.size() : static_cast<std::size_t>(cfg.ring.size);
  if (n > most)
    throw InputError(prefix + "needs a ring of at most " + std::to_string(most) +
                     " members (its recursion runs over the 2^n joint on/off states), got " + std::to_string(n));
}

}  // namespace

SchemeEntry online_optimal_scheme() {
  return reference_entry(kOnlineOptimal,
                         "the points of the best online rule that knows every member's on/off state and the load's law "
                         "(geometric on/off traces; a bound)",
                         Knows::load_states_and_law, plan_online_optimal, needs_geometric_on_off);
}

}  // namespace ringsim::policy
