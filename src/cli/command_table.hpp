// Which subcommands load SimGrid. Those run in the simulation program (ringsim-simulation, beside
// `ringsim`), which the front end execs only for them: the planner commands, --help and --version
// start without SimGrid's dynamic loading (about 30 ms of relocations, most of them for the ns-3
// libraries Debian's SimGrid links). An exec, not a dlopen: a library loaded by dlopen is
// relocated through the front end's libraries first, which cost a simulation 7% more instructions
// than a program linked with SimGrid. The summaries are the commands' own, shown by either side's
// --help.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace ringsim::cli {

struct SimulationCommand {
  std::string_view name;
  std::string_view summary;
};

// In the order `ringsim --help` lists them among the others.
inline constexpr SimulationCommand kSimulate{
    "simulate", "Simulate one run of the iterative application (SimGrid); JSON summary on stdout"};
inline constexpr SimulationCommand kRun{"run",
                                        "Run an experiment sweep (one simulate process per run), resumable"};
inline constexpr SimulationCommand kTraces{
    "traces", "Write the speed traces of a run config as SimGrid profiles (no simulation)"};
inline constexpr SimulationCommand kPlatform{"platform",
                                             "Generate (Tiers-style), import and describe SimGrid platforms"};
inline constexpr SimulationCommand kKpbsSimulate{
    "kpbs-simulate", "Plan a KPBS schedule and execute it in SimGrid on two clusters and a backbone (JSON out)"};
inline constexpr SimulationCommand kRing{"ring", "Build a processor ring on a platform (SharedRing): JSON out"};
inline constexpr SimulationCommand kRingSweep{"ring-sweep",
                                              "Ring construction for several H/W ratios and methods: CSV out"};
// Every subcommand above runs in the simulation program.
inline constexpr SimulationCommand kSimulationCommands[] = {kSimulate, kRun,  kTraces,   kPlatform,
                                                           kKpbsSimulate, kRing, kRingSweep};
// `bench` is shared: its planner benchmarks run in the front end, the others in the simulation program.
inline constexpr SimulationCommand kBench{"bench", "Benchmarks that print figures"};

// The benchmarks that need no SimGrid (`bench redistribute`, `bench kpbs`); any other `bench`
// (its --help included) runs in the simulation program.
inline constexpr std::string_view kPlannerBenchmarks[] = {"redistribute", "kpbs"};

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
