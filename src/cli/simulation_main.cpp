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
namespace {

// Every command and benchmark of the table (commands.def), configured.
void add_commands(CLI::App& app) {
#define RINGSIM_COMMAND(side, source, add_function, name, summary) add_function(app.add_subcommand(name, summary));
#define RINGSIM_BENCHMARK(side, source, add_function, name, summary) \
  add_function(app.get_subcommand(std::string(kBench))->add_subcommand(name, summary));
#include "cli/commands.def"
#undef RINGSIM_COMMAND
#undef RINGSIM_BENCHMARK
}

}  // namespace
}  // namespace ringsim::cli

int main(int argc, char** argv) {
  using namespace ringsim::cli;
  std::vector<std::string> help;
  for (int k = 1; k < argc; ++k)
    if (asks_simgrid_help(argv[k])) help.emplace_back(argv[k]);
  if (!help.empty()) return ringsim::platform::print_simgrid_help(help);
  CLI::App app;
  describe_application(app);
  add_commands(app);
  const int status = run_cli(app, argc, argv);
  // A run stopped by bad input leaves actors behind; SimGrid's exit-time warning about them would
  // add lines to the one that says what is wrong.
  if (status != 0) xbt_log_control_set("ker_engine.thres:critical");
  return status;
}
