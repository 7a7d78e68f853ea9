// Scheme meta-balancer (src/policy/meta_balancer.cpp, Menon et al. 2012): a lasting excess D from
// the start moved for after C / D iterations, never before five samples; on a ramp once the area
// under its two-halves line reaches the move's cost; its answers alike at every member of random
// rings.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "policy/registry.hpp"
#include "policy_runs.hpp"
#include "policy_step_costs.hpp"
#include "policy_views.hpp"

using namespace ringsim;
using namespace ringsim::policy;

TEST_CASE("meta-balancer: a lasting excess D from the start is moved for after C / D iterations, never before five samples") {
  // All samples equal: the line is flat at D, so (m / 2) tau^2 + b tau = C gives tau = C / D.
  std::vector<double> slow(8, 1e8);
  slow[0] = 2.5e7;
  int early = 0, late = 0;
  for (double column : {0.0001, 0.001, 0.01, 0.1, 0.5, 2.0}) {
    Ring r = slow_report_ring(column);
    const StepCosts c = step_costs(r, slow);
    const int acted = first_act_on_slowdown(r, 90, [](int) { return 0; }, "meta-balancer");
    const int tau = static_cast<int>(c.remap / c.degradation);
    INFO("column cost ", column, ": D ", c.degradation, " s, C ", c.remap, " s, tau ", tau);
    if (tau >= 90) {
      CHECK(acted == 0);
    } else {
      CHECK(acted == std::max(5, tau));
      early += tau < 5;
      late += tau > 5;
    }
  }
  CHECK(early >= 1);
  CHECK(late >= 2);
  Ring balanced = slow_report_ring(0.0001);
  CHECK(first_act_on_slowdown(balanced, 90, [](int) { return -1; }, "meta-balancer") == 0);
}

TEST_CASE("meta-balancer: on a ramp it moves once the area under its two-halves line reaches the move's cost") {
  // The line through the means of the samples' two halves (slope 2 (second - first) / span, value
  // first - slope total / 4 at the cycle's start); the policy moves at the first iteration t from
  // the fifth sample on where the period floor(tau) is reached, i.e. the area under that line up
  // to t + 1 exceeds C (the positive root of the area's quadratic is tau).
  int later = 0;
  for (double column : {0.0001, 0.01, 0.3}) {
    for (double rate : {0.002, 0.01, 0.05}) {
      Ring r = slow_report_ring(column);
      auto p = make_policy("meta-balancer", 200);
      std::vector<double> excess;
      int expected = 0, acted = 0;
      for (int k = 1; k <= 150 && acted == 0; ++k) {
        std::vector<double> speeds(8, 1e8);
        speeds[0] = 1e8 / (1.0 + rate * k);
        set_speeds(r, speeds, k);
        const StepCosts c = step_costs(r, speeds);
        excess.push_back(c.degradation);
        if (expected == 0 && excess.size() >= 5) {
          const std::size_t total = excess.size(), half = total / 2;
          double first = 0.0, second = 0.0;
          for (std::size_t i = 0; i < total; ++i) (i < half ? first : second) += excess[i];
          first /= static_cast<double>(half);
          second /= static_cast<double>(total - half);
          const double slope = 2.0 * (second - first) / static_cast<double>(total);
          const double start = first - slope * static_cast<double>(total) / 4.0;
          const double t = static_cast<double>(k + 1);
          if (slope > 0.0 && slope / 2.0 * t * t + start * t > c.remap) expected = k;
        }
        if (p->after_iteration(view_of(r, 0, k, k)) != Act::carry_on) acted = k;
      }
      INFO("column cost ", column, ", slowdown rate ", rate);
      CHECK(expected >= 5);
      CHECK(acted == expected);
      later += expected > 5;
    }
  }
  CHECK(later >= 4);
}

TEST_CASE("meta-balancer: on 3000 random rings every member answers alike") {
  const auto acts_seen = members_answer_alike_on_random_rings("meta-balancer", 20261129, 3000);
  CHECK(acts_seen[0] > 100);
  CHECK(acts_seen[1] + acts_seen[2] > 100);
}
