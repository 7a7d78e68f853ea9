// CPU utilization traces of PlanetLab as measured by CoMon and distributed with the CloudSim
// simulator (workload/planetlab/DAY/): a folder per day, a file per virtual machine (PlanetLab
// slice on a node; names as distributed, some holding spaces), one line per sample, the CPU
// utilization in percent (an integer 0-100) averaged over `period` seconds (300: a day is 288
// lines). A set of such files (a folder, or a list) feeds traces source "planetlab": each ring
// member draws a file by the run's trace seed (model/real_traces.hpp). Every problem is one
// InputError naming the file (and the line).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/real_traces.hpp"
#include "model/run_config.hpp"

namespace ringsim::io {

// The files of the set: those given, or the regular files of the folder (names starting with '.'
// aside), by name. InputError for an unreadable folder and for an empty set.
std::vector<std::string> planetlab_set_files(const RealTraceConfig& cfg);

// One file's text (`where`: its name) as a series of exactly `samples` samples of `period` seconds.
LoadSeries parse_planetlab_series(const std::string& text, const std::string& where, double period,
                                  std::size_t samples);
LoadSeries read_planetlab_series(const std::string& path, double period, std::size_t samples);

// Every file of the set read and checked (a sweep does it once, before its first run).
void check_planetlab_set(const RealTraceConfig& cfg);

// The members' traces (name, peak flop/s, in ring order then newcomers): each draws its file, and
// its offset when random, by `seed`; only the files drawn are read.
std::vector<HostTrace> planetlab_host_traces(const RealTraceConfig& cfg, std::uint64_t seed,
                                             const std::vector<std::pair<std::string, double>>& members,
                                             int iterations);

}  // namespace ringsim::io
