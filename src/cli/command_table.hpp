// Which subcommands load SimGrid. Those run in the simulation module (libringsim-simulation.so,
// beside the executable), which the `ringsim` front end loads only for them: the planner commands,
// --help and --version start without SimGrid's dynamic loading (about 30 ms of relocations, most of
// them for the ns-3 libraries Debian's SimGrid links). The summaries are the commands' own, shown
// by either side's --help.
#pragma once

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
// Every subcommand above runs in the module.
inline constexpr SimulationCommand kSimulationCommands[] = {kSimulate, kRun,  kTraces,   kPlatform,
                                                           kKpbsSimulate, kRing, kRingSweep};
// `bench` is shared: its planner benchmarks run in the front end, the others in the module.
inline constexpr SimulationCommand kBench{"bench", "Benchmarks that print figures"};

// The benchmarks that need no SimGrid (`bench redistribute`, `bench kpbs`); any other `bench`
// (its --help included) runs in the simulation module.
inline constexpr std::string_view kPlannerBenchmarks[] = {"redistribute", "kpbs"};

// The entry point the simulation module exports: the whole command line, every subcommand.
extern "C" int ringsim_simulation_main(int argc, char** argv);
inline constexpr const char* kSimulationEntry = "ringsim_simulation_main";
inline constexpr const char* kSimulationModule = "libringsim-simulation.so";

}  // namespace ringsim::cli
