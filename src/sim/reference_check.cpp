#include "sim/reference_check.hpp"

#include <xbt/log.h>

#include <algorithm>
#include <set>

#include "io/process.hpp"
#include "io/progress_line.hpp"
#include "model/errors.hpp"
#include "policy/registry.hpp"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(ringsim_app_reference_check, ringsim_app,
                                "ringsim: a reference simulated against the schemes it must beat");

namespace ringsim::sim {

namespace {

// The fixed schemes of `check` to simulate: one per set of points, none with the reference's own
// points unless the reference also chose its targets (then the same points move elsewhere).
std::vector<std::string> schemes_to_simulate(const SimulatedScheme& own, const std::vector<std::string>& check,
                                             int iterations) {
  std::set<std::vector<int>> seen;
  if (own.point_loads.empty()) seen.insert(*policy::fixed_points_of(own.scheme, iterations));
  std::vector<std::string> out;
  for (const auto& s : check)
    if (seen.insert(*policy::fixed_points_of(s, iterations)).second) out.push_back(s);
  return out;
}

// The makespan of `s` simulated in a child forked from the loaded simulation: the child's output
// and its trace events go nowhere (the run reports one scheme), a failure is the run's.
double simulated_in_child(const SimulatedScheme& s, const RunToEnd& run_to_end, const platform::PajeTraceFile& paje_trace) {
  io::ChildOptions quiet;
  quiet.stdout_file = quiet.stderr_file = "/dev/null";
  io::ChildValue makespan(
      [&] {
        paje_trace.discard_writes();
        return run_to_end(s);
      },
      "check of the reference against scheme '" + s.scheme + "'", quiet);
  try {
    return makespan.get();
  } catch (const InputError& e) {
    throw InputError("simulating scheme '" + s.scheme + "' to check the reference: " + e.what());
  }
}

}  // namespace

SimulatedScheme check_reference(int iterations, const SimulatedScheme& own, const std::vector<std::string>& check,
                                const RunToEnd& run_to_end, const platform::PajeTraceFile& paje_trace,
                                RunResult::Hindsight& h) {
  const std::vector<std::string> others = schemes_to_simulate(own, check, iterations);
  if (others.empty()) return own;
  // One whole simulation per scheme: on a large ring they take minutes, told on stderr.
  io::ProgressLine line("reference check");
  const double runs = static_cast<double>(others.size() + 1);
  const char* step = "simulating its points and the fixed schemes";
  line.update(step, 0.0, runs);
  h.points_makespan = simulated_in_child(own, run_to_end, paje_trace);
  double simulated = 1.0;
  line.update(step, simulated, runs);
  SimulatedScheme best = own;
  double fastest = h.points_makespan;
  for (const auto& s : others) {
    const double makespan = simulated_in_child(SimulatedScheme{s, {}}, run_to_end, paje_trace);
    line.update(step, ++simulated, runs);
    h.checked.push_back({s, makespan});
    XBT_INFO("reference %s: %.17g s; checked %s: %.17g s", own.scheme.c_str(), h.points_makespan, s.c_str(), makespan);
    if (makespan < fastest) {
      fastest = makespan;
      best = SimulatedScheme{s, {}};
    }
  }
  h.points_kept = best.scheme == own.scheme && best.point_loads == own.point_loads;
  return best;
}

double kept_makespan(const RunResult::Hindsight& h) {
  double fastest = h.points_makespan;
  for (const auto& c : h.checked) fastest = std::min(fastest, c.makespan);
  return fastest;
}

}  // namespace ringsim::sim
