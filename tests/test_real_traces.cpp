// Measured load as speed traces (model/real_traces.hpp): the conversion rules, the seeded draws
// from a set, and the series laid on the clock or over the iterations.
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "input_errors.hpp"
#include "model/real_traces.hpp"
#include "model/trace_families.hpp"

using namespace ringsim;
using testing::error_of;

namespace {

// Four samples of 10 s: 0, 50, 100 and 20 percent.
LoadSeries four_samples() {
  LoadSeries s;
  s.name = "'four'";
  s.times = {0, 10, 20, 30};
  s.values = {0, 50, 100, 20};
  s.span = 40;
  return s;
}

AvailabilitySpec timed(double time_scale, AvailabilityRule rule = AvailabilityRule::dedicated) {
  AvailabilitySpec a;
  a.conversion = rule;
  a.time_scale = time_scale;
  return a;
}

using Steps = std::vector<std::pair<double, double>>;

Steps timed_steps(const HostTrace& t) {
  Steps out;
  for (const auto& c : t.changes) {
    CHECK(c.timed());
    out.emplace_back(c.time, c.multiplier);
  }
  return out;
}

Steps iteration_steps(const HostTrace& t) {
  Steps out;
  for (const auto& c : t.changes) {
    CHECK(!c.timed());
    out.emplace_back(c.iteration, c.multiplier);
  }
  return out;
}

}  // namespace

TEST_CASE("conversion rules: dedicated 1 - u, time-sharing max(1 - u, 1/2), load 1 / (1 + L), floored") {
  const auto share = [](AvailabilityRule r, double v) { return available_share(r, v, 0.05); };
  CHECK(share(AvailabilityRule::dedicated, 0) == 1.0);
  CHECK(share(AvailabilityRule::dedicated, 30) == 0.7);
  CHECK(share(AvailabilityRule::dedicated, 67) == 0.33);
  CHECK(share(AvailabilityRule::dedicated, 97) == 0.05);   // 0.03 raised to the floor
  CHECK(share(AvailabilityRule::dedicated, 100) == 0.05);  // never 0
  // A load below its fair half takes what it uses, the member all the rest; above, half each.
  CHECK(share(AvailabilityRule::time_sharing, 0) == 1.0);
  CHECK(share(AvailabilityRule::time_sharing, 20) == 0.8);
  CHECK(share(AvailabilityRule::time_sharing, 50) == 0.5);
  CHECK(share(AvailabilityRule::time_sharing, 90) == 0.5);
  CHECK(share(AvailabilityRule::time_sharing, 100) == 0.5);
  CHECK(share(AvailabilityRule::load_average, 0) == 1.0);
  CHECK(share(AvailabilityRule::load_average, 1) == 0.5);
  CHECK(share(AvailabilityRule::load_average, 3) == 0.25);
  CHECK(share(AvailabilityRule::load_average, 100) == 0.05);
  CHECK(available_share(AvailabilityRule::load_average, 100, 0.001) == doctest::Approx(1.0 / 101));
  CHECK(available_share(AvailabilityRule::dedicated, 100, kLeastMultiplier) == kLeastMultiplier);

  CHECK(refused_measurement(AvailabilityRule::dedicated, 0).empty());
  CHECK(refused_measurement(AvailabilityRule::time_sharing, 100).empty());
  CHECK(refused_measurement(AvailabilityRule::dedicated, 100.5) == "is not in [0, 100] (a utilization, percent of a CPU)");
  CHECK(!refused_measurement(AvailabilityRule::time_sharing, -1).empty());
  CHECK(refused_measurement(AvailabilityRule::load_average, 250).empty());
  CHECK(refused_measurement(AvailabilityRule::load_average, -0.5) == "is negative (a load average counts processes: >= 0)");
}

TEST_CASE("draws from a set: distinct, repeatable by seed, different across seeds, stable when members are added") {
  const auto a = draw_series(30, 8, 1, "s");
  const auto again = draw_series(30, 8, 1, "s");
  REQUIRE(a.size() == 8);
  std::set<std::size_t> distinct;
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].series == again[i].series);
    CHECK(a[i].offset_uniform == again[i].offset_uniform);
    CHECK(a[i].series < 30);
    CHECK(a[i].offset_uniform >= 0.0);
    CHECK(a[i].offset_uniform < 1.0);
    distinct.insert(a[i].series);
  }
  CHECK(distinct.size() == 8);
  // Seeds 1..20 do not all draw the same first member's series (each is 1 chance in 30).
  std::set<std::size_t> firsts;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) firsts.insert(draw_series(30, 4, seed, "s")[0].series);
  CHECK(firsts.size() > 5);
  CHECK(draw_series(30, 4, 2, "s")[0].series != draw_series(30, 4, 1, "s")[0].series);
  // A rebuild's newcomers come after the first ring: its draws do not move.
  const auto more = draw_series(30, 12, 1, "s");
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(more[i].series == a[i].series);
  // A set exactly as large as the ring is a permutation of it.
  std::set<std::size_t> all;
  for (const auto& d : draw_series(5, 5, 9, "s")) all.insert(d.series);
  CHECK(all.size() == 5);
  CHECK(error_of([] { draw_series(3, 4, 1, "'day'"); }) ==
        "trace set 'day' holds 3 series, the run 4 member(s): each member draws a series of its own");
}

TEST_CASE("offsets: given ones inside the span, random ones at a sample start") {
  const LoadSeries s = four_samples();
  AvailabilitySpec a = timed(1.0);
  a.offset = 25;
  CHECK(series_offset(s, a, 0.9) == 25);
  a.offset = 40;
  CHECK(error_of([&] { series_offset(s, a, 0.0); }) == "traces 'offset' 40 s lies outside the span [0, 40) s of 'four'");
  a.random_offset = true;
  CHECK(series_offset(s, a, 0.0) == 0);
  CHECK(series_offset(s, a, 0.26) == 10);
  CHECK(series_offset(s, a, 0.999) == 30);
}

TEST_CASE("a series on the clock: each sample's share from its start, scaled, rotated by the offset, repeating") {
  const LoadSeries s = four_samples();
  const HostTrace t = timed_availability_trace(s, "h", 2e9, timed(10.0), 0.0);
  CHECK(t.host == "h");
  CHECK(t.peak_speed == 2e9);
  CHECK(timed_steps(t) == Steps{{0, 1.0}, {1, 0.5}, {2, 0.05}, {3, 0.8}});
  CHECK(t.period == 4.0);
  CHECK(multiplier_at_time(t, 1.0, 5.5) == 0.5);  // the second period
  // Started mid-sample (25 s: in the 100 % one), the rest of the series, then its beginning.
  CHECK(timed_steps(timed_availability_trace(s, "h", 1e9, timed(1.0), 25.0)) ==
        Steps{{0, 0.05}, {5, 0.8}, {15, 1.0}, {25, 0.5}, {35, 0.05}});
  // Started at a sample's start: no change at the period's end.
  CHECK(timed_steps(timed_availability_trace(s, "h", 1e9, timed(1.0), 10.0)) ==
        Steps{{0, 0.5}, {10, 0.05}, {20, 0.8}, {30, 1.0}});
  // Equal shares in a row are one change (time-sharing: 50 % and 100 % both give 1/2).
  CHECK(timed_steps(timed_availability_trace(s, "h", 1e9, timed(1.0, AvailabilityRule::time_sharing), 10.0)) ==
        Steps{{0, 0.5}, {20, 0.8}, {30, 1.0}});
  CHECK(error_of([&] { timed_availability_trace(s, "h", 1e9, timed(1e9), 0.0); })
            .find("repeat every 4e-08 simulated s, below 1e-06 s") != std::string::npos);
}

TEST_CASE("a series over the iterations: the mean share of each equal part of its span") {
  const LoadSeries s = four_samples();
  AvailabilitySpec a = timed(1.0);
  a.over_iterations = true;
  // One sample per iteration: each iteration its sample's share (iteration 1's also at 0).
  CHECK(iteration_steps(iteration_availability_trace(s, "h", 1e9, a, 0.0, 4)) ==
        Steps{{0, 1.0}, {2, 0.5}, {3, 0.05}, {4, 0.8}});
  // Two samples per iteration: their mean.
  const Steps two = iteration_steps(iteration_availability_trace(s, "h", 1e9, a, 0.0, 2));
  REQUIRE(two.size() == 2);
  CHECK(two[0].second == doctest::Approx(0.75));
  CHECK(two[1].second == doctest::Approx(0.425));
  // Eight iterations: each sample held for two; offset 30 s starts with the last sample and wraps.
  CHECK(iteration_steps(iteration_availability_trace(s, "h", 1e9, a, 30.0, 8)) ==
        Steps{{0, 0.8}, {3, 1.0}, {5, 0.5}, {7, 0.05}});
  // A part across the wrap (offset 35, 2 iterations: [35, 55) and [55, 75)).
  const Steps wrapped = iteration_steps(iteration_availability_trace(s, "h", 1e9, a, 35.0, 2));
  REQUIRE(wrapped.size() == 2);
  CHECK(wrapped[0].second == doctest::Approx((5 * 0.8 + 10 * 1.0 + 5 * 0.5) / 20));
  CHECK(wrapped[1].second == doctest::Approx((5 * 0.5 + 10 * 0.05 + 5 * 0.8) / 20));
  const HostTrace t = availability_trace(s, "h", 1e9, a, 0.0, 4);
  CHECK(iteration_indexed(t));
  CHECK(multiplier_at_iteration(t, 1) == 1.0);
  CHECK(multiplier_at_iteration(t, 3) == 0.05);
  a.over_iterations = false;
  CHECK(!iteration_indexed(availability_trace(s, "h", 1e9, a, 0.0, 4)));
}

TEST_CASE("a series per iteration: each iteration the mean share of its own seconds, wrapping any number of times") {
  const LoadSeries s = four_samples();
  AvailabilitySpec a = timed(1.0);
  a.over_iterations = true;
  // 10 s per iteration is one sample per iteration, as the span over 4 iterations; the series
  // goes on with itself past its span.
  a.per_iteration = 10.0;
  CHECK(iteration_steps(iteration_availability_trace(s, "h", 1e9, a, 0.0, 6)) ==
        Steps{{0, 1.0}, {2, 0.5}, {3, 0.05}, {4, 0.8}, {5, 1.0}, {6, 0.5}});
  // Against the share integrated in steps of 1/8 s, for parts shorter than a sample, across
  // samples, and longer than the span, from offsets anywhere in it.
  const std::vector<double> share = {1.0, 0.5, 0.05, 0.8};
  auto stepped_mean = [&](double from, double length) {
    const int steps = static_cast<int>(std::lround(length * 8));
    double sum = 0.0;
    for (int k = 0; k < steps; ++k) {
      const double t = std::fmod(from + (k + 0.5) / 8.0, 40.0);
      sum += share[static_cast<std::size_t>(t / 10.0)];
    }
    return sum / steps;
  };
  for (double part : {2.5, 7.0, 10.0, 25.0, 40.0, 95.0}) {
    for (double offset : {0.0, 5.0, 37.5}) {
      a.per_iteration = part;
      const HostTrace t = iteration_availability_trace(s, "h", 1e9, a, offset, 12);
      REQUIRE(iteration_indexed(t));
      for (int j = 1; j <= 12; ++j) {
        INFO("part " << part << ", offset " << offset << ", iteration " << j);
        CHECK(multiplier_at_iteration(t, j) == doctest::Approx(stepped_mean(offset + (j - 1) * part, part)));
      }
    }
  }
}
