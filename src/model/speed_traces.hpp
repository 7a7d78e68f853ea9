// Speed traces of the HiPC 2004 experiment (Section 7, Figure 2): each host's speed changes twice,
// first at an iteration drawn in [20, 40], then at one drawn in [60, 80]. Changes are generated
// in iterations and converted to simulated times with the initial plan's iteration time, then
// written as SimGrid speed profiles (lines "time multiplier", multiplier = new speed / peak).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ringsim {

struct SpeedChange {
  int iteration = 0;
  double multiplier = 1.0;  // speed after the change / peak speed (values > 1 allowed)
};

struct HostTrace {
  std::string host;
  double peak_speed = 0.0;  // flop/s
  std::vector<SpeedChange> changes;  // increasing iterations
};

struct TraceSpec {
  std::uint64_t seed = 1;
  std::vector<std::pair<int, int>> windows = {{20, 40}, {60, 80}};  // one change per window
  // New speeds: drawn uniformly from `speed_list` (flop/s; the measured machines, as the paper
  // drew its initial speeds), or, when the list is empty, the current speed times a factor drawn
  // uniformly in [factor_low, factor_high].
  std::vector<double> speed_list;
  double factor_low = 0.5;
  double factor_high = 1.5;
};

// One trace per host, in the given order; the same spec and hosts give the same traces.
std::vector<HostTrace> generate_speed_traces(const std::vector<std::pair<std::string, double>>& hosts,
                                             const TraceSpec& spec);

// Multiplier in effect at iteration `it` (changes take effect at the start of their iteration).
double multiplier_at_iteration(const HostTrace& trace, int iteration);

// SimGrid profile text: "0 1.0" then one line per change at time origin + iteration *
// iteration_time (origin: when iterations start, e.g. after the matrix has been staged).
std::string speed_profile_text(const HostTrace& trace, double iteration_time, double origin = 0.0);

// Multiplier in effect at simulated time t under that profile.
double multiplier_at_time(const HostTrace& trace, double iteration_time, double t, double origin = 0.0);

}  // namespace ringsim
