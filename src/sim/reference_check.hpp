// A clairvoyant reference checked in the simulation (reference_check.cpp): its points are optimal
// under the simulation's model only, so the run also simulates the fixed schemes it must beat, each
// in a forked child of the loaded, not yet run, simulation, and simulates the fastest.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

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

// Checks the reference's `own` scheme against the fixed schemes of `check` (those whose points are
// not its own), each simulated in a child; records every makespan in `h` and returns the scheme to
// simulate: the fastest, the reference's own on a tie.
SimulatedScheme check_reference(int iterations, const SimulatedScheme& own, const std::vector<std::string>& check,
                                const RunToEnd& run_to_end, const platform::PajeTraceFile& paje_trace,
                                RunResult::Hindsight& h);

// The makespan of the scheme a check kept: the reference's own, or the fastest checked.
double kept_makespan(const RunResult::Hindsight& h);

}  // namespace ringsim::sim
