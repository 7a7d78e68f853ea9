// Speed traces of the HiPC 2004 experiment (Section 7, Figure 2): each host's speed changes twice,
// "at some iteration randomly chosen between iterations number 20 and 40, and then ... between 60
// and 80". Changes given by iteration take effect at the start of that iteration of the run
// (placement "iteration", however iterations stretch), or, placement "nominal-time", at the time
// origin + iteration * (the initial plan's iteration time) through a SimGrid speed profile (lines
// "time multiplier", multiplier = new speed / peak). Changes given by time are profiles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ringsim {

// A change is iteration-indexed (the generated families) or, when `time` >= 0, time-indexed:
// seconds since the iterations start (traces read from files); `iteration` is then unused.
struct SpeedChange {
  int iteration = 0;
  double multiplier = 1.0;  // speed after the change / peak speed (values > 1 allowed)
  double time = -1.0;       // >= 0: time-indexed
  bool timed() const { return time >= 0.0; }
};

// Where changes given by iteration take effect (run config `traces.placement`).
enum class TracePlacement { iteration, nominal_time };
const char* to_string(TracePlacement p);

struct HostTrace {
  std::string host;
  double peak_speed = 0.0;  // flop/s
  std::vector<SpeedChange> changes;  // increasing iterations (or times); one kind per trace
  // > 0: the (time-indexed) changes repeat with this period, the first one being at time 0
  // (a SimGrid profile's "LOOPAFTER d": period = last time + d).
  double period = 0.0;
};

// The shortest period a repeating profile may have (seconds): SimGrid steps through every
// repetition, about a second of wall time per three million of them, and never ends below its
// time precision. A trace, or a platform's profile, repeating faster is refused.
inline constexpr double kLeastProfilePeriod = 1e-6;

// The trace's changes are given by iteration (none of them by time); a trace without changes is not.
bool iteration_indexed(const HostTrace& trace);

// When a change takes effect under placement nominal-time: origin + iteration * iteration_time, or
// origin + time.
double change_time(const SpeedChange& c, double iteration_time, double origin = 0.0);

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

// Multiplier in effect at iteration `it` (changes take effect at the start of their iteration);
// a time-indexed change counts from iteration ceil(time / iteration_time) (iteration_time > 0).
double multiplier_at_iteration(const HostTrace& trace, int iteration, double iteration_time = 0.0);

// SimGrid profile text: "0 1.0" then one line per change at time origin + iteration *
// iteration_time (origin: when iterations start, e.g. after the matrix has been staged), or at
// origin + time. A time-indexed change at time 0 (with origin 0) replaces the first line's value.
// Periodic traces: "LOOPAFTER d" when origin is 0; otherwise the loop is written out for
// kMaxUnrolledPeriods periods (at most kMaxUnrolledLines lines), beyond which SimGrid keeps the
// last value.
std::string speed_profile_text(const HostTrace& trace, double iteration_time, double origin = 0.0);

// Multiplier in effect at simulated time t under that profile.
double multiplier_at_time(const HostTrace& trace, double iteration_time, double t, double origin = 0.0);

// When `flops` of work started at simulated time `start` end on a host of `peak` flop/s under the
// trace's profile (its times counted from `origin`, iteration-indexed changes at origin + iteration *
// iteration_time): the speed is piecewise constant, so the work is integrated piece by piece.
// Infinity when the host stays at speed 0 (multiplier 0) with no later change.
double finish_of_work(const HostTrace& trace, double peak, double iteration_time, double start, double flops,
                      double origin = 0.0);

// A host whose speed follows its trace's profile, for pooled work.
struct ProfiledHost {
  const HostTrace* trace = nullptr;
  double peak = 0.0;  // flop/s
};

// When `flops` of work that can be shared at will among hosts, started at `start`, end: the hosts
// of `profiled` at their profiles' speeds (times counted from `origin`, as finish_of_work), the
// others at `fixed_rate` flop/s in all. The pooled speed is piecewise constant between the
// profiles' changes, so the work is integrated piece by piece: the least time any division of the
// work can take, which makes it a lower bound. Infinity when the pooled speed stays 0.
double finish_of_pooled_work(const std::vector<ProfiledHost>& profiled, double fixed_rate, double iteration_time,
                             double start, double flops, double origin = 0.0);

// The trace's changes as (time, multiplier) steps up to time `until` (inclusive): a periodic
// trace's every period (its first change of each period after the first included), the others'
// changes as speed_profile_text places them; the leading "0 value" line is not included.
std::vector<std::pair<double, double>> unrolled_changes(const HostTrace& trace, double iteration_time, double until,
                                                        double origin = 0.0);

// The same trace with its iteration-indexed changes given by time: a change at iteration k at
// iteration_start(k) - origin (the start of iteration k in the run; iteration 0 means before
// iteration 1). Time-indexed changes are kept.
template <class StartOf>
HostTrace timed_by_iteration_start(const HostTrace& trace, StartOf iteration_start, double origin = 0.0) {
  HostTrace t = trace;
  for (auto& c : t.changes)
    if (!c.timed()) c.time = iteration_start(c.iteration) - origin;
  return t;
}

inline constexpr int kMaxUnrolledPeriods = 10000;
inline constexpr std::size_t kMaxUnrolledLines = 200000;

}  // namespace ringsim
