// Which subcommands load SimGrid (commands.def). Those run in the simulation program
// (ringsim-simulation, beside `ringsim`), which the front end execs only for them: the planner
// commands, --help and --version start without SimGrid's dynamic loading (its relocations, most of
// them for the ns-3 libraries Debian's SimGrid links). An exec, not a dlopen: a library loaded by
// dlopen is relocated through the front end's libraries first, which makes a simulation execute
// more instructions than a program linked with SimGrid (bench/NOTES.md, "Measurements behind the code's choices").
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace ringsim::cli {

// The commands and benchmarks of a side of the table (commands.def), by name.
inline constexpr std::string_view kSimulationCommands[] = {
#define RINGSIM_NAME_planner(name)
#define RINGSIM_NAME_simulation(name) name,
#define RINGSIM_COMMAND(side, source, add_function, name, summary) RINGSIM_NAME_##side(name)
#define RINGSIM_BENCHMARK(side, source, add_function, name, summary)
#include "cli/commands.def"
#undef RINGSIM_COMMAND
#undef RINGSIM_BENCHMARK
#undef RINGSIM_NAME_planner
#undef RINGSIM_NAME_simulation
};
inline constexpr std::string_view kPlannerBenchmarks[] = {
#define RINGSIM_NAME_planner(name) name,
#define RINGSIM_NAME_simulation(name)
#define RINGSIM_COMMAND(side, source, add_function, name, summary)
#define RINGSIM_BENCHMARK(side, source, add_function, name, summary) RINGSIM_NAME_##side(name)
#include "cli/commands.def"
#undef RINGSIM_COMMAND
#undef RINGSIM_BENCHMARK
#undef RINGSIM_NAME_planner
#undef RINGSIM_NAME_simulation
};
// The planner command whose benchmarks may simulate: `bench NAME` runs on NAME's side, any other
// `bench` (its --help included) in the simulation program.
inline constexpr std::string_view kBench = "bench";

// SimGrid's help, asked anywhere on a command line (with or without a subcommand): printed by the
// simulation program, which has SimGrid. The spelling SimGrid users know, and SimGrid's own.
inline constexpr std::string_view kSimgridHelp[] = {"--help-cfg",    "--cfg-help",     "--cfg=help",
                                                    "--log=help",    "--help-logs",    "--help-log-categories",
                                                    "--help-aliases", "--help-models", "--help-tracing"};
inline bool asks_simgrid_help(std::string_view arg) {
  for (auto h : kSimgridHelp)
    if (arg == h) return true;
  // --cfg=name:help: the values SimGrid accepts for that option (network/model:help, plugin:help...)
  return arg.rfind("--cfg=", 0) == 0 && arg.size() > 11 && arg.substr(arg.size() - 5) == ":help";
}

inline constexpr const char* kFrontEnd = "ringsim";
inline constexpr const char* kSimulationProgram = "ringsim-simulation";

// Each program finds the other in its own folder: the front end execs the simulation program; the
// simulation program writes command lines for users and cluster jobs with the front end's path.
inline std::string simulation_program_beside(const std::string& front_end) {
  return (std::filesystem::path(front_end).parent_path() / kSimulationProgram).string();
}
inline std::string front_end_beside(const std::string& simulation_program) {
  return (std::filesystem::path(simulation_program).parent_path() / kFrontEnd).string();
}

}  // namespace ringsim::cli
