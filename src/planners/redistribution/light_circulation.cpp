// Heterogeneous bidirectional ring, light redistributions (HiPC 2004, Section 6): the integer
// optimum of System 2 from its circulation parameter (system2_circulation.hpp), executed with the
// Lemma 4 schedule: P_i sends to P_(i+1) from time 0, then to P_(i-1) as soon as the one-port
// model allows. When no optimal circulation is light, the same flows are still executed (items
// forwarded only once received) and the plan is optimal only if its time meets the bound.
#include "planners/redistribution/algorithms.hpp"
#include "planners/redistribution/asap_schedule.hpp"
#include "planners/redistribution/ring_math.hpp"
#include "planners/redistribution/system2_circulation.hpp"

#include <stdexcept>

namespace ringsim {

RedistributionPlan plan_light_circulation(const RingInstance& inst) {
  if (!inst.bidirectional) throw std::invalid_argument("bi-light needs a bidirectional ring");
  const auto opt = optimal_integer_circulation(inst);
  auto flows = flows_for_circulation(prefix_imbalances(imbalances(inst)), opt.x);
  RedistributionPlan plan;
  plan.algorithm = "bi-light";
  plan.transfers = schedule_asap(inst, flows.send_next, flows.send_prev, PortPolicy::next_then_prev);
  plan.time = makespan(plan.transfers);
  plan.send_next = std::move(flows.send_next);
  plan.send_prev = std::move(flows.send_prev);
  if (!opt.light) plan.notes.push_back("not light: some processor must forward items it receives");
  return plan;
}

}  // namespace ringsim
