// Algorithm 2 (HiPC 2004, Section 4): heterogeneous unidirectional ring. Same item counts as
// Algorithm 1, f_i = delta_{start,i}, but each processor sends them one by one as soon as it holds
// them. Lemma 2: the time is max_i f_i * c_(i,i+1) -- no forwarding delay.
//
// P_(start-1) sends nothing (f = 0 there: the prefix sum is minimal at start-1), so "as soon as
// possible" is computed once along the chain start, start+1, ...: the m-th item of P_i leaves at
// d_i(m) = max(d_i(m-1) + c_i, a_i(m)), where a_i(m) = 0 for the L_i items it holds and otherwise
// the arrival d_(i-1)(m - L_i) + c_(i-1) of a forwarded item. O(items moved), no event queue.
// Items forwarded from a slower link leave at its pace: one paced block for the run of them.
#include <algorithm>

#include "planners/redistribution/algorithms.hpp"
#include "planners/redistribution/block_budget.hpp"
#include "planners/redistribution/bounds.hpp"
#include "planners/redistribution/paced_block.hpp"

namespace ringsim {

RedistributionPlan plan_algorithm2(const RingInstance& inst) {
  const std::size_t n = inst.size();
  RedistributionPlan plan;
  plan.algorithm = "uni-heterogeneous";
  plan.send_next = unidirectional_flows(inst);
  plan.send_prev.assign(n, 0);
  const std::size_t start =
      inst.next(static_cast<std::size_t>(std::min_element(plan.send_next.begin(), plan.send_next.end()) -
                                         plan.send_next.begin()));
  std::vector<double> pred_departures, departures;  // d_(i-1)(.) and d_i(.)
  double pred_cost = 0.0;
  for (std::size_t step = 0; step < n; ++step) {
    const std::size_t i = (start + step) % n;
    const Count f = plan.send_next[i];
    const double c = inst.cost_next[i];
    departures.clear();
    double t = 0.0;
    for (Count m = 0; m < f; ++m) {
      if (m >= inst.loads[i])
        t = std::max(t, pred_departures[static_cast<std::size_t>(m - inst.loads[i])] + pred_cost);
      departures.push_back(t);
      if (m == 0 || !extends_block(plan.transfers.back(), departures[m - 1], t, c, 1e-12)) {
        BlockBudget::check(plan.transfers.size() + 1);
        plan.transfers.push_back({i, inst.next(i), Direction::next, 1, t, t + c});
      }
      t += c;
    }
    std::swap(pred_departures, departures);
    pred_cost = c;
  }
  for (const auto& b : plan.transfers) plan.time = std::max(plan.time, b.end);
  return plan;
}

}  // namespace ringsim
