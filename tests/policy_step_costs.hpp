// The degradation D of a snapshot and the remap cost C, as the cost-based rules define them
// (stop-at-rise, Nicol and Saltz 1988; meta-balancer, Menon et al. 2012; boulmier, Boulmier,
// Abdennadher and Chopard 2021), recomputed for their tests.
#pragma once

#include <algorithm>
#include <vector>

#include "planners/redistribution/load_balance.hpp"
#include "policy/predictions.hpp"
#include "policy_views.hpp"

namespace ringsim::policy {

// Degradation of the snapshot's speeds on the ring's loads and the remap cost C, as the rule
// defines them (the slowest computation over its balance's, and the planner's work at the slowest
// speed plus the move's one-port bound).
struct StepCosts {
  double degradation = 0.0;
  double remap = 0.0;
};

inline StepCosts step_costs(const Ring& r, const std::vector<double>& speeds) {
  const auto targets = redistribution::balanced_targets(speeds, r.facts.columns);
  StepCosts c;
  c.degradation = compute_time_of(r.loads, speeds, r.facts.flops_per_column) -
                  compute_time_of(targets, speeds, r.facts.flops_per_column);
  c.remap = r.facts.decision_flops / *std::min_element(speeds.begin(), speeds.end()) +
            move_lower_bound(r.facts, r.loads, targets);
  return c;
}

}  // namespace ringsim::policy
