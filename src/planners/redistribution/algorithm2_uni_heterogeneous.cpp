// Algorithm 2 (HiPC 2004, Section 4): heterogeneous unidirectional ring. Same item counts as
// Algorithm 1, f_i = delta_{start,i}, but each processor sends them one by one as soon as it holds
// them. Lemma 2: the time is max_i f_i * c_(i,i+1) -- no forwarding delay.
//
// P_(start-1) sends nothing (f = 0 there: the prefix sum is minimal at start-1), so "as soon as
// possible" is computed once along the chain start, start+1, ...: the m-th item of P_i leaves at
// d_i(m) = max(d_i(m-1) + c_i, a_i(m)), where a_i(m) = 0 for the L_i items it holds and otherwise
// the arrival d_(i-1)(m - L_i) + c_(i-1) of a forwarded item. The recursion runs over runs of items
// (forwarding_runs.hpp), O(runs) instead of O(items moved), and each run is one block: back to
// back, or paced where items forwarded from a slower link leave at its pace.
#include <algorithm>

#include "planners/redistribution/block_budget.hpp"
#include "planners/redistribution/bounds.hpp"
#include "planners/redistribution/forwarding_runs.hpp"
#include "planners/redistribution/redistribution_algorithms.hpp"

namespace ringsim::redistribution {
namespace {

Transfer block_of(const RingInstance& inst, std::size_t i, const DepartureRun& r) {
  const double c = inst.cost_next[i];
  Transfer t{i, inst.next(i), Direction::next, r.count, r.start, 0.0};
  if (r.count > 1 && r.period != c) t.period = r.period;
  t.end = departure(t, t.items - 1, c) + c;
  return t;
}

}  // namespace

void stream_algorithm2(const RingInstance& inst, const std::vector<Count>& send_next, const TransferSink& emit) {
  const std::size_t n = inst.size();
  const std::size_t start =
      inst.next(static_cast<std::size_t>(std::min_element(send_next.begin(), send_next.end()) - send_next.begin()));
  ForwardingFeed feed;  // P_start receives nothing: it holds what it sends from time 0
  for (std::size_t step = 0; step < n; ++step) {
    const std::size_t i = (start + step) % n;
    if (step > 0) {
      feed.source = false;
      feed.held = inst.loads[i];
    }
    std::vector<DepartureRun> runs = forward_by_runs(feed, send_next[i], inst.cost_next[i]);
    for (const DepartureRun& r : runs) emit(block_of(inst, i, r));
    feed.upstream = std::move(runs);
    feed.c_up = inst.cost_next[i];
  }
}

RedistributionPlan algorithm2_head(const RingInstance& inst) {
  RedistributionPlan plan;
  plan.planner = "uni-heterogeneous";
  plan.send_next = unidirectional_flows(inst);
  plan.send_prev.assign(inst.size(), 0);
  return plan;
}

RedistributionPlan plan_algorithm2(const RingInstance& inst) {
  RedistributionPlan plan = algorithm2_head(inst);
  stream_algorithm2(inst, plan.send_next, [&plan](const Transfer& t) {
    BlockBudget::check(plan.transfers.size() + 1);
    plan.transfers.push_back(t);
    plan.time = std::max(plan.time, t.end);
  });
  return plan;
}

}  // namespace ringsim::redistribution
