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
#include "cli/simulation_allocator.hpp"
#include "io/process.hpp"

namespace ringsim::cli {
namespace {

// Whether this command line runs in the simulation program: its subcommand (argv[1]) loads SimGrid.
bool runs_in_simulation_program(int argc, char** argv) {
  for (int k = 1; k < argc; ++k)
    if (asks_simgrid_help(argv[k])) return true;
  if (argc < 2) return false;
  const std::string_view sub = argv[1];
  if (sub == kBench)
    return argc < 3 || std::find(std::begin(kPlannerBenchmarks), std::end(kPlannerBenchmarks),
                                 std::string_view(argv[2])) == std::end(kPlannerBenchmarks);
  return std::find(std::begin(kSimulationCommands), std::end(kSimulationCommands), sub) != std::end(kSimulationCommands);
}

// The simulation program at `path`, its allocator tuned (cli/simulation_allocator.hpp); returns
// only when exec fails.
void exec_simulation_program(const std::string& path, char** argv) {
  tune_simulation_allocator();
  execv(path.c_str(), argv);
}

// The same argv (argv[0] too, so usage lines still name `ringsim`); returns only when exec fails.
int run_in_simulation_program(char** argv) {
  const std::string path = simulation_program_beside(io::self_executable());
  exec_simulation_program(path, argv);
  std::cerr << "ringsim: internal error: cannot run the simulation program " << path << ": "
            << std::strerror(errno) << '\n';
  return 1;
}

// Every command of the table: the planner ones configured here, the others listed by --help here
// and run by the simulation program (their benchmarks too: `bench --help` runs there).
void add_commands(CLI::App& app) {
#define RINGSIM_ADD_planner(add_function, command) add_function(command)
#define RINGSIM_ADD_simulation(add_function, command) (void)(command)
#define RINGSIM_COMMAND(side, source, add_function, name, summary) \
  RINGSIM_ADD_##side(add_function, app.add_subcommand(name, summary));
#define RINGSIM_BENCHMARK_planner(add_function, name, summary) \
  add_function(app.get_subcommand(std::string(kBench))->add_subcommand(name, summary));
#define RINGSIM_BENCHMARK_simulation(add_function, name, summary)
#define RINGSIM_BENCHMARK(side, source, add_function, name, summary) \
  RINGSIM_BENCHMARK_##side(add_function, name, summary)
#include "cli/commands.def"
#undef RINGSIM_COMMAND
#undef RINGSIM_BENCHMARK
#undef RINGSIM_BENCHMARK_planner
#undef RINGSIM_BENCHMARK_simulation
#undef RINGSIM_ADD_planner
#undef RINGSIM_ADD_simulation
}

// A command line that simulates is handed over from this executable's first initializer (priority
// 101: before its static objects are built), so that a run pays the exec and no more of the front
// end's start. Should the exec fail, main tries again and says why.
__attribute__((constructor(101))) void hand_over_simulations(int argc, char** argv, char** /*envp*/) {
  try {
    if (runs_in_simulation_program(argc, argv))
      exec_simulation_program(simulation_program_beside(io::self_executable()), argv);
  } catch (...) {
  }
}

}  // namespace
}  // namespace ringsim::cli

int main(int argc, char** argv) {
  using namespace ringsim::cli;
  if (runs_in_simulation_program(argc, argv)) return run_in_simulation_program(argv);
  CLI::App app;
  describe_application(app);
  add_commands(app);
  return run_cli(app, argc, argv);
}
