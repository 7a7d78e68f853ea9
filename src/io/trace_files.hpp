// Speed traces given by the user (`traces.source: files`): SimGrid speed profiles, one per host
// (lines "time value", optional "LOOPAFTER d"; values are speed multipliers, as ringsim writes
// them), or one CSV of speeds in flop/s (header host,time,speed or host,iteration,speed). Times are
// seconds since the iterations start. Every problem is a one-line InputError naming file:line.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/run_config.hpp"
#include "model/run_result.hpp"
#include "model/speed_traces.hpp"

namespace ringsim::io {

// A profile's text (`where`: the file name in messages) as time-indexed changes of `host`.
// Multipliers > 1 (speeds above the peak) are kept; each one is added to `above` when given.
// `lines`, when given, receives the file line of each change.
HostTrace parse_speed_profile(const std::string& text, const std::string& where, const std::string& host,
                              double peak_speed, std::vector<SpeedAbovePeak>* above = nullptr,
                              std::vector<std::size_t>* lines = nullptr);
HostTrace read_speed_profile(const std::string& path, const std::string& host, double peak_speed,
                             std::vector<SpeedAbovePeak>* above = nullptr, std::vector<std::size_t>* lines = nullptr);

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

// A host that a trace file of the `files` source names, and where, as the start of a message
// that goes on with " 'name' ...": "'file.csv':LINE: host" (its first line in the CSV) or
// "traces 'profiles' (file 'f.profile'): host".
struct TraceFileHost {
  std::string name;
  std::string role;
};

// Every host the config's trace files name (source `files`: each CSV host, each 'profiles' key),
// in file order; none for other sources. A host the platform lacks must be refused: its lines
// would be dropped without a word (a misspelt name), and the member it meant would run at its
// peak. Reads the CSV (InputError as read_speed_csv).
std::vector<TraceFileHost> trace_file_hosts(const RunConfig& cfg);

// A trace speed below this fraction of its host's peak is taken for a multiplier written where a
// speed in flop/s belongs (0.2 for 20% of the peak): real loads slow a host less than a thousandfold.
inline constexpr double kSuspectSpeedFraction = 1e-3;

// What the run keeps of the config's trace files (source `files`) but most likely was not meant,
// one message per kind, naming the first such line (file order; profiles in the config's order)
// and how many there are: a change by iteration past the run's last iteration (never used), a
// speed below kSuspectSpeedFraction of its host's peak. Times are not checked: when a run ends is
// known only once it has run. `peak_of` gives a host's peak speed in flop/s, or 0 for a host the
// platform does not have (not checked here: trace_file_hosts' refusal). Reads the files; refuses
// a CSV speed that no host can run at, as csv_trace does (so that a sweep refuses it up front).
std::vector<std::string> suspect_trace_lines(const RunConfig& cfg, const std::function<double(const std::string&)>& peak_of);

// A run's time-indexed traces from the config's files beside the time its iterations took: ratios
// beyond which the times most likely were not meant (kTraceSpanMilliseconds: in milliseconds;
// kTraceSpanShort: covering part of the run only).
inline constexpr double kTraceSpanMilliseconds = 100.0;
inline constexpr double kTraceSpanShort = 0.5;

// One line when the last change of the config's time-indexed, non-repeating traces (source `files`)
// is kTraceSpanMilliseconds times or more the run's `run_seconds` (times in milliseconds?) or
// below kTraceSpanShort of it (the last speeds held for the rest of the run), naming the file
// with the latest change and both spans; "" otherwise. `traces`: the run's traces, read from them.
std::string trace_span_warning(const RunConfig& cfg, const std::vector<HostTrace>& traces, double run_seconds);

}  // namespace ringsim::io
