// The simulation of the iterative application on a SimGrid platform (HiPC 2004, Section 7): one
// actor per ring member computes its columns, exchanges one border column with each neighbour per
// iteration, and at redistribution points gathers reports, plans with the redistribution planners
// and moves columns with real transfers that follow the plan.
// One simulation per process: SimGrid's clock cannot be reset.
#pragma once

#include "model/run_config.hpp"
#include "model/run_result.hpp"

namespace ringsim {

struct SimulationOptions {
  std::string traces_dir;   // when set: write the ring members' speed profiles and traces.csv there
  bool setup_only = false;  // stop after choosing the ring and the traces (`ringsim traces`)
};

// Builds the Engine from argc/argv (so --cfg= and --log= work), loads the platform, runs.
// Throws InputError for configs the platform cannot satisfy (unknown hosts, ring too large).
RunResult run_simulation(const RunConfig& cfg, int* argc, char** argv, const SimulationOptions& opt = {});

}  // namespace ringsim
