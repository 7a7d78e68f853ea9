// The `ringsim` subcommands (commands.def lists them). Each add_* configures the subcommand the
// table created for it; its callback throws InputError (or std::invalid_argument) on bad input,
// which run_cli turns into exit status 2 and one line.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace ringsim::cli {

#define RINGSIM_COMMAND(side, source, add_function, name, summary) void add_function(CLI::App* command);
#define RINGSIM_BENCHMARK(side, source, add_function, name, summary) void add_function(CLI::App* benchmark);
#include "cli/commands.def"
#undef RINGSIM_COMMAND
#undef RINGSIM_BENCHMARK

}  // namespace ringsim::cli
