// Homogeneous bidirectional ring (HiPC 2004, Section 5) in O(n): the schedule that proves Lemma 3's
// bound tight, written whole. Algorithm 3 (algorithm3_bi_homogeneous.cpp) reaches the same time
// step by step in O(n * steps) and uses this schedule one step at a time as its repair 5; here it
// is the whole answer, at most two blocks per processor, for rings where stepping is too slow.
//
// Let D be Lemma 3's bound in steps, D = max(max_i |delta_i|, ceil((max F - min F) / 2)), and take
// the circulation x = -D - min F, so the net flows g_i = F_i + x lie in [-D, D]. Rightward items go
// as soon as possible (P_i sends to P_(i+1) during [0, g_i c)), leftward ones as late as possible
// (P_i sends to P_(i-1) during [(D - |g_(i-1)|) c, D c)). One-port holds because a processor
// sending both ways sends g_i - g_(i-1) = delta_i <= D items and one receiving from both sides
// receives -delta_i <= D. Every processor holds what it sends, store and forward (loads >= 1):
//  - a rightward forwarder (0 < g_(i-1), 0 < g_i) holds, at the start of step s < g_i,
//    L_i + min(s, g_(i-1)) - s, which is L_i while s <= g_(i-1) and otherwise at least
//    L_i - delta_i + 1 = target_i + 1;
//  - a leftward forwarder (g_(i-1) < 0, g_i < 0) holds, at the start of step s, target_i plus its
//    sends still to come (D - s while it sends) minus its receipts still to come (min(|g_i|, D - s)),
//    at least target_i;
//  - a processor sending without receiving sends at most delta_i < L_i items.
// So the time is D c, Lemma 3's bound: optimal.
#include <algorithm>
#include <stdexcept>

#include "planners/redistribution/block_budget.hpp"
#include "planners/redistribution/redistribution_algorithms.hpp"
#include "planners/redistribution/ring_math.hpp"

namespace ringsim::redistribution {

RedistributionPlan plan_early_late(const RingInstance& inst) {
  if (!inst.bidirectional) throw std::invalid_argument("bi-homogeneous-early-late needs a bidirectional ring");
  if (!inst.homogeneous())
    throw std::invalid_argument("bi-homogeneous-early-late needs equal costs on every link in both directions");
  const std::size_t n = inst.size();
  const auto delta = imbalances(inst);
  const auto F = prefix_imbalances(delta);
  const Count D = lemma3_steps(delta, F);
  auto flows = flows_for_circulation(F, -D - *std::min_element(F.begin(), F.end()));
  const double c = inst.cost_next.front();
  const double T = static_cast<double>(D) * c;

  RedistributionPlan plan;
  plan.planner = "bi-homogeneous-early-late";
  Count rightward = 0, leftward = 0;
  for (std::size_t i = 0; i < n; ++i) {
    rightward += flows.send_next[i] > 0;
    leftward += flows.send_prev[i] > 0;
  }
  BlockBudget::check(static_cast<std::size_t>(rightward + leftward));
  plan.transfers.reserve(static_cast<std::size_t>(rightward + leftward));
  for (std::size_t i = 0; i < n; ++i)  // every early block starts at 0
    if (const Count k = flows.send_next[i]; k > 0)
      plan.transfers.push_back({i, inst.next(i), Direction::next, k, 0.0, static_cast<double>(k) * c});
  std::vector<Transfer> late;
  for (std::size_t i = 0; i < n; ++i)
    if (const Count k = flows.send_prev[i]; k > 0)
      late.push_back({i, inst.prev(i), Direction::prev, k, static_cast<double>(D - k) * c, T});
  std::stable_sort(late.begin(), late.end(), [](const Transfer& a, const Transfer& b) { return a.start < b.start; });
  plan.transfers.insert(plan.transfers.end(), late.begin(), late.end());
  plan.time = D > 0 ? T : 0.0;
  plan.send_next = std::move(flows.send_next);
  plan.send_prev = std::move(flows.send_prev);
  return plan;
}

}  // namespace ringsim::redistribution
