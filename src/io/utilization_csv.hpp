// Per-machine CPU utilization or load average by time, as a CSV (the shape cluster traces such as
// Google's, Alibaba's and Azure's take once reduced to one series per machine): a header line
// naming the columns, then one row per sample; the time (seconds), machine and value columns are
// chosen by name, other columns are ignored. A machine's rows come in increasing time (machines may
// interleave); a row's value holds until the machine's next row, its last row for the machine's
// mean spacing. The machines form the set of traces source "utilization-csv": each ring member
// draws one by the run's trace seed (model/real_traces.hpp). Every problem is one InputError naming
// the file (and the line).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/real_traces.hpp"
#include "model/run_config.hpp"

namespace ringsim::io {

struct UtilizationCsv {
  std::string path;
  std::vector<std::string> machines;  // in order of first appearance
  std::vector<LoadSeries> series;     // the same order
};

// The CSV's text (`where`: its name) read with the config's columns; values checked by its rule
// (a utilization in [0, 100], a load average >= 0); every machine has at least `samples` rows.
UtilizationCsv parse_utilization_csv(const std::string& text, const std::string& where, const RealTraceConfig& cfg);
UtilizationCsv read_utilization_csv(const RealTraceConfig& cfg);

// The members' traces (name, peak flop/s, in ring order then newcomers): each draws its machine,
// and its offset when random, by `seed`.
std::vector<HostTrace> utilization_csv_host_traces(const RealTraceConfig& cfg, std::uint64_t seed,
                                                   const std::vector<std::pair<std::string, double>>& members,
                                                   int iterations);

}  // namespace ringsim::io
