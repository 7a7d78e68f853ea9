// Scheme best-period (src/policy/best_period.cpp): it plays the fixed scheme whose replay on the
// speeds known so far, and projection at the newest of them, costs least; its points are checked
// here against the experts' costs recomputed from the statement, on thousands of seeded random
// speed sequences; its start-up look (ski rental on the time lost over the nominal iteration);
// and a ring whose speeds stay nominal, which it never disturbs.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "planners/redistribution/load_balance.hpp"
#include "policy/predictions.hpp"
#include "policy/registry.hpp"
#include "policy_views.hpp"
#include "trial_count.hpp"

using namespace ringsim;
using namespace ringsim::policy;

namespace {

// The experts as the statement defines them: none, once, every-20, -10, -5, -2.
constexpr std::array<int, 6> kExperts = {0, -1, 20, 10, 5, 2};

bool point_after(int period, int it, int iterations) {
  if (it >= iterations) return false;
  if (period == -1) return it == iterations / 2;
  return period > 0 && it % period == 0;
}

// Expert `period`'s time over the run when the speeds of iterations 1..known are `speeds[1..known]`
// and the newest hold to the end: its loads at each iteration, a point's look and planning at the
// slowest speed of the moment, and the move to the balance of the moment at its lower bound.
double expert_time(const RingFacts& f, const std::vector<long>& initial, const std::vector<std::vector<double>>& speeds,
                   int known, int period) {
  std::vector<long> loads = initial;
  double t = 0.0;
  for (int it = 1; it <= f.iterations; ++it) {
    const std::vector<double>& s = speeds[static_cast<std::size_t>(std::min(it, known))];
    t += compute_time_of(loads, s, f.flops_per_column) + f.border_time;
    if (!point_after(period, it, f.iterations)) continue;
    const std::vector<Count> balance = redistribution::balanced_targets(s, f.columns);
    t += gather_cost(f) + f.decision_flops / *std::min_element(s.begin(), s.end()) + move_lower_bound(f, loads, balance);
    loads.assign(balance.begin(), balance.end());
  }
  return t;
}

// Whether the scheme of `period` has its point after `it`, for a policy whose last point was
// `last_point`.
bool due(int period, int it, int last_point, int iterations) {
  if (period > 0) return it - last_point >= period;
  return period == -1 && last_point < iterations / 2 && it >= iterations / 2;
}

// What the leading expert asks after `it`; nullopt where two experts within rounding of the least
// time answer differently (the sums are taken in another order than the policy's).
std::optional<bool> leader_due(const RingFacts& f, const std::vector<long>& initial,
                               const std::vector<std::vector<double>>& speeds, int it, int last_point) {
  std::vector<double> times;
  for (int period : kExperts) times.push_back(expert_time(f, initial, speeds, it, period));
  const double best = *std::min_element(times.begin(), times.end());
  std::optional<bool> answer;
  for (std::size_t k = 0; k < kExperts.size(); ++k) {
    if (times[k] > best * (1 + 1e-9)) continue;
    const bool d = due(kExperts[k], it, last_point, f.iterations);
    if (answer && *answer != d) return std::nullopt;
    answer = d;
  }
  return answer;
}

}  // namespace

TEST_CASE("best-period: its points are those of the leading fixed scheme, recomputed from the statement") {
  std::mt19937 rng(20261203);
  int points = 0, checked = 0;
  for (int trial = 0; trial < testing::trials(1000); ++trial) {
    const std::size_t n = 2 + rng() % 3;  // the common snapshot is this iteration's (no lag below 4)
    Ring r = uniform_ring(n, 50, 1e6 * static_cast<double>(rng() % 100), 0.001 * static_cast<double>(1 + rng() % 50),
                          1e-4, 1e8);
    r.facts.iterations = 20 + static_cast<int>(rng() % 40);
    const std::vector<long> initial = r.loads;
    // Piecewise constant speeds: each member changes with probability 0.2 an iteration.
    std::uniform_real_distribution<double> share(0.1, 1.0);
    std::vector<std::vector<double>> speeds(1, r.facts.peak);
    auto policy = make_policy("best-period", r.facts.iterations);
    int last_point = 0;
    for (int it = 1; it < r.facts.iterations; ++it) {
      std::vector<double> s = speeds.back();
      for (double& x : s)
        if (rng() % 5 == 0) x = 1e8 * share(rng);
      speeds.push_back(s);
      set_speeds(r, s, it);
      const MemberView v = view_of(r, 0, it, it);  // ring_time unknown: no start-up look
      const Act act = policy->after_iteration(v);
      const std::optional<bool> expected = leader_due(r.facts, initial, speeds, it, last_point);
      if (expected) {
        REQUIRE_MESSAGE((act == Act::gather_and_decide) == *expected, "trial " << trial << ", iteration " << it);
        ++checked;
      }
      if (act != Act::gather_and_decide) continue;
      last_point = it;
      ++points;
      Prediction p;
      p.fresh = true;
      p.speeds = s;
      const std::vector<Count> targets = redistribution::balanced_targets(s, r.facts.columns);
      p.targets.assign(targets.begin(), targets.end());
      p.moves = p.targets != r.loads;
      // Points and moves cost what they are predicted to: the policy's measured scales stay 1.
      p.transfer_time = move_lower_bound(r.facts, r.loads, targets);
      p.decision_time = gather_cost(r.facts) + r.facts.decision_flops / *std::min_element(s.begin(), s.end());
      if (policy->accept(v, p)) r.loads = p.targets;
    }
  }
  CHECK(points > 0);
  CHECK(checked > 20 * testing::trials(1000));
}

TEST_CASE("best-period: a ring whose speeds stay nominal is never disturbed") {
  Ring r = uniform_ring(8, 100, 1e7, 0.01, 1e-4, 1e8);
  auto policy = make_policy("best-period", r.facts.iterations);
  const double nominal = compute_time_of(r.loads, r.facts.peak, r.facts.flops_per_column) + r.facts.border_time;
  for (int it = 1; it < r.facts.iterations; ++it) {
    const int common = std::max(0, it - common_snapshot_lag(8));
    if (common > 0) set_speeds(r, r.facts.peak, common);
    MemberView v = view_of(r, 0, it, common);
    v.ring_time = it > 1 ? nominal : 0.0;
    REQUIRE(policy->after_iteration(v) == Act::carry_on);
  }
}

TEST_CASE("best-period: the time lost over the nominal iteration buys a look once it reaches a look's cost") {
  // A ring of 32: the first snapshot comes 15 iterations late; each iteration loses `lost` s
  // against the nominal one; the look costs an all-gather and a planner run at the peak speed.
  Ring r = uniform_ring(32, 100, 1e8, 0.01, 1e-3, 1e8);
  const double nominal = compute_time_of(r.loads, r.facts.peak, r.facts.flops_per_column) + r.facts.border_time;
  const double look = gather_cost(r.facts) + r.facts.decision_flops / 1e8;
  for (double lost : {0.1 * look, 0.45 * look, 2.0 * look}) {
    auto policy = make_policy("best-period", r.facts.iterations);
    int looked = 0;
    for (int it = 1; it <= 15 && looked == 0; ++it) {
      MemberView v = view_of(r, 0, it, 0);
      v.ring_time = it > 1 ? nominal + lost : 0.0;
      if (policy->after_iteration(v) == Act::gather_and_decide) looked = it;
    }
    // Iteration it knows the it - 1 iterations before it: the look comes at the first it with
    // (it - 1) x lost >= look.
    int expected = 0;
    for (int it = 2; it <= 15 && expected == 0; ++it)
      if ((it - 1) * lost >= look) expected = it;
    CHECK_MESSAGE(looked == expected, "lost " << lost << " s an iteration, a look " << look << " s");
  }
}
