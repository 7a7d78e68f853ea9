// Balanced targets (src/planners/redistribution/load_balance.hpp): columns in proportion to the
// speeds with the optimal iteration time (against a brute force over every composition), refused
// requests; balances within a speed measurement's error: kept whatever speeds within the error
// are measured, rebalanced as the exact speeds would be, the error covering the clock's rounding.
#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <functional>
#include <random>
#include <stdexcept>

#include "model/errors.hpp"
#include "planners/redistribution/load_balance.hpp"

using namespace ringsim;

namespace {

double iteration_time(const std::vector<Count>& load, const std::vector<double>& speeds) {
  double t = 0.0;
  for (std::size_t i = 0; i < load.size(); ++i) t = std::max(t, static_cast<double>(load[i]) / speeds[i]);
  return t;
}

// Every composition of `total` into n parts >= 1.
double brute_force_best(const std::vector<double>& speeds, Count total) {
  const std::size_t n = speeds.size();
  std::vector<Count> load(n, 1);
  double best = 1e300;
  std::function<void(std::size_t, Count)> rec = [&](std::size_t i, Count left) {
    if (i + 1 == n) {
      load[i] = left;
      best = std::min(best, iteration_time(load, speeds));
      return;
    }
    for (Count k = 1; k <= left - static_cast<Count>(n - i - 1); ++k) {
      load[i] = k;
      rec(i + 1, left - k);
    }
  };
  rec(0, total);
  return best;
}

// Every composition of `total` into n parts >= 1, each passed to `visit`.
void each_composition(std::size_t n, Count total, const std::function<void(const std::vector<Count>&)>& visit) {
  std::vector<Count> load(n, 1);
  std::function<void(std::size_t, Count)> rec = [&](std::size_t i, Count left) {
    if (i + 1 == n) {
      load[i] = left;
      visit(load);
      return;
    }
    for (Count k = 1; k <= left - static_cast<Count>(n - i - 1); ++k) {
      load[i] = k;
      rec(i + 1, left - k);
    }
  };
  rec(0, total);
}

// Speeds drawn from a few values, so that members often share one and balances often tie.
std::vector<double> tying_speeds(std::mt19937_64& rng, std::size_t n) {
  static const double kinds[] = {1.7e7, 3.1e7, 6.2e7, 1.38e8};
  std::vector<double> speeds(n);
  for (auto& s : speeds) s = kinds[std::uniform_int_distribution<int>(0, 3)(rng)];
  return speeds;
}

}  // namespace

TEST_CASE("balanced targets: sum, at least one column each, optimal iteration time (brute force)") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t n = 1 + trial % 5;
    std::vector<double> speeds(n);
    for (auto& s : speeds) s = std::uniform_real_distribution<double>(0.05, 10.0)(rng);
    if (trial % 7 == 0) speeds[0] = 1000.0;  // one fast processor: the others clamp to 1
    const Count total = static_cast<Count>(n) + static_cast<Count>(trial % 17);
    const auto load = redistribution::balanced_targets(speeds, total);
    REQUIRE(load.size() == n);
    Count sum = 0;
    for (Count l : load) { REQUIRE(l >= 1); sum += l; }
    REQUIRE(sum == total);
    REQUIRE(iteration_time(load, speeds) == doctest::Approx(brute_force_best(speeds, total)));
  }
}

TEST_CASE("balanced targets are proportional to speeds when they divide evenly") {
  CHECK(redistribution::balanced_targets({1, 2, 3, 4}, 1000) == std::vector<Count>{100, 200, 300, 400});
  CHECK(redistribution::balanced_targets({5, 5}, 7) == std::vector<Count>{4, 3});
}

TEST_CASE("balanced targets reject impossible requests") {
  CHECK_THROWS_AS(redistribution::balanced_targets({1, 2, 3}, 2), InputError);
  CHECK_THROWS_AS(redistribution::balanced_targets({1, 0}, 10), InputError);
  CHECK_THROWS_AS(redistribution::balanced_targets({}, 10), InputError);
}

TEST_CASE("balanced targets and the loads that tie with them are balances for their speeds, exactly") {
  std::mt19937_64 rng(12);
  int ties = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    const std::size_t n = 1 + static_cast<std::size_t>(trial % 9);
    std::vector<double> speeds = trial % 2 ? tying_speeds(rng, n) : std::vector<double>(n);
    if (trial % 2 == 0)
      for (auto& s : speeds) s = std::uniform_real_distribution<double>(0.05, 10.0)(rng);
    const Count total = static_cast<Count>(n) + std::uniform_int_distribution<Count>(0, 2000)(rng);
    const auto load = redistribution::balanced_targets(speeds, total);
    REQUIRE(redistribution::balanced_targets(speeds, total, 0.0) == load);
    REQUIRE(redistribution::is_balance_within(load, speeds, 0.0));
    REQUIRE(redistribution::rebalanced_targets(load, speeds, 0.0) == load);
    // A column whose time on its member is the time it would take on another (exactly) can sit on
    // either: the loads with it moved are as good, and a point keeps them.
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        if (i == j || load[i] < 2) continue;
        if (static_cast<double>(load[i]) / speeds[i] != static_cast<double>(load[j] + 1) / speeds[j]) continue;
        std::vector<Count> tied = load;
        --tied[i];
        ++tied[j];
        ++ties;
        REQUIRE(iteration_time(tied, speeds) == iteration_time(load, speeds));
        REQUIRE(redistribution::is_balance_within(tied, speeds, 0.0));
        REQUIRE(redistribution::rebalanced_targets(tied, speeds, 0.0) == tied);
      }
  }
  CHECK(ties > 100);
}

TEST_CASE("loads kept within an error are within that error of the best iteration time (brute force)") {
  std::mt19937_64 rng(13);
  int kept_total[2] = {0, 0};  // loads kept other than the balance, with exact speeds and with errors
  const double errors[] = {0.0, 1e-12, 1e-3, 0.05};
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t n = 2 + static_cast<std::size_t>(trial % 4);
    std::vector<double> speeds = trial % 2 ? tying_speeds(rng, n) : std::vector<double>(n);
    if (trial % 2 == 0)
      for (auto& s : speeds) s = std::uniform_real_distribution<double>(0.05, 10.0)(rng);
    const Count total = static_cast<Count>(n) + static_cast<Count>(trial % 11);
    const double best = brute_force_best(speeds, total);
    for (double e : errors) {
      const double resolved = best * (1.0 + e) / (1.0 - e) * (1.0 + 1e-12);  // what the error can hide
      int kept_other = 0;  // loads kept that are not the balance itself
      // The balance within the error is one, and within the error of the best.
      const auto balance = redistribution::balanced_targets(speeds, total, e);
      REQUIRE(redistribution::is_balance_within(balance, speeds, e));
      REQUIRE(iteration_time(balance, speeds) <= resolved);
      each_composition(n, total, [&](const std::vector<Count>& load) {
        const auto targets = redistribution::rebalanced_targets(load, speeds, e);
        if (redistribution::is_balance_within(load, speeds, e)) {
          REQUIRE(targets == load);
          if (load != balance) ++kept_other;
          REQUIRE(iteration_time(load, speeds) <= resolved);
          if (e == 0.0) REQUIRE(iteration_time(load, speeds) == doctest::Approx(best));
        } else {
          REQUIRE(targets == balance);
        }
        // A move that gains more than the error can hide is never suppressed.
        if (iteration_time(load, speeds) > resolved) REQUIRE(targets != load);
      });
      kept_total[e > 0.0] += kept_other;
    }
  }
  // Exact ties (speeds of the list) keep other loads than the balance, and so do near ties.
  CHECK(kept_total[0] > 0);
  CHECK(kept_total[1] > kept_total[0]);
}

TEST_CASE("a balance of the true speeds is kept whatever speeds within the error are measured") {
  // The measured speeds s are the true ones s* up to a relative error e (s* in s (1 +- e)): loads
  // balanced for s* are a balance within e of s, whichever way ties broke.
  std::mt19937_64 rng(14);
  int would_have_moved = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const std::size_t n = 2 + static_cast<std::size_t>(trial % 31);
    const std::vector<double> truth = tying_speeds(rng, n);
    const Count total = static_cast<Count>(n) + std::uniform_int_distribution<Count>(0, 2000)(rng);
    const auto load = redistribution::balanced_targets(truth, total);
    const double e = trial % 3 == 0 ? 1e-3 : trial % 3 == 1 ? 1e-9 : 1e-14;
    std::vector<double> measured(n);
    for (std::size_t i = 0; i < n; ++i)
      measured[i] = truth[i] / (1.0 + std::uniform_real_distribution<double>(-e / 2, e / 2)(rng));
    REQUIRE(redistribution::is_balance_within(load, measured, e));
    REQUIRE(redistribution::rebalanced_targets(load, measured, e) == load);
    if (redistribution::balanced_targets(measured, total) != load) ++would_have_moved;
  }
  // The noise does flip balanced_targets: moving whenever it differs from the loads moved here.
  CHECK(would_have_moved > 100);
}

TEST_CASE("speeds measured around a tie balance as the exact speeds at the tie do") {
  // Exact speeds that tie (equal, or in ratios 2 and 31/17 that make k / s coincide) give their
  // tied columns to the lowest index; measured within a relative error e of them, the balance
  // within e gives the same loads, where the balance of the measured speeds alone follows the
  // noise.
  std::mt19937_64 rng(17);
  int noise_decided = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const std::size_t n = 2 + static_cast<std::size_t>(trial % 31);
    const std::vector<double> truth = tying_speeds(rng, n);
    const Count total = static_cast<Count>(n) + std::uniform_int_distribution<Count>(0, 2000)(rng);
    const double e = trial % 2 ? 1e-12 : 1e-9;
    std::vector<double> measured(n);
    for (std::size_t i = 0; i < n; ++i)
      measured[i] = truth[i] * (1.0 + std::uniform_real_distribution<double>(-e / 2, e / 2)(rng));
    const auto exact = redistribution::balanced_targets(truth, total);
    REQUIRE(redistribution::balanced_targets(measured, total, e) == exact);
    if (redistribution::balanced_targets(measured, total) != exact) ++noise_decided;
  }
  CHECK(noise_decided > 100);
}

TEST_CASE("after a change of speed, measured speeds rebalance as the exact speeds do") {
  // The loads were balanced for the speeds before; one member's speed changes, and the point sees
  // the new speeds exactly (oracle) or measured within a relative error e.
  std::mt19937_64 rng(15);
  int moved = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    const std::size_t n = 2 + static_cast<std::size_t>(trial % 15);
    std::vector<double> truth = tying_speeds(rng, n);
    const Count total = static_cast<Count>(n) + std::uniform_int_distribution<Count>(0, 1000)(rng);
    const auto load = redistribution::balanced_targets(truth, total);
    // By a factor in [0.5, 2] (the paper's windows change speeds so), or to another speed of the
    // list (a tie with other members).
    const std::size_t changed = static_cast<std::size_t>(trial) % n;
    if (trial % 2) truth[changed] *= std::uniform_real_distribution<double>(0.5, 2.0)(rng);
    else truth[changed] = tying_speeds(rng, 1).front();
    const double e = trial % 4 < 2 ? 1e-12 : 1e-9;
    std::vector<double> measured(n);
    for (std::size_t i = 0; i < n; ++i)
      measured[i] = truth[i] * (1.0 + std::uniform_real_distribution<double>(-e / 2, e / 2)(rng));
    const auto oracle = redistribution::rebalanced_targets(load, truth, 0.0);
    if (oracle != load) ++moved;
    REQUIRE(redistribution::rebalanced_targets(load, measured, e) == oracle);
  }
  CHECK(moved > 1000);
}

TEST_CASE("the error of a measured speed covers the rounding of the clock") {
  const double delta = 2.0 * DBL_EPSILON * 1e3;
  CHECK(redistribution::measured_speed_error(1.0, 1e3) == doctest::Approx(delta / (1.0 - delta) + DBL_EPSILON));
  CHECK(redistribution::measured_speed_error(1.0, 1e20) == 1.0);        // a clock too large to resolve a second
  CHECK(redistribution::measured_speed_error(1.0, 1e3) < redistribution::measured_speed_error(1.0, 1e6));
  CHECK(redistribution::measured_speed_error(2.0, 1e3) < redistribution::measured_speed_error(1.0, 1e3));
  // A computation of true duration d from clock c: the clock reads c + d rounded, the member
  // measures the difference rounded, and the true speed is within the error of the one measured.
  std::mt19937_64 rng(16);
  for (int trial = 0; trial < 100000; ++trial) {
    const double c = std::pow(10.0, std::uniform_real_distribution<double>(-3.0, 7.0)(rng));
    const double d = c * std::pow(10.0, std::uniform_real_distribution<double>(-9.0, 1.0)(rng));
    const double work = 1e9;
    const double end = c + d;
    const double measured = work / (end - c);
    const long double truth = static_cast<long double>(work) / static_cast<long double>(d);
    const double e = redistribution::measured_speed_error(end - c, end);
    if (e < 1.0) REQUIRE(std::abs(truth / static_cast<long double>(measured) - 1.0L) <= static_cast<long double>(e));
  }
}

TEST_CASE("a balance within an error rejects inconsistent inputs") {
  CHECK_THROWS_AS(redistribution::is_balance_within({1, 2}, {1.0}, 0.0), std::logic_error);
  CHECK_THROWS_AS(redistribution::is_balance_within({1, 2}, {1.0, 0.0}, 0.0), InputError);
  CHECK_THROWS_AS(redistribution::is_balance_within({0, 3}, {1.0, 1.0}, 0.0), std::logic_error);
  CHECK_THROWS_AS(redistribution::is_balance_within({1, 2}, {1.0, 1.0}, -1.0), std::logic_error);
  CHECK_THROWS_AS(redistribution::balanced_targets({1.0, 1.0}, 4, 1.0), std::logic_error);
  CHECK(redistribution::is_balance_within({1, 9}, {1.0, 1.0}, 1.0));  // a measurement that says nothing moves nothing
}
