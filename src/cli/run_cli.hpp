// What every `ringsim` command line shares, in the front end and in the simulation program alike:
// the application's title and version, and the parse with its exit statuses.
#pragma once

#include <CLI/CLI.hpp>

namespace ringsim::cli {

// The top-level application, no subcommand registered yet.
void describe_application(CLI::App& app);

// Parses and runs the command line: 0 on success; 2 for a bad command line, bad input, or an
// answer that could not be written to standard output; 1 for an internal error.
int run_cli(CLI::App& app, int argc, char** argv);

// For answers printed by code that ends the process itself (SimGrid's --help-cfg, --help-models ...
// print, then exit(0)): at exit, an answer that could not be written to standard output turns the
// exit status into 2, with run_cli's one line.
void fail_exit_when_answer_unwritten();

}  // namespace ringsim::cli
