// Scheme boulmier (src/policy/boulmier.cpp, Boulmier, Abdennadher and Chopard 2021): the rule
// (k - 1) U - S >= C recomputed here from its statement, on a step after a balanced baseline, an
// imbalance already at the baseline, a ramp and a wave; a balanced ring never moved, a move
// setting a new baseline; its answers alike at every member of random rings.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "planners/redistribution/load_balance.hpp"
#include "policy/registry.hpp"
#include "policy_runs.hpp"
#include "policy_step_costs.hpp"
#include "policy_views.hpp"

using namespace ringsim;
using namespace ringsim::policy;

namespace {

// The criterion's imbalance of a snapshot: the longest computation time minus their mean.
double max_minus_mean(const Ring& r) {
  double longest = 0.0, sum = 0.0;
  for (const Report& rep : r.common) {
    longest = std::max(longest, rep.compute_time);
    sum += rep.compute_time;
  }
  return longest - sum / static_cast<double>(r.common.size());
}

// Snapshots 1..last at speeds(k), computed here as the criterion states it: the first snapshot
// sets the baseline B, each one adds U = max(0, imbalance - B) to S, and the rule fires at the
// first k with (k - 1) U_k - S_k >= C_k (k - 1 snapshots since the baseline's). Returns the
// snapshot it fires at by that reckoning and the one the policy acted at (0: never).
template <class Speeds>
std::pair<int, int> boulmier_by_hand(Ring& r, int last, Speeds speeds) {
  auto p = make_policy("boulmier", 100);
  double baseline = 0.0, sum = 0.0;
  int expected = 0, acted = 0;
  for (int k = 1; k <= last && acted == 0; ++k) {
    const std::vector<double> s = speeds(k);
    set_speeds(r, s, k);
    if (k == 1) baseline = max_minus_mean(r);
    const double u = std::max(0.0, max_minus_mean(r) - baseline);
    sum += u;
    const auto targets = redistribution::balanced_targets(s, r.facts.columns);
    const bool moves = !std::equal(targets.begin(), targets.end(), r.loads.begin());
    if (expected == 0 && moves && (k - 1) * u - sum >= step_costs(r, s).remap) expected = k;
    if (p->after_iteration(view_of(r, 0, k, k)) != Act::carry_on) acted = k;
  }
  return {expected, acted};
}

}  // namespace

TEST_CASE("boulmier: a step of imbalance D after a balanced baseline is moved for at once iff (s - 2) D >= C") {
  // Balanced until snapshot s, then member 0 at a quarter of its speed: U = D from s on, and at
  // snapshot k >= s the rule reads (k - 1) D - (k - s + 1) D = (s - 2) D >= C, the same at every k:
  // it moves at the step or never. D is the slow member's time over the mean: 5 - 13.75 / 8 s.
  constexpr double step = 5.0 - 13.75 / 8.0;
  int moved = 0, never = 0;
  for (double column : {0.001, 0.01, 0.1, 0.5, 2.0}) {
    for (int s : {2, 3, 5, 10, 30}) {
      Ring r = slow_report_ring(column);
      std::vector<double> slow(8, 1e8);
      slow[0] = 2.5e7;
      const double cost = step_costs(r, slow).remap;
      const int acted = first_act_on_slowdown(r, 80, [&](int k) { return k >= s ? 0 : -1; }, "boulmier");
      INFO("column cost ", column, ", step at ", s, ": C ", cost, " s");
      check_at_step_or_never((s - 2) * step >= cost, acted, s, moved, never);
    }
  }
  CHECK(moved >= 4);  // both sides of the condition are reached
  CHECK(never >= 4);
}

TEST_CASE("boulmier: imbalance already there at the baseline is not moved for, only its rise") {
  // Member 0 at a quarter of its speed from the first snapshot: the baseline is D1 = 5 - 13.75 / 8
  // s and nothing is ever moved for, though a balance would save 3.75 s an iteration. A second
  // member slowed alike lowers max - mean (5 - 17.5 / 8 s): still nothing. Member 0 down to an
  // eighth at snapshot s: U = (10 - 18.75 / 8) - D1 = 4.375 s from s on, moved for iff (s - 2) U >= C.
  constexpr double baseline = 5.0 - 13.75 / 8.0, rise = 10.0 - 18.75 / 8.0 - baseline;
  CHECK(rise == doctest::Approx(4.375));
  for (double column : {0.001, 0.1}) {
    Ring r = slow_report_ring(column);
    CHECK(first_act_on_slowdown(r, 90, [](int) { return 0; }, "boulmier") == 0);
    auto two_slow = [](int k) {
      std::vector<double> s(8, 1e8);
      s[0] = 2.5e7;
      if (k >= 10) s[1] = 2.5e7;
      return s;
    };
    CHECK(boulmier_by_hand(r, 90, two_slow) == std::make_pair(0, 0));
  }
  // Column costs from 1 ms to 5 s in steps of 10%: some C fall between (s - 2) U and what the
  // rule would read with no baseline, (s - 2) U - D1 ((s - 1) D1 + ... counted from zero).
  int moved = 0, never = 0, between = 0;
  for (int step = 0; step <= 90; ++step) {
    const double column = 0.001 * std::pow(1.1, step);
    for (int s : {3, 6, 20}) {
      Ring r = slow_report_ring(column);
      auto deeper = [s](int k) {
        std::vector<double> sp(8, 1e8);
        sp[0] = k >= s ? 1.25e7 : 2.5e7;
        return sp;
      };
      std::vector<double> deepest(8, 1e8);
      deepest[0] = 1.25e7;
      const double cost = step_costs(r, deepest).remap;
      const auto [expected, acted] = boulmier_by_hand(r, 80, deeper);
      INFO("column cost ", column, ", deeper at ", s, ": C ", cost, " s");
      CHECK(acted == expected);
      check_at_step_or_never((s - 2) * rise >= cost, acted, s, moved, never);
      between += (s - 2) * rise >= cost && (s - 2) * rise - baseline < cost;
    }
  }
  CHECK(moved >= 3);
  CHECK(never >= 3);
  CHECK(between >= 2);
  // Below the baseline counts as zero, not as a credit: member 1 slowed alike from snapshot 5 to
  // 14 (max - mean 0.46875 s under D1), then member 0 down to an eighth from 15: moved for at 15
  // iff 13 U >= C, where counting those ten snapshots at -0.46875 s would read 13 U + 4.6875.
  constexpr double below = baseline - (5.0 - 17.5 / 8.0);
  CHECK(below == doctest::Approx(0.46875));
  int credited = 0;
  for (int step = 0; step <= 90; ++step) {
    Ring r = slow_report_ring(0.001 * std::pow(1.1, step));
    auto dip_then_drop = [](int k) {
      std::vector<double> sp(8, 1e8);
      sp[0] = k >= 15 ? 1.25e7 : 2.5e7;
      if (k >= 5 && k < 15) sp[1] = 2.5e7;
      return sp;
    };
    const auto [expected, acted] = boulmier_by_hand(r, 80, dip_then_drop);
    const double cost = step_costs(r, dip_then_drop(15)).remap;
    CHECK(acted == expected);
    CHECK(expected == (13 * rise >= cost ? 15 : 0));
    credited += 13 * rise < cost && 13 * rise + 10 * below >= cost;
  }
  CHECK(credited >= 1);
}

TEST_CASE("boulmier: on a ramp and on a wave it moves at the first snapshot where (k - 1) U - S reaches C") {
  int later = 0, fired = 0, unfired = 0;
  for (double column : {0.001, 0.05, 0.5}) {
    for (double rate : {0.002, 0.01, 0.05}) {  // member 0 slows a little more at each snapshot
      Ring r = slow_report_ring(column);
      const auto [expected, acted] = boulmier_by_hand(r, 150, [rate](int k) {
        std::vector<double> s(8, 1e8);
        s[0] = 1e8 / (1.0 + rate * k);
        return s;
      });
      INFO("ramp: column cost ", column, ", slowdown rate ", rate);
      CHECK(expected >= 3);
      CHECK(acted == expected);
      later += expected > 3;
    }
  }
  // The wave: at its k-th crest (k - 1) U - S grows about as k times the mean U, so it fires
  // unless the move costs more than the run's crests reach.
  for (double column : {0.001, 0.05, 0.5, 10.0}) {
    for (int period : {8, 20, 60}) {  // member 0's speed a wave between 1 and 1/3 of its peak
      Ring r = slow_report_ring(column);
      const auto [expected, acted] = boulmier_by_hand(r, 90, [period](int k) {
        std::vector<double> s(8, 1e8);
        s[0] = 1e8 / (2.0 - std::cos(2.0 * 3.141592653589793 * (k - 1) / period));
        return s;
      });
      INFO("wave: column cost ", column, ", period ", period);
      CHECK(acted == expected);
      (expected > 0 ? fired : unfired) += 1;
    }
  }
  CHECK(later >= 4);  // not only at the first snapshot that can fire
  CHECK(fired >= 2);
  CHECK(unfired >= 1);
}

TEST_CASE("boulmier: a balanced ring is never moved, and a move sets a new baseline") {
  Ring r = slow_report_ring(0.001);
  CHECK(first_act_on_slowdown(r, 60, [](int) { return -1; }, "boulmier") == 0);
  // A move after iteration 12, then a lasting slowdown from snapshot 13. Counted from the run's
  // first baseline it is a step at s = 13, moved for at once (11 D >= C); the move's cycle takes
  // snapshot 13 as its baseline, and nothing rises above it.
  std::vector<double> slow(8, 1e8);
  slow[2] = 2.5e7;
  auto slow_from_13 = [&](int k) { return k >= 13 ? slow : std::vector<double>(8, 1e8); };
  CHECK(11 * (5.0 - 13.75 / 8.0) >= step_costs(r, slow).remap);  // without the new cycle it would move at 13
  CHECK(first_act_after_move_at_12(r, slow_from_13, "boulmier") == 0);
  // The same cycle, member 2 down to an eighth from snapshot 20: U = 4.375 s over the baseline,
  // moved for at 20 iff 6 U >= C (six snapshots since the baseline's). Against the run's first
  // baseline it would read 6 * 7.65625 - 7 * 3.28125 s, lower: the column costs scanned reach
  // C between the two.
  constexpr double d1 = 5.0 - 13.75 / 8.0, d2 = 10.0 - 18.75 / 8.0;
  int between = 0;
  for (int step = 0; step <= 90; ++step) {
    Ring q = slow_report_ring(0.001 * std::pow(1.1, step));
    std::vector<double> deeper = slow;
    deeper[2] = 1.25e7;
    const double cost = step_costs(q, deeper).remap;
    const int acted = first_act_after_move_at_12(
        q, [&](int k) { return k >= 20 ? deeper : slow_from_13(k); }, "boulmier");
    INFO("column cost ", 0.001 * std::pow(1.1, step), ": C ", cost, " s");
    CHECK(acted == (6 * (d2 - d1) >= cost ? 20 : 0));
    between += 6 * (d2 - d1) >= cost && 6 * d2 - 7 * d1 < cost;
  }
  CHECK(between >= 1);
}

TEST_CASE("boulmier: on 3000 random rings every member answers alike") {
  const auto acts_seen = members_answer_alike_on_random_rings("boulmier", 20261130, 3000);
  CHECK(acts_seen[0] > 100);
  CHECK(acts_seen[1] + acts_seen[2] > 100);
}
