// A trace's multiplier at a time and its next change are found by bisection over its changes
// (model/speed_traces.cpp): checked against a scan of every change, on seeded random traces with
// repeated times, changes by iteration placed at nominal times, periodic profiles, and questions
// asked exactly at the changes' own times.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "model/speed_traces.hpp"
#include "trial_count.hpp"

namespace ringsim {
namespace {

// The multiplier in effect at t: the last change whose time has come, by a scan.
double scanned_multiplier(const HostTrace& trace, double iteration_time, double t, double origin) {
  double m = 1.0;
  if (trace.period > 0.0 && !trace.changes.empty()) {
    double local = t - origin;
    if (local < 0.0) return 1.0;
    const double k = std::floor(local / trace.period);
    if (k >= 1.0) {
      local -= k * trace.period;
      m = trace.changes.back().multiplier;
    }
    for (const auto& c : trace.changes)
      if (c.time <= local) m = c.multiplier;
    return m;
  }
  for (const auto& c : trace.changes)
    if (change_time(c, iteration_time, origin) <= t) m = c.multiplier;
  return m;
}

// When `flops` started at `start` end, integrating piece by piece with the scanned multiplier
// between every change time (unrolled far enough), for comparison with finish_of_work.
double scanned_finish(const HostTrace& trace, double peak, double iteration_time, double start, double flops,
                      double origin) {
  std::vector<double> times;
  for (const auto& [at, m] : unrolled_changes(trace, iteration_time, start + 1e6, origin)) {
    (void)m;
    if (at > start) times.push_back(at);
  }
  double t = start, left = flops;
  for (double next : times) {
    const double rate = peak * scanned_multiplier(trace, iteration_time, (t + next) / 2, origin);
    if (rate > 0.0 && left <= rate * (next - t)) return t + left / rate;
    left -= rate * (next - t);
    t = next;
  }
  const double rate = peak * scanned_multiplier(trace, iteration_time, t + 1.0, origin);
  return rate > 0.0 ? t + left / rate : INFINITY;
}

HostTrace random_trace(std::mt19937_64& rng, int kind) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  HostTrace t{"h", 1e9, {}};
  const int changes = static_cast<int>(rng() % 40);
  double time = 0.0;
  int iteration = 0;
  for (int k = 0; k < changes; ++k) {
    SpeedChange c;
    c.multiplier = unit(rng) < 0.1 ? 0.0 : 0.05 + 2.0 * unit(rng);
    if (kind == 0) {  // by iteration, placed at nominal times
      iteration += static_cast<int>(rng() % 3);
      c.iteration = iteration;
    } else {  // by time, some at the same time as the one before
      time += unit(rng) < 0.2 ? 0.0 : 10.0 * unit(rng);
      c.time = time;
    }
    t.changes.push_back(c);
  }
  if (kind == 2 && !t.changes.empty()) t.period = time + 0.5 + 5.0 * unit(rng);
  return t;
}

}  // namespace

TEST_CASE("a trace's multiplier and its integrated work, by bisection, equal a scan of every change") {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int questions = 0, at_changes = 0;
  const int trials = testing::trials(3000);
  for (int trial = 0; trial < trials; ++trial) {
    const int kind = trial % 3;
    const HostTrace trace = random_trace(rng, kind);
    const double iteration_time = 0.5 + unit(rng), origin = unit(rng) < 0.5 ? 0.0 : 3.0 * unit(rng);
    std::vector<double> asked;
    for (int q = 0; q < 20; ++q) asked.push_back(-2.0 + 120.0 * unit(rng));
    for (const auto& [at, m] : unrolled_changes(trace, iteration_time, 200.0, origin)) {
      (void)m;
      asked.push_back(at);  // exactly at a change: it has taken effect
      ++at_changes;
    }
    for (double t : asked) {
      INFO("trial ", trial, " kind ", kind, " t ", t);
      CHECK(multiplier_at_time(trace, iteration_time, t, origin) == scanned_multiplier(trace, iteration_time, t, origin));
      ++questions;
    }
    const double start = 40.0 * unit(rng), flops = 1e9 * 30.0 * unit(rng);
    const double finish = finish_of_work(trace, 1e9, iteration_time, start, flops, origin);
    const double scanned = scanned_finish(trace, 1e9, iteration_time, start, flops, origin);
    INFO("trial ", trial, " kind ", kind, " start ", start, " flops ", flops);
    if (std::isinf(scanned)) CHECK(std::isinf(finish));
    else CHECK(finish == doctest::Approx(scanned).epsilon(1e-9));
  }
  CHECK(questions > 20 * trials);
  CHECK(at_changes > 20 * trials / 3);
}

TEST_CASE("pooled work ends when the hosts' integrated speeds have done it, and no division of it ends sooner") {
  std::mt19937_64 rng(4242);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int checked = 0;
  const int trials = testing::trials(2000);
  for (int trial = 0; trial < trials; ++trial) {
    const std::size_t hosts = 1 + rng() % 4;
    std::vector<HostTrace> traces;
    std::vector<ProfiledHost> profiled;
    for (std::size_t h = 0; h < hosts; ++h) traces.push_back(random_trace(rng, 1 + static_cast<int>(rng() % 2)));
    for (std::size_t h = 0; h < hosts; ++h) profiled.push_back({&traces[h], 1e9 * (0.2 + unit(rng))});
    const double fixed = unit(rng) < 0.3 ? 0.0 : 1e9 * unit(rng);
    const double iteration_time = 1.0, origin = unit(rng) < 0.5 ? 0.0 : 2.0 * unit(rng);
    const double start = 30.0 * unit(rng), flops = 1e9 * 40.0 * unit(rng);
    const double pooled = finish_of_pooled_work(profiled, fixed, iteration_time, start, flops, origin);
    INFO("trial ", trial, " hosts ", hosts, " fixed ", fixed);
    // Brute force: every change time of every host, unrolled, the pooled speed scanned in each piece.
    std::vector<double> times;
    for (const auto& t : traces)
      for (const auto& [at, m] : unrolled_changes(t, iteration_time, start + 1e5, origin)) {
        (void)m;
        if (at > start) times.push_back(at);
      }
    std::sort(times.begin(), times.end());
    auto rate_in = [&](double a, double b) {
      const double inside = std::isfinite(b) ? (a + b) / 2 : a + 1.0;
      double rate = fixed;
      for (std::size_t h = 0; h < hosts; ++h)
        rate += profiled[h].peak * scanned_multiplier(traces[h], iteration_time, inside, origin);
      return rate;
    };
    double t = start, left = flops, expected = INFINITY;
    times.push_back(INFINITY);
    for (double next : times) {
      if (!(next > t)) continue;
      const double rate = rate_in(t, next);
      if (rate > 0.0 && (!std::isfinite(next) || left <= rate * (next - t))) {
        expected = t + left / rate;
        break;
      }
      if (!std::isfinite(next)) break;
      left -= rate * (next - t);
      t = next;
    }
    if (std::isinf(expected)) {
      CHECK(std::isinf(pooled));
      continue;
    }
    CHECK(pooled == doctest::Approx(expected).epsilon(1e-9));
    // A lower bound: the profiled hosts alone, the work divided among them in random shares, end no sooner.
    if (fixed == 0.0) {
      std::vector<double> share(hosts);
      double sum = 0.0;
      for (double& x : share) sum += (x = unit(rng));
      double slowest = 0.0;
      for (std::size_t h = 0; h < hosts; ++h)
        slowest = std::max(slowest, finish_of_work(traces[h], profiled[h].peak, iteration_time, start,
                                                   flops * share[h] / sum, origin));
      CHECK(pooled <= slowest * (1.0 + 1e-12));
      ++checked;
    }
  }
  CHECK(checked > trials / 4);
}

}  // namespace ringsim
