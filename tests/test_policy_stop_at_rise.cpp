// Scheme stop-at-rise (src/policy/stop_at_rise.cpp, Nicol and Saltz 1988): a step of degradation
// D after s - 1 balanced steps moved for at once iff (s - 1) D > C, on a ramp at the first rise
// of the average cost per step, a balanced ring never, a move starting a new cycle; its answers
// alike at every member of random rings.
#include <doctest/doctest.h>

#include <vector>

#include "policy/registry.hpp"
#include "policy_runs.hpp"
#include "policy_step_costs.hpp"
#include "policy_views.hpp"

using namespace ringsim;
using namespace ringsim::policy;

TEST_CASE("stop-at-rise: a step of degradation D after s - 1 balanced steps is moved for at once iff (s - 1) D > C") {
  // W(n) = (C + S_n) / n; with delta_j = D from step s on, W(n) > W(n - 1) reads (s - 1) D > C
  // at every n >= s: the rule moves at the step or never.
  std::vector<double> slow(8, 1e8);
  slow[0] = 2.5e7;
  int moved = 0, never = 0;
  for (double column : {0.001, 0.01, 0.1, 0.5, 2.0}) {
    for (int s : {2, 4, 10, 30}) {
      Ring r = slow_report_ring(column);
      const StepCosts c = step_costs(r, slow);
      const int acted = first_act_on_slowdown(r, 80, [&](int k) { return k >= s ? 0 : -1; }, "stop-at-rise");
      INFO("column cost ", column, ", step at ", s, ": D ", c.degradation, " s, C ", c.remap, " s");
      CHECK(c.degradation > 0.0);
      check_at_step_or_never((s - 1) * c.degradation > c.remap, acted, s, moved, never);
    }
  }
  CHECK(moved >= 4);  // both sides of the condition are reached
  CHECK(never >= 4);
}

TEST_CASE("stop-at-rise: on a ramp it moves at the first rise of the average cost per step, not before") {
  // Member 0 slows a little more at each snapshot: the degradations grow, and the rule fires at
  // the first n >= 2 where (C_n + S_n) / n > (C_n + S_(n-1)) / (n - 1), C_n the cost of the move now.
  int later = 0;
  for (double column : {0.001, 0.05, 0.5}) {
    for (double rate : {0.002, 0.01, 0.05}) {
      Ring r = slow_report_ring(column);
      auto p = make_policy("stop-at-rise", 200);
      double sum = 0.0;
      int expected = 0, acted = 0;
      for (int k = 1; k <= 150 && acted == 0; ++k) {
        std::vector<double> speeds(8, 1e8);
        speeds[0] = 1e8 / (1.0 + rate * k);
        set_speeds(r, speeds, k);
        const StepCosts c = step_costs(r, speeds);
        const double before = sum;
        sum += c.degradation;
        if (expected == 0 && k >= 2 && (sum + c.remap) / k > (before + c.remap) / (k - 1)) expected = k;
        if (p->after_iteration(view_of(r, 0, k, k)) != Act::carry_on) acted = k;
      }
      INFO("column cost ", column, ", slowdown rate ", rate);
      CHECK(expected >= 2);
      CHECK(acted == expected);
      later += expected > 2;
    }
  }
  CHECK(later >= 4);  // not only at the first step that can rise
}

TEST_CASE("stop-at-rise: a balanced ring is never moved, and a move starts a new cycle") {
  Ring r = slow_report_ring(0.001);
  CHECK(first_act_on_slowdown(r, 60, [](int) { return -1; }, "stop-at-rise") == 0);
  // Eleven balanced snapshots, then a move after iteration 12 and a lasting slowdown from
  // snapshot 13. Counted from before the move it would be a step after 11 balanced steps, moved
  // for at once (11 D > C); the move starts a new cycle, in which it is a step at s = 1, never
  // moved for ((s - 1) D = 0 is no more than C): the rule's average only falls.
  std::vector<double> slow(8, 1e8);
  slow[2] = 2.5e7;
  auto slow_from_13 = [&](int k) { return k >= 13 ? slow : std::vector<double>(8, 1e8); };
  const StepCosts c = step_costs(r, slow);
  CHECK(11 * c.degradation > c.remap);  // without the new cycle it would move at 13
  CHECK(first_act_after_move_at_12(r, slow_from_13, "stop-at-rise") == 0);
}

TEST_CASE("stop-at-rise: on 3000 random rings every member answers alike") {
  const auto acts_seen = members_answer_alike_on_random_rings("stop-at-rise", 20261128, 3000);
  CHECK(acts_seen[0] > 100);
  CHECK(acts_seen[1] + acts_seen[2] > 100);
}
