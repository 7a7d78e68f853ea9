// Algorithm 1 (HiPC 2004, Section 3): homogeneous unidirectional ring. P_(start+l) sends
// delta_{start,start+l} items during [0, delta_{start,start+l} * c): at step s it sends iff
// delta_{start,start+l} >= s, so each processor sends one block from time 0. Optimal (Theorem 1).
#include <stdexcept>

#include "planners/redistribution/block_budget.hpp"
#include "planners/redistribution/bounds.hpp"
#include "planners/redistribution/redistribution_algorithms.hpp"

namespace ringsim::redistribution {

RedistributionPlan plan_algorithm1(const RingInstance& inst) {
  if (!inst.homogeneous()) throw std::invalid_argument("uni-homogeneous needs equal link costs");
  const double c = inst.cost_next.front();
  RedistributionPlan plan;
  plan.planner = "uni-homogeneous";
  plan.send_next = unidirectional_flows(inst);
  plan.send_prev.assign(inst.size(), 0);
  for (std::size_t i = 0; i < inst.size(); ++i) {
    const Count f = plan.send_next[i];
    if (f == 0) continue;
    BlockBudget::check(plan.transfers.size() + 1);
    plan.transfers.push_back({i, inst.next(i), Direction::next, f, 0.0, static_cast<double>(f) * c});
    plan.time = std::max(plan.time, static_cast<double>(f) * c);
  }
  return plan;
}

}  // namespace ringsim::redistribution
