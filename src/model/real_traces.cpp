#include "model/real_traces.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <sstream>

#include "model/errors.hpp"
#include "model/tiers_generator.hpp"

namespace ringsim {

const char* to_string(AvailabilityRule rule) {
  switch (rule) {
    case AvailabilityRule::time_sharing: return "time-sharing";
    case AvailabilityRule::load_average: return "load";
    case AvailabilityRule::dedicated: break;
  }
  return "dedicated";
}

std::string refused_measurement(AvailabilityRule rule, double value) {
  if (rule == AvailabilityRule::load_average)
    return value >= 0.0 ? "" : "is negative (a load average counts processes: >= 0)";
  return value >= 0.0 && value <= 100.0 ? "" : "is not in [0, 100] (a utilization, percent of a CPU)";
}

double available_share(AvailabilityRule rule, double value, double floor) {
  double share = 1.0;
  switch (rule) {
    // (100 - u) / 100 rather than 1 - u / 100: a whole percentage gives the nearest double to its share.
    case AvailabilityRule::dedicated: share = (100.0 - value) / 100.0; break;
    case AvailabilityRule::time_sharing: share = std::max((100.0 - value) / 100.0, 0.5); break;
    case AvailabilityRule::load_average: share = 1.0 / (1.0 + value); break;
  }
  return std::max(share, floor);
}

std::vector<SeriesDraw> draw_series(std::size_t set_size, std::size_t members, std::uint64_t seed,
                                    const std::string& set_name) {
  if (set_size < members)
    throw InputError("trace set " + set_name + " holds " + std::to_string(set_size) + " series, the run " +
                     std::to_string(members) + " member(s): each member draws a series of its own");
  // Its own stream: with the ring drawn from the same seed, the first draws would otherwise
  // follow the same numbers as the ring's.
  std::mt19937_64 rng(seed ^ 0x5eed7a11ab1e5e75ULL);
  std::vector<std::size_t> order(set_size);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::vector<SeriesDraw> draws;
  for (std::size_t i = 0; i < members; ++i) {
    const std::size_t j = i + static_cast<std::size_t>(uniform_below(rng, set_size - i));
    std::swap(order[i], order[j]);
    draws.push_back({order[i], uniform_unit(rng)});
  }
  return draws;
}

double series_offset(const LoadSeries& series, const AvailabilitySpec& spec, double offset_uniform) {
  if (spec.random_offset) {
    const auto n = series.times.size();
    const auto k = std::min(n - 1, static_cast<std::size_t>(offset_uniform * static_cast<double>(n)));
    return series.times[k];
  }
  if (!(spec.offset >= 0.0 && spec.offset < series.span)) {
    std::ostringstream os;
    os << "traces 'offset' " << spec.offset << " s lies outside the span [0, " << series.span << ") s of "
       << series.name;
    throw InputError(os.str());
  }
  return spec.offset;
}

namespace {

// How many whole spans lie before `t` >= 0 (the quotient's rounding corrected, so that t minus
// them is in [0, span)).
double whole_spans(const LoadSeries& s, double t) {
  double spans = std::floor(t / s.span);
  if (t - spans * s.span < 0.0) spans -= 1.0;
  return spans;
}

// The sample in effect at `position` in [0, span).
std::size_t sample_at(const LoadSeries& s, double position) {
  const auto next = std::upper_bound(s.times.begin(), s.times.end(), position);
  return static_cast<std::size_t>(next - s.times.begin()) - 1;
}

double sample_end(const LoadSeries& s, std::size_t k) { return k + 1 < s.times.size() ? s.times[k + 1] : s.span; }

std::vector<double> shares_of(const LoadSeries& s, const AvailabilitySpec& spec) {
  std::vector<double> shares;
  for (double v : s.values) shares.push_back(available_share(spec.conversion, v, spec.floor));
  return shares;
}

void add_timed_change(HostTrace& t, double time, double multiplier) {
  if (!t.changes.empty() && t.changes.back().multiplier == multiplier) return;
  SpeedChange c;
  c.time = time;
  c.multiplier = multiplier;
  t.changes.push_back(c);
}

// The integral of the shares from 0 to `t` >= 0, the series repeating with its span: `before[k]`
// is the integral up to sample k.
double integral_to(const LoadSeries& s, const std::vector<double>& shares, const std::vector<double>& before,
                   double t) {
  const double spans = whole_spans(s, t);
  const double whole = spans * before.back();
  t -= spans * s.span;
  const std::size_t k = sample_at(s, std::min(t, std::nextafter(s.span, 0.0)));
  return whole + before[k] + shares[k] * (t - s.times[k]);
}

// The mean share over [a, b), 0 <= a < span, a < b: exact when one sample covers it.
double mean_share(const LoadSeries& s, const std::vector<double>& shares, const std::vector<double>& before, double a,
                  double b) {
  const std::size_t k = sample_at(s, a);
  if (b <= sample_end(s, k)) return shares[k];
  return (integral_to(s, shares, before, b) - integral_to(s, shares, before, a)) / (b - a);
}

}  // namespace

HostTrace timed_availability_trace(const LoadSeries& series, const std::string& host, double peak,
                                   const AvailabilitySpec& spec, double offset) {
  const std::vector<double> shares = shares_of(series, spec);
  HostTrace t{host, peak, {}};
  t.period = series.span / spec.time_scale;
  if (!(t.period >= kLeastProfilePeriod)) {
    std::ostringstream os;
    os << "traces 'time_scale' " << spec.time_scale << " makes " << series.name << " (" << series.span
       << " s) repeat every " << t.period << " simulated s, below " << kLeastProfilePeriod
       << " s (SimGrid steps through every repetition)";
    throw InputError(os.str());
  }
  const std::size_t first = sample_at(series, offset);
  add_timed_change(t, 0.0, shares[first]);
  const std::size_t n = series.times.size();
  for (std::size_t j = first + 1; j < n; ++j)
    add_timed_change(t, (series.times[j] - offset) / spec.time_scale, shares[j]);
  for (std::size_t j = 0; j < n && series.times[j] < offset; ++j)
    add_timed_change(t, (series.span - offset + series.times[j]) / spec.time_scale, shares[j]);
  return t;
}

HostTrace iteration_availability_trace(const LoadSeries& series, const std::string& host, double peak,
                                       const AvailabilitySpec& spec, double offset, int iterations) {
  const std::vector<double> shares = shares_of(series, spec);
  std::vector<double> before(series.times.size() + 1, 0.0);
  for (std::size_t k = 0; k < series.times.size(); ++k)
    before[k + 1] = before[k] + shares[k] * (sample_end(series, k) - series.times[k]);
  HostTrace t{host, peak, {}};
  const bool whole_span = !(spec.per_iteration > 0.0);
  const double part = whole_span ? series.span / static_cast<double>(iterations) : spec.per_iteration;
  for (int j = 1; j <= iterations; ++j) {
    double a = offset + static_cast<double>(j - 1) * part;
    // Over the whole span, the last part ends exactly where the series comes back to the offset.
    double b = whole_span && j == iterations ? offset + series.span : offset + static_cast<double>(j) * part;
    const double spans = whole_spans(series, a);
    a -= spans * series.span;
    b -= spans * series.span;
    const double m = mean_share(series, shares, before, a, b);
    if (t.changes.empty() || t.changes.back().multiplier != m) {
      SpeedChange c;
      c.iteration = j == 1 ? 0 : j;
      c.multiplier = m;
      t.changes.push_back(c);
    }
  }
  return t;
}

HostTrace availability_trace(const LoadSeries& series, const std::string& host, double peak,
                             const AvailabilitySpec& spec, double offset, int iterations) {
  return spec.over_iterations ? iteration_availability_trace(series, host, peak, spec, offset, iterations)
                              : timed_availability_trace(series, host, peak, spec, offset);
}

}  // namespace ringsim
