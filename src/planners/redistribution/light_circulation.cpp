// Heterogeneous bidirectional ring, light redistributions (HiPC 2004, Section 6): the integer
// optimum of System 2 from its circulation parameter (system2_circulation.hpp), executed with the
// Lemma 4 schedule: P_i sends to P_(i+1) from time 0, then to P_(i-1) as soon as the one-port
// model allows. When no optimal circulation is light, the same flows are still executed (items
// forwarded only once received) and the plan is optimal only if its time meets the bound.
#include "planners/redistribution/redistribution_algorithms.hpp"
#include "planners/redistribution/block_budget.hpp"
#include "planners/redistribution/asap_schedule.hpp"
#include "planners/redistribution/lemma4_runs.hpp"
#include "planners/redistribution/ring_math.hpp"
#include "planners/redistribution/system2_circulation.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

namespace ringsim::redistribution {

namespace {

// Lemma 4 in closed form when every processor holds what it sends: P_i's clockwise block runs
// from 0; its counter-clockwise block starts once that block is over and the receiver P_(i-1) has
// finished receiving P_(i-2)'s clockwise block (its only other incoming block). O(n).
std::vector<Transfer> lemma4_schedule(const RingInstance& inst, const EdgeFlows& flows) {
  const std::size_t n = inst.size();
  std::vector<Transfer> transfers;
  BlockBudget::check(static_cast<std::size_t>(
      std::count_if(flows.send_next.begin(), flows.send_next.end(), [](Count f) { return f > 0; }) +
      std::count_if(flows.send_prev.begin(), flows.send_prev.end(), [](Count f) { return f > 0; })));
  auto next_end = [&](std::size_t i) { return static_cast<double>(flows.send_next[i]) * inst.cost_next[i]; };
  for (std::size_t i = 0; i < n; ++i) {
    if (flows.send_next[i] > 0)
      transfers.push_back({i, inst.next(i), Direction::next, flows.send_next[i], 0.0, next_end(i)});
    if (flows.send_prev[i] > 0) {
      const double start = std::max(next_end(i), next_end(inst.prev(inst.prev(i))));
      transfers.push_back({i, inst.prev(i), Direction::prev, flows.send_prev[i], start,
                           start + static_cast<double>(flows.send_prev[i]) * inst.cost_prev[i]});
    }
  }
  return transfers;
}

// System 2's optimal circulation and bi-light's plan for it, without transfers.
RedistributionPlan light_head(const RingInstance& inst, bool& light) {
  if (!inst.bidirectional) throw std::invalid_argument("bi-light needs a bidirectional ring");
  const auto opt = optimal_integer_circulation(inst);
  auto flows = flows_for_circulation(prefix_imbalances(imbalances(inst)), opt.x);
  light = opt.light;
  RedistributionPlan plan;
  plan.planner = "bi-light";
  plan.send_next = std::move(flows.send_next);
  plan.send_prev = std::move(flows.send_prev);
  if (!light) plan.notes.push_back("not light: some processor must forward items it receives");
  return plan;
}

}  // namespace

RedistributionPlan plan_light_circulation(const RingInstance& inst) {
  bool light = false;
  RedistributionPlan plan = light_head(inst, light);
  plan.transfers = light ? lemma4_schedule(inst, {plan.send_next, plan.send_prev})
                         : schedule_asap(inst, plan.send_next, plan.send_prev, PortPolicy::next_then_prev);
  plan.time = makespan(plan.transfers);
  return plan;
}

void stream_light_circulation(const RingInstance& inst, const PlanHead& head, const TransferSink& emit,
                              std::size_t hold_limit) {
  bool light = false;
  RedistributionPlan plan = light_head(inst, light);
  if (light) {
    const auto transfers = lemma4_schedule(inst, {plan.send_next, plan.send_prev});
    plan.time = makespan(transfers);
    head(plan);
    for (const auto& t : transfers) emit(t);
    return;
  }
  // The first run times the schedule and counts its blocks against any BlockBudget (the executor
  // checks each block it opens): a refusal comes before the head.
  BoundedHold held(hold_limit);
  plan.time = stream_asap(inst, plan.send_next, plan.send_prev, PortPolicy::next_then_prev, held.sink());
  head(plan);
  if (held.complete()) {
    for (const auto& t : held.blocks) emit(t);
    return;
  }
  stream_asap(inst, plan.send_next, plan.send_prev, PortPolicy::next_then_prev, emit);
}

std::optional<RedistributionPlan> summarize_light_circulation(const RingInstance& inst, std::string& basis) {
  if (!inst.bidirectional) throw std::invalid_argument("bi-light needs a bidirectional ring");
  const auto opt = optimal_integer_circulation(inst);
  auto flows = flows_for_circulation(prefix_imbalances(imbalances(inst)), opt.x);
  const std::optional<double> by_runs = opt.light ? std::nullopt : lemma4_makespan_by_runs(inst, flows);
  if (!opt.light && !by_runs) return std::nullopt;
  RedistributionPlan plan;
  plan.planner = "bi-light";
  if (opt.light) {
    basis = "Lemma 4 (HiPC 2004, Section 6): time = System 2's integer optimum (light), the O(n) Lemma 4 schedule";
    plan.time = makespan(lemma4_schedule(inst, flows));
  } else {
    basis = "Lemma 4's schedule (HiPC 2004, Section 6), not light: its time computed by runs of items, not built";
    plan.time = *by_runs;
    plan.notes.push_back("not light: some processor must forward items it receives");
  }
  plan.send_next = std::move(flows.send_next);
  plan.send_prev = std::move(flows.send_prev);
  return plan;
}

}  // namespace ringsim::redistribution
