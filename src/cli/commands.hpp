// The `ringsim` subcommands. Each add_* registers one subcommand; its callback throws InputError
// (or std::invalid_argument) on bad input, which main turns into exit status 2 and one line.
#pragma once

#include <CLI/CLI.hpp>

namespace ringsim::cli {

void add_redistribute_command(CLI::App& app);
void add_balance_command(CLI::App& app);
void add_bench_command(CLI::App& app);

}  // namespace ringsim::cli
