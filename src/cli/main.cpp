// The `ringsim` front end: planner commands run here, without SimGrid; a command line whose
// subcommand simulates is handed whole to the simulation module, loaded for it alone
// (command_table.hpp says why).
#include <dlfcn.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>

#include "cli/command_table.hpp"
#include "cli/commands.hpp"
#include "cli/run_cli.hpp"
#include "cli/sim_process.hpp"

namespace ringsim::cli {
namespace {

// Whether this command line runs in the simulation module: its subcommand (argv[1]) loads SimGrid.
bool runs_in_simulation_module(int argc, char** argv) {
  if (argc < 2) return false;
  const std::string_view sub = argv[1];
  if (sub == kBench.name)
    return argc < 3 || std::find(std::begin(kPlannerBenchmarks), std::end(kPlannerBenchmarks),
                                 std::string_view(argv[2])) == std::end(kPlannerBenchmarks);
  return std::any_of(std::begin(kSimulationCommands), std::end(kSimulationCommands),
                     [sub](const SimulationCommand& c) { return sub == c.name; });
}

int run_in_simulation_module(int argc, char** argv) {
  const std::string path =
      (std::filesystem::path(self_executable()).parent_path() / kSimulationModule).string();
  void* module = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (module == nullptr) {
    std::cerr << "ringsim: internal error: cannot load the simulation module: " << dlerror() << '\n';
    return 1;
  }
  auto* entry = reinterpret_cast<int (*)(int, char**)>(dlsym(module, kSimulationEntry));
  if (entry == nullptr) {
    std::cerr << "ringsim: internal error: " << path << " has no " << kSimulationEntry << '\n';
    return 1;
  }
  return entry(argc, argv);
}

// Listed by --help here, run by the module.
void list_simulation_command(CLI::App& app, const SimulationCommand& c) {
  app.add_subcommand(std::string(c.name), std::string(c.summary));
}

}  // namespace
}  // namespace ringsim::cli

int main(int argc, char** argv) {
  using namespace ringsim::cli;
  if (runs_in_simulation_module(argc, argv)) return run_in_simulation_module(argc, argv);
  CLI::App app;
  describe_application(app);
  add_redistribute_command(app);
  add_balance_command(app);
  list_simulation_command(app, kSimulate);
  list_simulation_command(app, kRun);
  list_simulation_command(app, kTraces);
  add_bench_command(app);
  list_simulation_command(app, kPlatform);
  add_kpbs_command(app);
  list_simulation_command(app, kKpbsSimulate);
  list_simulation_command(app, kRing);
  list_simulation_command(app, kRingSweep);
  return run_cli(app, argc, argv);
}
