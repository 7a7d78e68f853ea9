#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <random>

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

}  // namespace

TEST_CASE("balanced targets: sum, at least one column each, optimal iteration time (brute force)") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t n = 1 + trial % 5;
    std::vector<double> speeds(n);
    for (auto& s : speeds) s = std::uniform_real_distribution<double>(0.05, 10.0)(rng);
    if (trial % 7 == 0) speeds[0] = 1000.0;  // one fast processor: the others clamp to 1
    const Count total = static_cast<Count>(n) + static_cast<Count>(trial % 17);
    const auto load = balanced_targets(speeds, total);
    REQUIRE(load.size() == n);
    Count sum = 0;
    for (Count l : load) { REQUIRE(l >= 1); sum += l; }
    REQUIRE(sum == total);
    REQUIRE(iteration_time(load, speeds) == doctest::Approx(brute_force_best(speeds, total)));
  }
}

TEST_CASE("balanced targets are proportional to speeds when they divide evenly") {
  CHECK(balanced_targets({1, 2, 3, 4}, 1000) == std::vector<Count>{100, 200, 300, 400});
  CHECK(balanced_targets({5, 5}, 7) == std::vector<Count>{4, 3});
}

TEST_CASE("balanced targets reject impossible requests") {
  CHECK_THROWS_AS(balanced_targets({1, 2, 3}, 2), InputError);
  CHECK_THROWS_AS(balanced_targets({1, 0}, 10), InputError);
  CHECK_THROWS_AS(balanced_targets({}, 10), InputError);
}
