// The simulation program (ringsim-simulation), which the front end execs for the commands that
// simulate: the whole command line, every subcommand (the planner ones too, so that a command line
// reads the same whichever side runs it).
#include "cli/command_table.hpp"
#include "cli/commands.hpp"
#include "cli/run_cli.hpp"
#include "platform/simgrid_options.hpp"

#include <malloc.h>
#include <simgrid/s4u/Engine.hpp>
#include <unistd.h>
#include <xbt/config.hpp>
#include <xbt/log.h>

#include <cstdio>
#include <iostream>
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

// Whether this process's engine runs ns-3: SimGrid 3.32 tears ns-3 down at exit
// (ns3::Simulator::Destroy from EngineImpl::shutdown) and the packaged ns-3 then segfaults.
bool engine_runs_ns3() {
  return simgrid::s4u::Engine::has_instance() &&
         simgrid::config::get_value<std::string>("network/model") == "ns-3";
}

// Whether to leave without the exit-time teardown: once the answer is complete, the destructors
// of SimGrid's, ns-3's and ringsim's static state only return memory the kernel takes back anyway
// (5 to 7 ms of a run, bench/NOTES.md), and with ns-3 they crash (exit 139 for a run that succeeded).
// Under the sanitizers the teardown stays: LeakSanitizer checks at exit.
bool leave_without_teardown(int status) {
#if defined(__SANITIZE_ADDRESS__)
  return engine_runs_ns3();
#else
  return status == 0 || engine_runs_ns3();
#endif
}

}  // namespace
}  // namespace ringsim::cli

int main(int argc, char** argv) {
  using namespace ringsim::cli;
  // Memory one step of a run frees (the platform file's parse, which SimGrid parses again, a
  // reference's planning) stays with the process for the next steps, instead of going back to the
  // kernel and being faulted in again page by page: a third of a run's page faults at 256 members
  // (bench/NOTES.md).
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  std::vector<std::string> help;
  for (int k = 1; k < argc; ++k)
    if (asks_simgrid_help(argv[k])) help.emplace_back(argv[k]);
  if (!help.empty()) {
    fail_exit_when_answer_unwritten();
    return ringsim::platform::print_simgrid_help(help);
  }
  CLI::App app;
  describe_application(app);
  add_commands(app);
  const int status = run_cli(app, argc, argv);
  // A run stopped by bad input leaves actors behind; SimGrid's exit-time warning about them would
  // add lines to the one that says what is wrong.
  if (status != 0) xbt_log_control_set("ker_engine.thres:critical");
  if (leave_without_teardown(status)) {
    const bool flushed = static_cast<bool>(std::cout.flush()) && std::fflush(nullptr) == 0;
    if (status == 0 && !flushed) {
      std::fputs("ringsim: error: cannot write the answer to standard output\n", stderr);
      _exit(2);
    }
    _exit(status);
  }
  return status;
}
