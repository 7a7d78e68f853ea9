// The simulation of the iterative application on a SimGrid platform (HiPC 2004, Section 7): one
// actor per ring member computes its columns, exchanges one border column with each neighbour per
// iteration, and at redistribution points gathers reports, plans with the redistribution planners
// and moves columns with real transfers that follow the plan.
// One simulation per process: SimGrid's clock cannot be reset.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model/run_config.hpp"
#include "model/run_result.hpp"

namespace ringsim::sim {

struct SimulationOptions {
  std::string traces_dir;   // when set: write the ring members' speed profiles and traces.csv there
  bool setup_only = false;  // stop after choosing the ring and the traces (`ringsim traces`)
  bool strict = false;      // a suspect line of the trace files is an InputError, not a warning
};

// The Engine built from argc/argv (so --cfg= and --log= work), its network model set and a
// platform loaded (root zone still open): the state every run on that platform starts from. A
// sweep keeps one and forks each run from it (docs/design.md: forking after load_platform gives the
// child the clock and the state of a fresh process), so the platform is parsed once, not per run.
class LoadedSimulation {
 public:
  // Throws InputError when SimGrid cannot load the platform.
  // The Engine gets argv (--cfg/--log of the command line) after the config's "simgrid_log"; the
  // config's "simgrid" options and network preset follow (platform/simgrid_options.hpp).
  LoadedSimulation(const RunConfig& cfg, int* argc, char** argv);
  ~LoadedSimulation();
  LoadedSimulation(const LoadedSimulation&) = delete;
  LoadedSimulation& operator=(const LoadedSimulation&) = delete;
  const std::string& platform() const { return platform_; }
  NetworkModel network() const { return network_; }

 private:
  friend RunResult run_simulation(const RunConfig&, LoadedSimulation&, const SimulationOptions&);
  struct State;
  std::unique_ptr<State> state_;
  std::string platform_;
  NetworkModel network_;
  std::vector<std::pair<std::string, std::string>> options_;
  std::vector<std::string> log_;
  bool used_ = false;
};

// One run from a loaded platform: cfg.platform and cfg.network_model must be the loaded ones, and a
// LoadedSimulation serves one run only (SimGrid's clock cannot be reset: fork before calling).
// Throws InputError for configs the platform cannot satisfy (unknown hosts, ring too large).
RunResult run_simulation(const RunConfig& cfg, LoadedSimulation& loaded, const SimulationOptions& opt = {});

// Builds the Engine, loads the platform, runs (the two steps above in one).
RunResult run_simulation(const RunConfig& cfg, int* argc, char** argv, const SimulationOptions& opt = {});

}  // namespace ringsim::sim
