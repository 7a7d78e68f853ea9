// The `ringsim` subcommands. Each add_* registers one subcommand; its callback throws InputError
// (or std::invalid_argument) on bad input, which main turns into exit status 2 and one line.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "model/run_config.hpp"
#include "model/run_result.hpp"

namespace ringsim::cli {

void add_redistribute_command(CLI::App& app);
void add_balance_command(CLI::App& app);
void add_simulate_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_traces_command(CLI::App& app);
void add_bench_simulate(CLI::App& bench);  // `ringsim bench simulate`, registered by add_simulation_benchmarks
// A relative path in a config: next to the config file if it exists there, else as given.
std::string resolve_beside(const std::string& path, const std::string& config_file);
// What `simulate CONFIG` reads: the config, its platform and trace files found beside it (the
// platform must exist); and what it writes: iterations CSV (when named) and the JSON summary (to
// `out` atomically, or to standard output when `out` is empty). The sweep's children share both.
RunConfig read_simulate_config(const std::string& config_file);
void write_simulate_outputs(const RunConfig& cfg, const RunResult& res, double baseline, const std::string& out,
                            const std::string& iterations_csv);
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
