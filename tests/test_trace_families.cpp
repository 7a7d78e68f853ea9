// Speed trace families (src/model/trace_families.hpp): random walk, on-off with exponential,
// Pareto, Weibull and hyperexponential durations (the laws' means, tails and residual lives, each
// trace deterministic per seed and in equilibrium), the daily cycle; bad parameters refused; the
// traces sources of a run config parsed and written back in canonical JSON.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include <nlohmann/json.hpp>

#include "io/run_config_json.hpp"
#include "model/errors.hpp"
#include "model/speed_traces.hpp"
#include "model/tiers_generator.hpp"
#include "model/trace_families.hpp"

using namespace ringsim;

namespace {

std::vector<std::pair<std::string, double>> hosts(int n) {
  std::vector<std::pair<std::string, double>> out;
  for (int i = 0; i < n; ++i) out.emplace_back("h" + std::to_string(i), 1e9 * (1 + i));
  return out;
}

bool same(const std::vector<HostTrace>& a, const std::vector<HostTrace>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].host != b[i].host || a[i].changes.size() != b[i].changes.size()) return false;
    for (std::size_t k = 0; k < a[i].changes.size(); ++k)
      if (a[i].changes[k].iteration != b[i].changes[k].iteration ||
          a[i].changes[k].multiplier != b[i].changes[k].multiplier)
        return false;
  }
  return true;
}

}  // namespace

TEST_CASE("random walk: deterministic per seed, within bounds, steps of the given size") {
  RandomWalkSpec spec;
  spec.seed = 7;
  spec.step = 0.1;
  spec.low = 0.6;
  spec.high = 1.3;
  const auto a = random_walk_traces(hosts(6), spec, 200);
  CHECK(same(a, random_walk_traces(hosts(6), spec, 200)));
  spec.seed = 8;
  CHECK(!same(a, random_walk_traces(hosts(6), spec, 200)));
  spec.seed = 7;
  for (const auto& t : a) {
    CHECK(!t.changes.empty());
    double prev = 1.0;
    int prev_it = 0;
    for (const auto& c : t.changes) {
      CHECK(c.multiplier >= 0.6);
      CHECK(c.multiplier <= 1.3);
      CHECK(c.iteration > prev_it);
      CHECK(c.iteration <= 200);
      const double r = c.multiplier / prev;
      // one step up or down, or a clamped part of it
      CHECK(r <= 1.1 + 1e-12);
      CHECK(r >= 1.0 / 1.1 - 1e-12);
      prev = c.multiplier;
      prev_it = c.iteration;
    }
    for (int it = 0; it <= 200; ++it) {
      CHECK(multiplier_at_iteration(t, it) >= 0.6);
      CHECK(multiplier_at_iteration(t, it) <= 1.3);
    }
  }
  // every: changes only at multiples of `every`; the first hosts' traces do not depend on later hosts
  spec.every = 5;
  for (const auto& t : random_walk_traces(hosts(3), spec, 100))
    for (const auto& c : t.changes) CHECK(c.iteration % 5 == 0);
  const auto more = random_walk_traces(hosts(4), spec, 100);
  CHECK(same(random_walk_traces(hosts(3), spec, 100), {more.begin(), more.begin() + 3}));
  // 1 outside [low, high]: clamped at iteration 0
  spec.low = 0.2;
  spec.high = 0.5;
  for (const auto& t : random_walk_traces(hosts(2), spec, 20)) {
    REQUIRE(!t.changes.empty());
    CHECK(t.changes[0].iteration == 0);
    CHECK(t.changes[0].multiplier == 0.5);
  }
}

TEST_CASE("on-off: deterministic per seed, two levels, mean durations close to the given means") {
  OnOffSpec spec;
  spec.seed = 3;
  spec.available = 12.0;
  spec.loaded = 4.0;
  spec.load_factor = 0.25;
  const auto a = on_off_traces(hosts(5), spec, 300);
  CHECK(same(a, on_off_traces(hosts(5), spec, 300)));
  spec.seed = 4;
  CHECK(!same(a, on_off_traces(hosts(5), spec, 300)));
  for (const auto& t : a)
    for (const auto& c : t.changes) CHECK((c.multiplier == 1.0 || c.multiplier == 0.25));

  // Over many seeded samples, complete periods (between two switches) average the given means.
  long loaded_total = 0;
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    spec.seed = seed;
    double on_sum = 0, off_sum = 0;
    long on_n = 0, off_n = 0, loaded_hosts = 0;
    const auto traces = on_off_traces(hosts(200), spec, 2000);
    for (const auto& t : traces) {
      if (!t.changes.empty() && t.changes[0].iteration == 0) ++loaded_hosts;
      for (std::size_t k = 0; k + 1 < t.changes.size(); ++k) {
        if (t.changes[k].iteration == 0) continue;  // the first period started before iteration 0
        const double d = t.changes[k + 1].iteration - t.changes[k].iteration;
        if (t.changes[k].multiplier == 1.0) { on_sum += d; ++on_n; }
        else { off_sum += d; ++off_n; }
      }
    }
    REQUIRE(on_n > 1000);
    REQUIRE(off_n > 1000);
    CHECK(on_sum / static_cast<double>(on_n) == doctest::Approx(12.0).epsilon(0.05));
    CHECK(off_sum / static_cast<double>(off_n) == doctest::Approx(4.0).epsilon(0.05));
    // Stationary start: loaded with probability 4 / 16. Binomial(200, 0.25): 50 +- 6.1, so
    // [30, 70] is more than 3 standard deviations each way; the three seeds together (600
    // hosts, 150 +- 10.6) within [118, 182].
    CHECK(loaded_hosts >= 30);
    CHECK(loaded_hosts <= 70);
    loaded_total += loaded_hosts;
  }
  CHECK(loaded_total >= 118);
  CHECK(loaded_total <= 182);
  // means of 1: a switch every iteration
  spec.available = 1.0;
  spec.loaded = 1.0;
  for (const auto& t : on_off_traces(hosts(2), spec, 10)) CHECK(t.changes.size() >= 10);
}

static const double kPi = std::acos(-1.0);

// On/off load whose periods follow a law of their own (Pareto: heavy-tailed, as desktop-grid
// availability is measured; Weibull; hyperexponential, whose `cv` the caller sets) with the given
// means.
static OnOffSpec renewal_spec(OnOffDurations durations, double available, double loaded, double shape,
                              std::uint64_t seed) {
  OnOffSpec spec;
  spec.durations = durations;
  spec.available = available;
  spec.loaded = loaded;
  spec.shape = shape;
  spec.seed = seed;
  return spec;
}

// Every change of an on/off trace switches between the two levels (1 and 0.25).
static void check_two_levels(const std::vector<HostTrace>& traces) {
  for (const auto& t : traces)
    for (std::size_t k = 0; k < t.changes.size(); ++k) {
      CHECK((t.changes[k].multiplier == 1.0 || t.changes[k].multiplier == 0.25));
      if (k > 0) CHECK(t.changes[k].multiplier != t.changes[k - 1].multiplier);  // a change is a switch
    }
}

// The loaded share of 4000 hosts at iterations 0 to 400 is `share` (a standard deviation of
// about 0.007): an equilibrium start, where a first period drawn whole (not its residual) would
// leave the early iterations apart.
static void check_equilibrium(const OnOffSpec& spec, double share) {
  const auto traces = on_off_traces(hosts(4000), spec, 400);
  for (int at : {0, 1, 2, 3, 5, 10, 40, 400}) {
    long loaded = 0;
    for (const auto& t : traces) loaded += multiplier_at_iteration(t, at) != 1.0;
    CHECK_MESSAGE(std::abs(static_cast<double>(loaded) / 4000.0 - share) < 0.03, "iteration ", at);
  }
}

// The share of complete available periods longer than `longer` iterations, over 300 hosts and
// 20000 iterations (at least `least` periods).
static double available_tail(const OnOffSpec& spec, int longer, long least) {
  long periods = 0, long_ones = 0;
  for (const auto& t : on_off_traces(hosts(300), spec, 20000))
    for (std::size_t k = 0; k + 1 < t.changes.size(); ++k) {
      if (t.changes[k].iteration == 0 || t.changes[k].multiplier != 1.0) continue;
      ++periods;
      long_ones += t.changes[k + 1].iteration - t.changes[k].iteration > longer;
    }
  REQUIRE(periods > least);
  return static_cast<double>(long_ones) / static_cast<double>(periods);
}

TEST_CASE("on-off with Pareto durations: deterministic, two levels, the given means, a Pareto tail") {
  OnOffSpec spec = renewal_spec(OnOffDurations::pareto, 12.0, 4.0, 2.5, 3);  // shape 2.5: a finite variance, for the means below
  const auto a = on_off_traces(hosts(5), spec, 300);
  CHECK(same(a, on_off_traces(hosts(5), spec, 300)));
  spec.seed = 4;
  CHECK(!same(a, on_off_traces(hosts(5), spec, 300)));
  check_two_levels(a);
  // Complete periods average the given means (scales 7.2 and 2.4 iterations: none passes unseen).
  double on_sum = 0, off_sum = 0;
  long on_n = 0, off_n = 0;
  for (const auto& t : on_off_traces(hosts(300), spec, 4000)) {
    for (std::size_t k = 0; k + 1 < t.changes.size(); ++k) {
      if (t.changes[k].iteration == 0) continue;
      const double d = t.changes[k + 1].iteration - t.changes[k].iteration;
      if (t.changes[k].multiplier == 1.0) { on_sum += d; ++on_n; }
      else { off_sum += d; ++off_n; }
    }
  }
  REQUIRE(on_n > 10000);
  CHECK(on_sum / static_cast<double>(on_n) == doctest::Approx(12.0).epsilon(0.05));
  CHECK(off_sum / static_cast<double>(off_n) == doctest::Approx(4.0).epsilon(0.05));

  // The tail: with shape 1.5, P(D > 10 mean) = ((shape - 1) / (10 shape))^shape = 0.0061, against
  // 3.5e-5 for geometric durations of the same mean.
  spec.shape = 1.5;
  spec.available = 20.0;
  spec.loaded = 5.0;
  const double tail = available_tail(spec, 200, 100000);
  const double pareto_tail = std::pow(1.0 / 30.0, 1.5);
  CHECK(tail > 0.75 * pareto_tail);
  CHECK(tail < 1.25 * pareto_tail);
  CHECK(tail > 50 * std::pow(1.0 - 1.0 / 20.0, 200));
}

// An equilibrium start: the loaded share is loaded / (available + loaded) at every iteration.
TEST_CASE("on-off with Pareto durations starts in equilibrium") {
  OnOffSpec spec = renewal_spec(OnOffDurations::pareto, 20.0, 5.0, 1.5, 1);
  for (std::uint64_t seed : {1u, 2u}) {
    spec.seed = seed;
    check_equilibrium(spec, 0.2);
  }
  // The residual life: below the scale with probability (shape - 1) / shape, and of mean
  // E[D^2] / (2 E[D]) (shape 4, mean 12: scale 9, E[D^2] = 162, so 6.75); the durations of mean 12.
  double residual = 0, whole = 0;
  long below = 0;
  const int n = 400000;
  std::mt19937_64 rng(9);
  for (int k = 0; k < n; ++k) {
    const double r = pareto_residual(12.0, 4.0, uniform_unit(rng));
    residual += r;
    below += r < 9.0;
    whole += pareto_duration(12.0, 4.0, uniform_unit(rng));
  }
  CHECK(residual / n == doctest::Approx(6.75).epsilon(0.02));
  CHECK(static_cast<double>(below) / n == doctest::Approx(0.75).epsilon(0.01));
  CHECK(whole / n == doctest::Approx(12.0).epsilon(0.01));
}

// Weibull durations (availability fits, Nurmi, Brevik and Wolski 2005): the sampling laws, then
// the traces. Shape 0.5: a falling hazard, the mean 2 scales (Gamma(3) = 2), P(D > x) =
// exp(-sqrt(x / scale)), E[D^2] = scale^2 Gamma(5) = 24 scale^2, so a residual life of mean
// E[D^2] / (2 E[D]) = 6 scale; shape 2: mean scale sqrt(pi) / 2.
TEST_CASE("Weibull durations: the mean, the tail and the residual life of the law") {
  std::mt19937_64 rng(11);
  const int n = 400000;
  for (const double shape : {0.5, 2.0}) {
    const double mean = 12.0;
    const double scale = shape == 0.5 ? 6.0 : 2.0 * mean / std::sqrt(kPi);
    double whole = 0, residual = 0;
    long beyond = 0;
    for (int k = 0; k < n; ++k) {
      const double d = weibull_duration(mean, shape, uniform_unit(rng));
      whole += d;
      beyond += d > 2.0 * mean;
      residual += weibull_residual(mean, shape, uniform_unit(rng));
    }
    CAPTURE(shape);
    CHECK(whole / n == doctest::Approx(mean).epsilon(shape == 0.5 ? 0.03 : 0.01));
    const double tail = std::exp(-std::pow(2.0 * mean / scale, shape));  // 0.135 and 0.043
    CHECK(static_cast<double>(beyond) / n == doctest::Approx(tail).epsilon(0.03));
    // E[D^2] / (2 E[D]): 6 scale = 36 at shape 0.5; scale^2 / (2 mean) at shape 2 (E[D^2] = scale^2).
    const double expected = shape == 0.5 ? 6.0 * scale : scale * scale / (2.0 * mean);
    CHECK(residual / n == doctest::Approx(expected).epsilon(0.03));
  }
  CHECK(weibull_residual(12.0, 0.5, 0.0) == 0.0);
}

TEST_CASE("on-off with Weibull durations: deterministic, alternating two levels, in equilibrium, the law's tail") {
  OnOffSpec spec = renewal_spec(OnOffDurations::weibull, 20.0, 5.0, 0.5, 3);
  const auto a = on_off_traces(hosts(5), spec, 300);
  CHECK(same(a, on_off_traces(hosts(5), spec, 300)));
  CHECK(!same(a, on_off_traces(hosts(5), renewal_spec(OnOffDurations::weibull, 20.0, 5.0, 0.5, 4), 300)));
  // The law is used, not Pareto's.
  CHECK(!same(a, on_off_traces(hosts(5), renewal_spec(OnOffDurations::pareto, 20.0, 5.0, 1.5, 3), 300)));
  check_two_levels(a);
  check_equilibrium(spec, 5.0 / 25.0);
  // The tail, with shape 2 (a rising hazard: few periods shorter than an iteration, so the grid
  // shows the law): P(D > 40) = exp(-(40 / scale)^2) = 0.043 for a mean of 20 (scale 22.6), lighter
  // than geometric periods of the same mean (0.95^40 = 0.129).
  spec.shape = 2.0;
  spec.loaded = 10.0;
  const double scale = 20.0 / std::tgamma(1.5);
  CHECK(available_tail(spec, 40, 100000) == doctest::Approx(std::exp(-std::pow(40.0 / scale, 2.0))).epsilon(0.08));
}

// Hyperexponential durations (two phases, balanced means): at cv 2 the first phase has
// probability p = (1 + sqrt(3/5)) / 2 = 0.887 and mean 12 / (2 p) = 6.76, the second 53.1; E[D^2] =
// (cv^2 + 1) mean^2 = 720, so a residual life of mean 720 / 24 = 30; P(D > x) = p exp(-x / m1) +
// (1 - p) exp(-x / m2). At cv 1, exponential of mean 12.
TEST_CASE("hyperexponential durations: the mean, the variation, the tail and the residual life of the law") {
  std::mt19937_64 rng(12);
  const int n = 400000;
  for (const double cv : {1.0, 2.0, 4.0}) {
    const double mean = 12.0;
    const double p = 0.5 * (1.0 + std::sqrt((cv * cv - 1.0) / (cv * cv + 1.0)));
    const double m1 = mean / (2.0 * p), m2 = mean / (2.0 * (1.0 - p));
    double sum = 0, square = 0, residual = 0;
    long beyond = 0;
    for (int k = 0; k < n; ++k) {
      const double d = hyperexponential_duration(mean, cv, uniform_unit(rng));
      sum += d;
      square += d * d;
      beyond += d > 3.0 * mean;
      residual += hyperexponential_residual(mean, cv, uniform_unit(rng));
    }
    CAPTURE(cv);
    CHECK(sum / n == doctest::Approx(mean).epsilon(0.02));
    CHECK(square / n == doctest::Approx((cv * cv + 1.0) * mean * mean).epsilon(cv > 3 ? 0.1 : 0.04));
    const double tail = p * std::exp(-3.0 * mean / m1) + (1.0 - p) * std::exp(-3.0 * mean / m2);  // 0.050, 0.061, 0.047
    CHECK(static_cast<double>(beyond) / n == doctest::Approx(tail).epsilon(0.03));
    CHECK(residual / n == doctest::Approx((cv * cv + 1.0) * mean / 2.0).epsilon(0.03));
  }
}

TEST_CASE("on-off with hyperexponential durations: deterministic, alternating two levels, in equilibrium, the law's tail") {
  OnOffSpec spec = renewal_spec(OnOffDurations::hyperexponential, 40.0, 20.0, 0.0, 3);
  spec.cv = 2.0;
  const auto a = on_off_traces(hosts(5), spec, 300);
  CHECK(same(a, on_off_traces(hosts(5), spec, 300)));
  OnOffSpec other = spec;
  other.seed = 4;
  CHECK(!same(a, on_off_traces(hosts(5), other, 300)));
  other = spec;
  other.cv = 1.5;
  CHECK(!same(a, on_off_traces(hosts(5), other, 300)));  // cv is read
  check_two_levels(a);
  check_equilibrium(spec, 20.0 / 60.0);
  // The tail of the available periods: P(D > 200) = 0.887 exp(-200 / 22.5) + 0.113 exp(-200 / 177)
  // = 0.037, six times that of geometric periods of the same mean (0.975^200 = 0.0063). On the
  // iteration grid a loaded period shorter than an iteration may pass unseen (about 4% of them
  // here) and join two available ones, which lengthens the tail a little: within 15%.
  const double p = 0.5 * (1.0 + std::sqrt(3.0 / 5.0));
  const double tail = p * std::exp(-200.0 / (20.0 / p)) + (1.0 - p) * std::exp(-200.0 / (20.0 / (1.0 - p)));
  CHECK(available_tail(spec, 200, 50000) == doctest::Approx(tail).epsilon(0.15));
  CHECK(tail > 5.0 * std::pow(1.0 - 1.0 / 40.0, 200));
}

// Daily cycle with noise: a day/night cosine per host plus AR(1) noise, clipped to [low, high].
static DailySpec daily_spec(double period, double low, double high, double noise, std::uint64_t seed) {
  DailySpec spec;
  spec.period = period;
  spec.low = low;
  spec.high = high;
  spec.noise = noise;
  spec.seed = seed;
  return spec;
}

// E[clamp(X, a, b)] for X ~ N(c, s^2): what a clipped noisy cycle averages to at one phase.
static double clamped_normal_mean(double c, double s, double a, double b) {
  const auto cdf = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  const auto pdf = [](double x) { return std::exp(-0.5 * x * x) / std::sqrt(2.0 * kPi); };
  const double al = (a - c) / s, be = (b - c) / s;
  return a * cdf(al) + b * (1.0 - cdf(be)) + c * (cdf(be) - cdf(al)) + s * (pdf(al) - pdf(be));
}

TEST_CASE("daily cycle: deterministic per seed, within bounds, changes every `every` iterations") {
  DailySpec spec = daily_spec(24.0, 0.4, 1.1, 0.08, 7);
  const auto a = daily_traces(hosts(6), spec, 200);
  CHECK(same(a, daily_traces(hosts(6), spec, 200)));
  spec.seed = 8;
  CHECK(!same(a, daily_traces(hosts(6), spec, 200)));
  spec.seed = 7;
  for (const auto& t : a) {
    REQUIRE(t.changes.size() > 100);  // the noise moves it every iteration
    int prev = -1;
    for (const auto& c : t.changes) {
      CHECK(c.multiplier >= 0.4);
      CHECK(c.multiplier <= 1.1);
      CHECK(c.iteration > prev);
      CHECK(c.iteration <= 200);
      prev = c.iteration;
    }
  }
  // every: changes only at its multiples; the first hosts' traces do not depend on later hosts
  spec.every = 5;
  for (const auto& t : daily_traces(hosts(3), spec, 100))
    for (const auto& c : t.changes) CHECK(c.iteration % 5 == 0);
  const auto more = daily_traces(hosts(4), spec, 100);
  CHECK(same(daily_traces(hosts(3), spec, 100), {more.begin(), more.begin() + 3}));
  // Without noise and with a given phase: the cosine itself, the same on every host.
  spec = daily_spec(10.0, 0.5, 1.0, 0.0, 3);
  spec.random_phase = false;
  spec.phase = 2.5;
  for (const auto& t : daily_traces(hosts(3), spec, 30))
    for (int k = 0; k <= 30; ++k)
      CHECK(multiplier_at_iteration(t, k) == doctest::Approx(0.75 + 0.25 * std::cos(2 * kPi * (k + 2.5) / 10)));
}

TEST_CASE("daily cycle: the mean over a period is the midpoint and the period shows in the autocorrelation") {
  // Noiseless: any period's mean is exactly the midpoint, whatever the phase.
  DailySpec spec = daily_spec(24.0, 0.3, 1.0, 0.0, 5);
  for (const auto& t : daily_traces(hosts(20), spec, 48)) {
    double sum = 0;
    for (int k = 7; k < 7 + 24; ++k) sum += multiplier_at_iteration(t, k);
    CHECK(sum / 24 == doctest::Approx(0.65).epsilon(1e-12));
  }
  // Noisy and clipped (symmetric about the midpoint): over 500 hosts and 4 periods, 0.65 within
  // 0.004 (the noise's mean over 96 correlated samples of one host has a standard deviation of
  // 0.06 sqrt(3 / 96) = 0.011, over 500 hosts 0.0005).
  spec.noise = 0.06;
  for (std::uint64_t seed : {1u, 2u}) {
    spec.seed = seed;
    double sum = 0;
    long n = 0;
    const auto traces = daily_traces(hosts(500), spec, 200);
    for (const auto& t : traces)
      for (int k = 1; k <= 96; ++k, ++n) sum += multiplier_at_iteration(t, k);
    CHECK(std::abs(sum / static_cast<double>(n) - 0.65) < 0.004);
    // Random phases: at any one iteration, the hosts average the midpoint too (at a shared phase
    // 0 they would all be near their idlest, 1.0, at iteration 0).
    for (int at : {0, 6, 13}) {
      double across = 0;
      for (const auto& t : traces) across += multiplier_at_iteration(t, at);
      CHECK_MESSAGE(std::abs(across / 500 - 0.65) < 0.03, "iteration ", at);
    }
    // The period: autocorrelation of each host's series near 1 at lag 24 (a day) and near -1 at
    // lag 12 (day against night); signal variance 0.35^2 / 2 = 0.061 against noise 0.0036.
    double at_day = 0, at_half = 0;
    for (const auto& t : traces) {
      std::vector<double> x;
      for (int k = 1; k <= 200; ++k) x.push_back(multiplier_at_iteration(t, k));
      double mean = 0;
      for (double v : x) mean += v;
      mean /= static_cast<double>(x.size());
      const auto acf = [&](std::size_t lag) {
        double num = 0, den = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
          den += (x[i] - mean) * (x[i] - mean);
          if (i + lag < x.size()) num += (x[i] - mean) * (x[i + lag] - mean);
        }
        return num / den * static_cast<double>(x.size()) / static_cast<double>(x.size() - lag);
      };
      at_day += acf(24);
      at_half += acf(12);
    }
    CHECK(at_day / 500 > 0.85);
    CHECK(at_half / 500 < -0.85);
  }
}

TEST_CASE("daily cycle: each phase's mean follows the clipped cosine and the noise has the given law") {
  // A shared phase (0) over 3000 hosts: the mean at iteration k is E[clamp(cycle(k) + e)], e ~
  // N(0, 0.05^2), within 0.004 (the mean of 3000 noise samples: sd 0.0009); at the peaks the
  // clipping lowers it by 0.05 / sqrt(2 pi) = 0.02.
  DailySpec spec = daily_spec(20.0, 0.5, 1.0, 0.05, 11);
  spec.random_phase = false;
  const auto traces = daily_traces(hosts(3000), spec, 40);
  for (int k = 0; k <= 40; k += 1) {
    double sum = 0;
    for (const auto& t : traces) sum += multiplier_at_iteration(t, k);
    const double want = clamped_normal_mean(daily_cycle(spec, 0.0, k), 0.05, 0.5, 1.0);
    CHECK_MESSAGE(std::abs(sum / 3000 - want) < 0.004, "iteration ", k, ": ", sum / 3000, " vs ", want);
  }
  CHECK(clamped_normal_mean(1.0, 0.05, 0.5, 1.0) == doctest::Approx(1.0 - 0.05 / std::sqrt(2 * kPi)));

  // The noise: where the cycle is within amp / 2 of the midpoint (4 noise deviations from the
  // bounds, so that clipping is negligible), the residual has standard deviation `noise` and
  // successive samples correlate by `correlation`.
  for (double rho : {0.0, 0.5, 0.8}) {
    spec = daily_spec(24.0, 0.2, 1.0, 0.05, 4);
    spec.random_phase = false;
    spec.correlation = rho;
    double ss = 0, cross = 0, mean = 0;
    long n = 0, pairs = 0;
    for (const auto& t : daily_traces(hosts(400), spec, 480)) {
      for (int k = 1; k < 480; ++k) {
        const double c0 = daily_cycle(spec, 0.0, k), c1 = daily_cycle(spec, 0.0, k + 1);
        if (std::abs(c0 - 0.6) > 0.2) continue;
        const double r0 = multiplier_at_iteration(t, k) - c0;
        ss += r0 * r0;
        mean += r0;
        ++n;
        if (std::abs(c1 - 0.6) <= 0.2) {
          cross += r0 * (multiplier_at_iteration(t, k + 1) - c1);
          ++pairs;
        }
      }
    }
    REQUIRE(n > 50000);
    CHECK_MESSAGE(std::abs(mean / static_cast<double>(n)) < 0.002, "rho ", rho);
    CHECK_MESSAGE(std::abs(std::sqrt(ss / static_cast<double>(n)) / 0.05 - 1.0) < 0.03, "rho ", rho);
    CHECK_MESSAGE(std::abs(cross / static_cast<double>(pairs) / (ss / static_cast<double>(n)) - rho) < 0.03, "rho ", rho);
  }
}

TEST_CASE("bad family parameters are rejected") {
  RandomWalkSpec rw;
  rw.low = 2.0;
  rw.high = 1.0;
  CHECK_THROWS_AS(validate(rw, "x"), InputError);
  rw = RandomWalkSpec{};
  rw.step = 0.0;
  CHECK_THROWS_AS(validate(rw, "x"), InputError);
  rw = RandomWalkSpec{};
  rw.every = 0;
  CHECK_THROWS_AS(validate(rw, "x"), InputError);
  OnOffSpec oo;
  oo.available = 0.5;
  CHECK_THROWS_AS(validate(oo, "x"), InputError);
  oo = OnOffSpec{};
  oo.load_factor = 0.0;
  CHECK_THROWS_AS(validate(oo, "x"), InputError);
  oo = OnOffSpec{};
  oo.durations = OnOffDurations::pareto;
  oo.shape = 1.0;  // an infinite mean
  CHECK_THROWS_AS(validate(oo, "x"), InputError);
  oo.shape = 1.2;
  CHECK_NOTHROW(validate(oo, "x"));
  oo.durations = OnOffDurations::weibull;
  oo.shape = 0.005;  // Gamma(1 + 1 / shape) overflows
  CHECK_THROWS_AS(validate(oo, "x"), InputError);
  oo.shape = 0.3;
  CHECK_NOTHROW(validate(oo, "x"));
  oo.durations = OnOffDurations::hyperexponential;
  oo.cv = 0.9;  // below exponential's variation: not a hyperexponential
  CHECK_THROWS_AS(validate(oo, "x"), InputError);
  oo.cv = 1.0;
  CHECK_NOTHROW(validate(oo, "x"));
  DailySpec d;
  CHECK_NOTHROW(validate(d, "x"));
  d.period = 1.5;  // aliased
  CHECK_THROWS_AS(validate(d, "x"), InputError);
  d = DailySpec{};
  d.low = 1.2;  // above high
  CHECK_THROWS_AS(validate(d, "x"), InputError);
  d = DailySpec{};
  d.low = 0.0;
  CHECK_THROWS_AS(validate(d, "x"), InputError);
  d = DailySpec{};
  d.noise = -0.1;
  CHECK_THROWS_AS(validate(d, "x"), InputError);
  d = DailySpec{};
  d.correlation = 1.0;
  CHECK_THROWS_AS(validate(d, "x"), InputError);
  d = DailySpec{};
  d.every = 0;
  CHECK_THROWS_AS(validate(d, "x"), InputError);
}

TEST_CASE("the traces sources parse and round-trip through the canonical JSON, which states the placement") {
  // Every source that speaks in iterations writes its placement, the default one included: a
  // canonical form that names no placement is one whose changes fall at nominal times, so a resumed
  // sweep reruns such runs rather than keeping results of another placement.
  const auto old = io::run_config_to_json(io::parse_run_config(nlohmann::json::parse(R"({"ratio": 1, "traces": {"seed": 4}})"), "t"));
  CHECK(old["traces"] == nlohmann::json::parse(
                             R"({"seed": 4, "source": "measured", "windows": [[20, 40], [60, 80]], "placement": "iteration"})"));
  for (const char* text : {
           R"({"ratio": 1, "traces": {"seed": 5, "source": "random-walk", "step": 0.2, "low": 0.3, "high": 1.0, "every": 2, "placement": "iteration"}})",
           R"({"ratio": 1, "traces": {"seed": 6, "source": "on-off", "available": 8, "loaded": 3, "load_factor": 0.5, "placement": "nominal-time"}})",
           R"({"ratio": 1, "traces": {"seed": 6, "source": "on-off", "available": 8, "loaded": 3, "load_factor": 0.5, "durations": "pareto", "shape": 1.5, "placement": "iteration"}})",
           R"({"ratio": 1, "traces": {"seed": 6, "source": "on-off", "available": 8, "loaded": 3, "load_factor": 0.5, "durations": "weibull", "shape": 0.6, "placement": "iteration"}})",
           R"({"ratio": 1, "traces": {"seed": 6, "source": "on-off", "available": 8, "loaded": 3, "load_factor": 0.5, "durations": "hyperexponential", "cv": 2.5, "placement": "iteration"}})",
           R"({"ratio": 1, "traces": {"seed": 7, "source": "factor", "factor": [0.5, 1.5], "windows": [[2, 4]], "placement": "nominal-time"}})",
           R"({"ratio": 1, "traces": {"seed": 8, "source": "daily", "period": 24, "low": 0.4, "high": 1.0, "noise": 0.05, "correlation": 0.5, "phase": "random", "every": 2, "placement": "iteration"}})",
           R"({"ratio": 1, "traces": {"seed": 9, "source": "daily", "period": 30.5, "low": 0.5, "high": 0.9, "noise": 0.0, "correlation": 0.0, "phase": 6, "every": 1, "placement": "nominal-time"}})",
           R"({"ratio": 1, "traces": {"source": "files", "profiles": {"a": "a.profile", "b": "b.profile"}}})",
           R"({"ratio": 1, "traces": {"source": "files", "csv": "speeds.csv", "placement": "iteration"}})"}) {
    const auto cfg = io::parse_run_config(nlohmann::json::parse(text), "t");
    CHECK((cfg.traces.source == TraceSource::factor) == (std::string(text).find(R"("source": "factor")") != std::string::npos));
    const auto j = io::run_config_to_json(cfg);
    CHECK(io::run_config_to_json(io::parse_run_config(j, "t")) == j);
    CHECK(j["traces"] == nlohmann::json::parse(text)["traces"]);
    const auto& tr = j["traces"];
    if (tr["source"] == "random-walk") CHECK(cfg.traces.random_walk.every == 2);
    if (tr["source"] == "on-off") CHECK(cfg.traces.on_off.load_factor == 0.5);
    if (tr["source"] == "daily") CHECK(cfg.traces.daily.random_phase == tr["phase"].is_string());
    if (tr.contains("placement"))
      CHECK(cfg.traces.placement == (tr["placement"] == "iteration" ? TracePlacement::iteration : TracePlacement::nominal_time));
  }
  for (const char* bad : {
           R"({"ratio": 1, "traces": {"source": "bogus"}})",
           R"({"ratio": 1, "traces": {"source": "files"}})",
           R"({"ratio": 1, "traces": {"source": "files", "csv": "a.csv", "profiles": {"a": "x"}}})",
           R"({"ratio": 1, "traces": {"source": "files", "csv": "a.csv", "seed": 3}})",
           R"({"ratio": 1, "traces": {"source": "random-walk", "windows": [[1, 2]]}})",
           R"({"ratio": 1, "traces": {"source": "random-walk", "low": 0}})",
           R"({"ratio": 1, "traces": {"source": "on-off", "loaded": 0.5}})",
           R"({"ratio": 1, "traces": {"source": "on-off", "step": 0.1}})",
           R"({"ratio": 1, "traces": {"source": "on-off", "shape": 1.5}})",
           R"({"ratio": 1, "traces": {"source": "on-off", "durations": "pareto", "shape": 1}})",
           R"({"ratio": 1, "traces": {"source": "on-off", "durations": "lognormal"}})",
           R"({"ratio": 1, "traces": {"source": "on-off", "durations": "weibull"}})",
           R"({"ratio": 1, "traces": {"source": "on-off", "durations": "weibull", "shape": 0}})",
           R"({"ratio": 1, "traces": {"source": "on-off", "durations": "hyperexponential"}})",
           R"({"ratio": 1, "traces": {"source": "on-off", "durations": "hyperexponential", "cv": 0.5}})",
           R"({"ratio": 1, "traces": {"source": "on-off", "durations": "hyperexponential", "cv": 2, "shape": 1.5}})",
           R"({"ratio": 1, "traces": {"source": "on-off", "durations": "weibull", "shape": 0.5, "cv": 2}})",
           R"({"ratio": 1, "traces": {"source": "on-off", "placement": "time"}})",
           R"({"ratio": 1, "traces": {"source": "daily", "period": 1}})",
           R"({"ratio": 1, "traces": {"source": "daily", "low": 2}})",
           R"({"ratio": 1, "traces": {"source": "daily", "noise": -1}})",
           R"({"ratio": 1, "traces": {"source": "daily", "correlation": 1}})",
           R"({"ratio": 1, "traces": {"source": "daily", "phase": "east"}})",
           R"({"ratio": 1, "traces": {"source": "daily", "every": 0}})",
           R"({"ratio": 1, "traces": {"source": "daily", "step": 0.1}})",
           R"({"ratio": 1, "traces": {"source": "measured", "placement": 1}})",
           R"({"ratio": 1, "traces": {"source": "files", "profiles": {"a": "a.profile"}, "placement": "iteration"}})"})
    CHECK_THROWS_AS(io::parse_run_config(nlohmann::json::parse(bad), "t"), InputError);
}
