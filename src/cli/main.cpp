// The `ringsim` front end: planner commands run here, without SimGrid; a command line whose
// subcommand simulates is handed whole to the simulation program, which replaces this process
// (command_table.hpp says why).
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

#include "cli/command_table.hpp"
#include "cli/commands.hpp"
#include "cli/run_cli.hpp"
#include "io/process.hpp"

namespace ringsim::cli {
namespace {

// Whether this command line runs in the simulation program: its subcommand (argv[1]) loads SimGrid.
bool runs_in_simulation_program(int argc, char** argv) {
  for (int k = 1; k < argc; ++k)
    if (asks_simgrid_help(argv[k])) return true;
  if (argc < 2) return false;
  const std::string_view sub = argv[1];
  if (sub == kBench.name)
    return argc < 3 || std::find(std::begin(kPlannerBenchmarks), std::end(kPlannerBenchmarks),
                                 std::string_view(argv[2])) == std::end(kPlannerBenchmarks);
  return std::any_of(std::begin(kSimulationCommands), std::end(kSimulationCommands),
                     [sub](const SimulationCommand& c) { return sub == c.name; });
}

// The same argv (argv[0] too, so usage lines still name `ringsim`); returns only when exec fails.
int run_in_simulation_program(char** argv) {
  const std::string path = simulation_program_beside(io::self_executable());
  execv(path.c_str(), argv);
  std::cerr << "ringsim: internal error: cannot run the simulation program " << path << ": "
            << std::strerror(errno) << '\n';
  return 1;
}

// Listed by --help here, run by the simulation program.
void list_simulation_command(CLI::App& app, const SimulationCommand& c) {
  app.add_subcommand(std::string(c.name), std::string(c.summary));
}

}  // namespace
}  // namespace ringsim::cli

int main(int argc, char** argv) {
  using namespace ringsim::cli;
  if (runs_in_simulation_program(argc, argv)) return run_in_simulation_program(argv);
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
