#include "model/speed_traces.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <random>
#include <sstream>
#include <iomanip>

#include "model/errors.hpp"
#include "model/tiers_generator.hpp"

namespace ringsim {

std::vector<HostTrace> generate_speed_traces(const std::vector<std::pair<std::string, double>>& hosts,
                                             const TraceSpec& spec) {
  if (spec.speed_list.empty() && !(spec.factor_low > 0.0 && spec.factor_low <= spec.factor_high))
    throw InputError("speed factor range must satisfy 0 < low <= high");
  for (const auto& [lo, hi] : spec.windows)
    if (lo < 0 || hi < lo) throw InputError("speed change window [" + std::to_string(lo) + ", " + std::to_string(hi) + "] is empty");
  std::mt19937_64 rng(spec.seed);
  std::vector<HostTrace> traces;
  traces.reserve(hosts.size());
  for (const auto& [name, peak] : hosts) {
    HostTrace t{name, peak, {}};
    double current = 1.0;
    for (const auto& [lo, hi] : spec.windows) {
      const int it = lo + static_cast<int>(uniform_below(rng, static_cast<std::uint64_t>(hi - lo + 1)));
      if (!spec.speed_list.empty()) {
        current = spec.speed_list[uniform_below(rng, spec.speed_list.size())] / peak;
      } else {
        current *= spec.factor_low + (spec.factor_high - spec.factor_low) * uniform_unit(rng);
      }
      if (!t.changes.empty() && t.changes.back().iteration >= it)
        throw InputError("speed change windows must be increasing and disjoint");
      t.changes.push_back({it, current});
    }
    traces.push_back(std::move(t));
  }
  return traces;
}

const char* to_string(TracePlacement p) { return p == TracePlacement::iteration ? "iteration" : "nominal-time"; }

bool iteration_indexed(const HostTrace& trace) {
  // One kind of change per trace (HostTrace): the first says it. Asked at every iteration.
  return !trace.changes.empty() && !trace.changes.front().timed();
}

std::vector<std::pair<double, double>> unrolled_changes(const HostTrace& trace, double iteration_time, double until,
                                                        double origin) {
  std::vector<std::pair<double, double>> steps;
  if (trace.period > 0.0 && !trace.changes.empty()) {
    for (int p = 0; p < kMaxUnrolledPeriods && steps.size() < kMaxUnrolledLines; ++p) {
      const double start = origin + static_cast<double>(p) * trace.period;
      if (p > 0 && start > until) break;
      for (const auto& c : trace.changes)
        if (start + c.time <= until || (p == 0)) steps.emplace_back(start + c.time, c.multiplier);
    }
    return steps;
  }
  for (const auto& c : trace.changes) steps.emplace_back(change_time(c, iteration_time, origin), c.multiplier);
  return steps;
}

double change_time(const SpeedChange& c, double iteration_time, double origin) {
  return c.timed() ? origin + c.time : origin + static_cast<double>(c.iteration) * iteration_time;
}

double multiplier_at_iteration(const HostTrace& trace, int iteration, double iteration_time) {
  if (trace.period > 0.0 && iteration_time > 0.0)
    return multiplier_at_time(trace, iteration_time, static_cast<double>(iteration) * iteration_time);
  if (iteration_indexed(trace)) {
    // Changes are in increasing iterations: the last one at or before `iteration` (a member asks
    // this every iteration, so a long random walk must not cost a scan each time).
    const auto after = std::upper_bound(trace.changes.begin(), trace.changes.end(), iteration,
                                        [](int it, const SpeedChange& c) { return it < c.iteration; });
    return after == trace.changes.begin() ? 1.0 : std::prev(after)->multiplier;
  }
  double m = 1.0;
  for (const auto& c : trace.changes)
    if (c.timed() ? c.time <= static_cast<double>(iteration) * iteration_time : c.iteration <= iteration)
      m = c.multiplier;
  return m;
}

std::string speed_profile_text(const HostTrace& trace, double iteration_time, double origin) {
  std::ostringstream os;
  os << std::setprecision(17);
  // Leading time-indexed changes at time 0 set the initial value instead of a second line at 0.
  std::size_t first = 0;
  double initial = 1.0;
  bool replaced = false;
  while (first < trace.changes.size() && trace.changes[first].timed() && origin + trace.changes[first].time <= 0.0) {
    initial = trace.changes[first++].multiplier;
    replaced = true;
  }
  if (replaced && initial != 1.0) os << "0 " << initial << '\n';
  else os << "0 1.0\n";
  if (trace.period > 0.0 && !trace.changes.empty()) {
    if (origin == 0.0) {
      for (std::size_t k = first; k < trace.changes.size(); ++k)
        os << trace.changes[k].time << ' ' << trace.changes[k].multiplier << '\n';
      os << "LOOPAFTER " << trace.period - trace.changes.back().time << '\n';
      return os.str();
    }
    std::size_t lines = 1;
    for (int p = 0; p < kMaxUnrolledPeriods && lines < kMaxUnrolledLines; ++p)
      for (const auto& c : trace.changes) {
        os << origin + static_cast<double>(p) * trace.period + c.time << ' ' << c.multiplier << '\n';
        ++lines;
      }
    return os.str();
  }
  for (std::size_t k = first; k < trace.changes.size(); ++k)
    os << change_time(trace.changes[k], iteration_time, origin) << ' ' << trace.changes[k].multiplier << '\n';
  return os.str();
}

namespace {

// Changes are given in increasing times (or iterations), and origin + time is monotone in time
// even rounded: the changes in effect at a time are a prefix, found by bisection, so that a trace
// of many events costs a logarithm per question, not a scan. `at_or_before(c)` says whether
// change c has taken effect.
template <class AtOrBefore>
std::size_t changes_in_effect(const HostTrace& trace, AtOrBefore at_or_before) {
  return static_cast<std::size_t>(
      std::partition_point(trace.changes.begin(), trace.changes.end(), at_or_before) - trace.changes.begin());
}

}  // namespace

double multiplier_at_time(const HostTrace& trace, double iteration_time, double t, double origin) {
  double m = 1.0;
  if (trace.period > 0.0 && !trace.changes.empty()) {
    double local = t - origin;
    if (local < 0.0) return 1.0;
    const double k = std::floor(local / trace.period);
    if (k >= 1.0) {
      local -= k * trace.period;
      m = trace.changes.back().multiplier;  // the previous period's last value
    }
    const std::size_t in_effect = changes_in_effect(trace, [&](const SpeedChange& c) { return c.time <= local; });
    return in_effect ? trace.changes[in_effect - 1].multiplier : m;
  }
  const std::size_t in_effect =
      changes_in_effect(trace, [&](const SpeedChange& c) { return change_time(c, iteration_time, origin) <= t; });
  return in_effect ? trace.changes[in_effect - 1].multiplier : m;
}

namespace {

// The first change of the trace's profile strictly after time t (infinity when there is none).
double next_change_after(const HostTrace& trace, double iteration_time, double t, double origin) {
  double next = INFINITY;
  if (trace.period > 0.0 && !trace.changes.empty()) {
    const double local = t - origin;
    if (local < 0.0) return origin + trace.changes.front().time;
    // The period t falls in, give or take one for rounding: the first change after t among them.
    const double k = std::floor(local / trace.period);
    for (double p = std::max(0.0, k - 1.0); p <= k + 1.0; p += 1.0) {
      const double start = origin + p * trace.period;
      // The changes are partitioned by the test (in effect, then not): the two ends settle the
      // periods before and after t, one search the period of t.
      if (start + trace.changes.back().time <= t) continue;
      if (!(start + trace.changes.front().time <= t)) {
        next = std::min(next, start + trace.changes.front().time);
        continue;
      }
      const std::size_t first = changes_in_effect(trace, [&](const SpeedChange& c) { return start + c.time <= t; });
      if (first < trace.changes.size()) next = std::min(next, start + trace.changes[first].time);
    }
    return next;
  }
  const std::size_t first =
      changes_in_effect(trace, [&](const SpeedChange& c) { return change_time(c, iteration_time, origin) <= t; });
  return first < trace.changes.size() ? change_time(trace.changes[first], iteration_time, origin) : next;
}

// The work one period of a periodic trace allows from its second period on (each period then
// starts at the previous one's last value), in multiplier-seconds.
double work_per_period(const HostTrace& trace) {
  double work = 0.0, m = trace.changes.back().multiplier, at = 0.0;
  for (const auto& c : trace.changes) {
    work += m * (c.time - at);
    at = c.time;
    m = c.multiplier;
  }
  return work + m * (trace.period - at);
}

}  // namespace

double finish_of_work(const HostTrace& trace, double peak, double iteration_time, double start, double flops,
                      double origin) {
  double t = start;
  double left = flops;
  const bool periodic = trace.period > 0.0 && !trace.changes.empty();
  const double per_period = periodic ? work_per_period(trace) * peak : 0.0;
  while (true) {
    // Whole periods at once: from the second period on every period allows the same work.
    if (periodic && per_period > 0.0 && t >= origin + trace.period && left > 2.0 * per_period) {
      const double skip = std::floor(left / per_period) - 1.0;
      left -= skip * per_period;
      t += skip * trace.period;
    }
    const double next = next_change_after(trace, iteration_time, t, origin);
    // The piece's multiplier read inside it, not at t: at a change's own time, rounding in
    // origin + time may still read the value before it.
    const double rate = peak * multiplier_at_time(trace, iteration_time, std::isfinite(next) ? (t + next) / 2 : t + 1.0, origin);
    if (rate > 0.0 && (!std::isfinite(next) || left <= rate * (next - t))) return t + left / rate;
    if (!std::isfinite(next) || (periodic && per_period <= 0.0 && t >= origin + trace.period)) return INFINITY;
    left -= rate * (next - t);
    t = next;
  }
}

double finish_of_pooled_work(const std::vector<ProfiledHost>& profiled, double fixed_rate, double iteration_time,
                             double start, double flops, double origin) {
  double t = start;
  double left = flops;
  while (true) {
    double next = INFINITY;
    for (const ProfiledHost& h : profiled) next = std::min(next, next_change_after(*h.trace, iteration_time, t, origin));
    // Each multiplier read inside the piece, as finish_of_work reads it.
    const double inside = std::isfinite(next) ? (t + next) / 2 : t + 1.0;
    double rate = fixed_rate;
    for (const ProfiledHost& h : profiled) rate += h.peak * multiplier_at_time(*h.trace, iteration_time, inside, origin);
    if (rate > 0.0 && (!std::isfinite(next) || left <= rate * (next - t))) return t + left / rate;
    if (!std::isfinite(next)) return INFINITY;
    left -= rate * (next - t);
    t = next;
  }
}

}  // namespace ringsim
