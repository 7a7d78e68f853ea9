// A clairvoyant reference checked in the simulation (reference_check.cpp): its points are optimal
// under the simulation's model only, so the run also simulates the fixed schemes it must beat, each
// in a forked child of the loaded, not yet run, simulation, and simulates the fastest.
#pragma once

#include <sys/types.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "io/process.hpp"
#include "model/run_result.hpp"
#include "platform/paje_tracing.hpp"
#include "sim/run_state.hpp"

namespace ringsim::sim {

// What the run is to simulate: a fixed scheme and the loads its points move to (none listed:
// each point balances for its decision speeds).
struct SimulatedScheme {
  std::string scheme;
  std::map<int, std::vector<Count>> point_loads;
};

// Simulates the run with scheme `s` to its end; its makespan (one Engine::run a process).
using RunToEnd = std::function<double(const SimulatedScheme& s)>;

// The fixed schemes of a reference's check (one per set of points), started before the reference
// plans: they do not depend on its points. Where this process may use two processors or more, one
// child simulates them one after another, each in a child of its own, while the reference plans;
// with one processor, each is simulated when it is asked for. Either way each is one whole
// simulation in its own process, and its makespan is the same.
class FixedSchemeChecks {
 public:
  FixedSchemeChecks(const std::vector<std::string>& check, int iterations, const RunToEnd& run_to_end,
                    const platform::PajeTraceFile& paje_trace);
  FixedSchemeChecks(const FixedSchemeChecks&) = delete;
  FixedSchemeChecks& operator=(const FixedSchemeChecks&) = delete;
  ~FixedSchemeChecks();  // stops a runner whose answers are no longer wanted (the run failed)

  // The makespan of `scheme`, one of the check's.
  double makespan(const std::string& scheme);

 private:
  std::vector<std::string> schemes_;
  std::vector<std::optional<double>> makespans_;
  RunToEnd run_to_end_;
  const platform::PajeTraceFile& paje_trace_;
  io::Child runner_;  // none: simulated when asked for
  std::string unread_;
};

// Checks the reference's `own` scheme against the fixed schemes of `check` (those whose points are
// not its own), `fixed` simulating them; records every makespan in `h` and returns the scheme to
// simulate: the fastest, the reference's own on a tie.
SimulatedScheme check_reference(int iterations, const SimulatedScheme& own, const std::vector<std::string>& check,
                                const RunToEnd& run_to_end, FixedSchemeChecks& fixed,
                                const platform::PajeTraceFile& paje_trace, RunResult::Hindsight& h);

// The makespan of the scheme a check kept: the reference's own, or the fastest checked.
double kept_makespan(const RunResult::Hindsight& h);

}  // namespace ringsim::sim
