// The late rule's best points (planners/points/min_plus.hpp): against a scalar loop over the
// targets in increasing order, on seeded random products with ties, infinite sums and widths that
// are not a multiple of the columns read together; the form this processor runs and the two-lane
// form give the same doubles.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "planners/points/min_plus.hpp"
#include "trial_count.hpp"

using ringsim::points::best_points;
using ringsim::points::best_points_two_lanes;

namespace {

constexpr double kNoTarget = -1.0;

struct Product {
  std::vector<double> points, targets;
};

// The definition: for each (L, x), the targets B != L in increasing order, one kept when strictly
// below the best so far.
Product by_definition(const std::vector<double>& stay, std::size_t count, std::size_t width,
                      const std::vector<double>& costs) {
  Product p{std::vector<double>(count * width, INFINITY), std::vector<double>(count * width, kNoTarget)};
  for (std::size_t l = 0; l < count; ++l)
    for (std::size_t x = 0; x < width; ++x)
      for (std::size_t b = 0; b < count; ++b) {
        if (b == l) continue;
        const double v = costs[l * count + b] + stay[b * width + x];
        if (v < p.points[l * width + x]) {
          p.points[l * width + x] = v;
          p.targets[l * width + x] = static_cast<double>(b);
        }
      }
  return p;
}

// Small integers, so that sums tie often; an infinite entry now and then.
std::vector<double> drawn(std::mt19937_64& rng, std::size_t size, double infinite_share) {
  std::uniform_int_distribution<int> value(0, 6);
  std::bernoulli_distribution infinite(infinite_share);
  std::vector<double> v(size);
  for (double& d : v) d = infinite(rng) ? INFINITY : static_cast<double>(value(rng));
  return v;
}

}  // namespace

TEST_CASE("best points: the (min, +) product and its first target, on random products with ties") {
  std::mt19937_64 rng(20261129);
  std::uniform_int_distribution<std::size_t> counts(1, 12), widths(1, 37);
  const int trials = ringsim::testing::trials(2000);
  std::vector<double> scratch, points, targets, points2, targets2, only;
  for (int trial = 0; trial < trials; ++trial) {
    const std::size_t count = counts(rng), width = widths(rng);
    const std::vector<double> stay = drawn(rng, count * width, 0.1), costs = drawn(rng, count * count, 0.2);
    const Product expected = by_definition(stay, count, width, costs);
    best_points(stay, count, width, costs.data(), kNoTarget, points, &targets, scratch);
    best_points_two_lanes(stay, count, width, costs.data(), kNoTarget, points2, &targets2, scratch);
    best_points(stay, count, width, costs.data(), kNoTarget, only, nullptr, scratch);
    INFO("trial " << trial << ", " << count << " loads, " << width << " columns");
    REQUIRE(points == expected.points);
    REQUIRE(targets == expected.targets);
    REQUIRE(points2 == expected.points);
    REQUIRE(targets2 == expected.targets);
    REQUIRE(only == expected.points);
  }
}

TEST_CASE("best points: without move costs no point is finite and none has a target") {
  const std::vector<double> stay = {1.0, 2.0, 3.0, 4.0, 5.0, 6.0};
  std::vector<double> scratch, points, targets;
  best_points(stay, 2, 3, nullptr, kNoTarget, points, &targets, scratch);
  CHECK(points == std::vector<double>(6, INFINITY));
  CHECK(targets == std::vector<double>(6, kNoTarget));
}

TEST_CASE("best points: a hand-made product, ties kept on the smaller target") {
  // Three loads, two columns. From L = 0, targets 1 and 2 cost 1 + {5, 2} and 2 + {4, 1}: both
  // {6, 3}, kept on B = 1. From L = 1: 1 + {9, 9} against 1 + {4, 1}, B = 2. From L = 2: 3 + {9, 9}
  // against 3 + {5, 2}, B = 1.
  const std::vector<double> stay = {9, 9, 5, 2, 4, 1};
  const std::vector<double> costs = {0, 1, 2, 1, 0, 1, 3, 3, 0};
  std::vector<double> scratch, points, targets;
  best_points(stay, 3, 2, costs.data(), kNoTarget, points, &targets, scratch);
  CHECK(points == std::vector<double>{6, 3, 5, 2, 8, 5});
  CHECK(targets == std::vector<double>{1, 1, 2, 2, 1, 1});
}
