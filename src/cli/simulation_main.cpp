// The simulation program (ringsim-simulation), which the front end execs for the commands that
// simulate: the whole command line, every subcommand (the planner ones too, so that a command line
// reads the same whichever side runs it).
#include "cli/command_table.hpp"
#include "cli/commands.hpp"
#include "cli/run_cli.hpp"

namespace ringsim::cli {
void add_simulation_benchmarks(CLI::App* bench) {
  add_bench_ring(*bench);
  add_bench_simulate(*bench);
}
}  // namespace ringsim::cli

int main(int argc, char** argv) {
  using namespace ringsim::cli;
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
  return run_cli(app, argc, argv);
}
