// Speed traces given by the user (`traces.source: files`): SimGrid speed profiles, one per host
// (lines "time value", optional "LOOPAFTER d"; values are speed multipliers, as ringsim writes
// them), or one CSV of speeds in flop/s (header host,time,speed or host,iteration,speed). Times are
// seconds since the iterations start. Every problem is a one-line InputError naming file:line.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/run_result.hpp"
#include "model/speed_traces.hpp"

namespace ringsim::io {

// A profile's text (`where`: the file name in messages) as time-indexed changes of `host`.
// Multipliers > 1 (speeds above the peak) are kept; each one is added to `above` when given.
HostTrace parse_speed_profile(const std::string& text, const std::string& where, const std::string& host,
                              double peak_speed, std::vector<SpeedAbovePeak>* above = nullptr);
HostTrace read_speed_profile(const std::string& path, const std::string& host, double peak_speed,
                             std::vector<SpeedAbovePeak>* above = nullptr);

struct SpeedCsv {
  std::string path;
  bool by_iteration = false;  // header host,iteration,speed
  std::map<std::string, std::vector<std::pair<double, double>>> rows;  // host -> (time or iteration, flop/s)
  std::map<std::string, std::vector<std::size_t>> lines;                 // host -> each row's line in the file
};

SpeedCsv parse_speed_csv(const std::string& text, const std::string& where);
SpeedCsv read_speed_csv(const std::string& path);

// The trace of `host` (multipliers of `peak_speed`); InputError "no speed trace for host 'x' in 'file'".
// Speeds above the peak are kept; each one is added to `above` when given.
HostTrace csv_trace(const SpeedCsv& csv, const std::string& host, double peak_speed,
                    std::vector<SpeedAbovePeak>* above = nullptr);
bool has_trace(const SpeedCsv& csv, const std::string& host);

}  // namespace ringsim::io
