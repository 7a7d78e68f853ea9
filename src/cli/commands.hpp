// The `ringsim` subcommands. Each add_* registers one subcommand; its callback throws InputError
// (or std::invalid_argument) on bad input, which main turns into exit status 2 and one line.
#pragma once

#include <string>

#include <CLI/CLI.hpp>


namespace ringsim::cli {

void add_redistribute_command(CLI::App& app);
void add_balance_command(CLI::App& app);
void add_simulate_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_traces_command(CLI::App& app);
void add_bench_simulate(CLI::App& bench);  // `ringsim bench simulate`, registered by add_simulation_benchmarks
// `ringsim bench` with the benchmarks that need no SimGrid; add_simulation_benchmarks adds the
// others (in the simulation program).
CLI::App* add_bench_command(CLI::App& app);
void add_simulation_benchmarks(CLI::App* bench);
void add_platform_command(CLI::App& app);
void add_kpbs_command(CLI::App& app);
void add_kpbs_simulate_command(CLI::App& app);
void add_bench_kpbs(CLI::App& bench);  // `ringsim bench kpbs`, registered by add_bench_command
void add_ring_command(CLI::App& app);  // `ringsim ring` and `ringsim ring-sweep`
void add_bench_ring(CLI::App& bench);  // `ringsim bench ring`, registered by add_simulation_benchmarks

}  // namespace ringsim::cli
