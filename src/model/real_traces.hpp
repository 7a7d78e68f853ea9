// Measured CPU load as speed traces (traces sources "planetlab" and "utilization-csv"): the rule
// that turns a measured utilization or load average into the share of a CPU a ring member gets,
// the seeded draw of each member's series from a set, and the series laid on the run's clock or
// spread over its iterations. Pure: the formats are read by io/planetlab_traces.hpp and
// io/utilization_csv.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/speed_traces.hpp"

namespace ringsim {

// What a measured value means for a process that always wants the CPU (docs/traces.md derives
// each rule):
// - dedicated: the member gets only the cycles the load leaves idle, 1 - u (u = utilization / 100);
//   the load has priority (a guest process at the lowest priority, a desktop grid's worker).
// - time_sharing: the member and the load have equal shares under a work-conserving fair-share
//   scheduler: the load keeps what it uses up to its half, the member gets the rest,
//   max(1 - u, 1/2).
// - load_average: the value is a load average L (runnable processes, per CPU) that keep running
//   whatever the member does: a fair share among L + 1 processes, 1 / (1 + L).
enum class AvailabilityRule { dedicated, time_sharing, load_average };
const char* to_string(AvailabilityRule rule);  // "dedicated", "time-sharing", "load"

// Why `value` is no measurement the rule reads, to follow the value in a message ("is not in
// [0, 100] ..."), or "" when it is one: a utilization is a percentage in [0, 100], a load average
// a number >= 0.
std::string refused_measurement(AvailabilityRule rule, double value);

// The share of the peak speed the member gets against `value` (percent for dedicated and
// time_sharing, a load average for load_average), raised to `floor` when below it.
double available_share(AvailabilityRule rule, double value, double floor);

// One measured series: value k holds from times[k] to times[k + 1], the last until `span`.
struct LoadSeries {
  std::string name;            // in messages: the file, or the CSV's machine and file
  std::vector<double> times;   // seconds since the series' first sample: times[0] == 0, increasing
  std::vector<double> values;  // as the rule reads them
  double span = 0.0;           // > times.back()
};

// How a run turns its members' series into speed traces; each field is named as its traces key
// (offset's "random" is random_offset, time_scale's "span" over_iterations).
struct AvailabilitySpec {
  AvailabilityRule conversion = AvailabilityRule::dedicated;
  // The least share of the peak a member gets (a fully loaded host under `dedicated` would get 0,
  // which SimGrid cannot resolve): in [kLeastMultiplier, 1].
  double floor = 0.05;
  // Seconds of series per simulated second (> 0); `over_iterations` instead lays each series'
  // span over the run's iterations (iteration j runs at the mean share of the j-th of `iterations`
  // equal parts of the span).
  double time_scale = 1.0;
  bool over_iterations = false;
  // With over_iterations: seconds of series each iteration covers, from the offset on, wrapping
  // around the span (> 0); 0: the span cut into `iterations` equal parts.
  double per_iteration = 0.0;
  // Where each series starts, in seconds since its first sample (in [0, span)); `random_offset`
  // draws each member's start among its series' sample times instead.
  double offset = 0.0;
  bool random_offset = false;
};

inline constexpr double kDefaultAvailabilityFloor = 0.05;

// A member's draw: which series of the set, and where in it the member starts (a uniform in
// [0, 1) that picks a sample when offsets are random).
struct SeriesDraw {
  std::size_t series = 0;
  double offset_uniform = 0.0;
};

// The draws of `members` members from a set of `set_size` series, seeded: distinct series (a
// seeded shuffle, member by member), so that member i's draw depends on the seed, the set's size
// and i only (members added later, a rebuild's newcomers, do not change the first ones').
// InputError when the set holds fewer series than there are members.
std::vector<SeriesDraw> draw_series(std::size_t set_size, std::size_t members, std::uint64_t seed,
                                    const std::string& set_name);

// The offset a member starts its series at (seconds since its first sample): the spec's, or with
// random offsets the sample time `offset_uniform` picks. InputError when a given offset lies
// outside [0, span).
double series_offset(const LoadSeries& series, const AvailabilitySpec& spec, double offset_uniform);

// The series as a time-indexed trace of `host` started at `offset`: the share of each sample from
// when it begins (simulated seconds: series seconds / time_scale), repeating with the series'
// span (a day's trace goes on with the same day). A change is kept only when the share moves.
// InputError when the repetition would be shorter than kLeastProfilePeriod.
HostTrace timed_availability_trace(const LoadSeries& series, const std::string& host, double peak,
                                   const AvailabilitySpec& spec, double offset);

// The series as an iteration-indexed trace: iteration j at the time-weighted mean share of the
// j-th part of the series from `offset` on (the work an iteration does at a varying speed is what
// the mean speed does in the same time), each part spec.per_iteration seconds of series (wrapping
// around its span), or with per_iteration 0 the span cut into `iterations` equal parts. The share of
// iteration 1 is also that of iteration 0 (before the first, during a staging).
HostTrace iteration_availability_trace(const LoadSeries& series, const std::string& host, double peak,
                                       const AvailabilitySpec& spec, double offset, int iterations);

// The trace of one member by the spec: timed, or over the run's iterations.
HostTrace availability_trace(const LoadSeries& series, const std::string& host, double peak,
                             const AvailabilitySpec& spec, double offset, int iterations);

}  // namespace ringsim
