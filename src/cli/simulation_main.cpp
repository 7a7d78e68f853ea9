// The simulation program (ringsim-simulation), which the front end execs for the commands that
// simulate: the whole command line, every subcommand (the planner ones too, so that a command line
// reads the same whichever side runs it).
#include "cli/command_table.hpp"
#include "cli/commands.hpp"
#include "cli/run_cli.hpp"
#include "platform/simgrid_options.hpp"

#include <xbt/log.h>

#include <string>
#include <vector>

namespace ringsim::cli {
void add_simulation_benchmarks(CLI::App* bench) {
  add_bench_ring(*bench);
  add_bench_simulate(*bench);
}
}  // namespace ringsim::cli

int main(int argc, char** argv) {
  using namespace ringsim::cli;
  std::vector<std::string> help;
  for (int k = 1; k < argc; ++k)
    if (asks_simgrid_help(argv[k])) help.emplace_back(argv[k]);
  if (!help.empty()) return ringsim::platform::print_simgrid_help(help);
  CLI::App app;
  describe_application(app);
  add_redistribute_command(app);
  add_balance_command(app);
  add_simulate_command(app);
  add_run_command(app);
  add_traces_command(app);
  add_simulation_benchmarks(add_bench_command(app));
  add_platform_command(app);
  add_kpbs_command(app);
  add_kpbs_simulate_command(app);
  add_ring_command(app);
  const int status = run_cli(app, argc, argv);
  // A run stopped by bad input leaves actors behind; SimGrid's exit-time warning about them would
  // add lines to the one that says what is wrong.
  if (status != 0) xbt_log_control_set("ker_engine.thres:critical");
  return status;
}
