// Algorithm 2 (HiPC 2004, Section 4): heterogeneous unidirectional ring. Same item counts as
// Algorithm 1, f_i = delta_{start,i}, but each processor sends them one by one as soon as it holds
// them. Lemma 2: the time is max_i f_i * c_(i,i+1) -- no forwarding delay.
#include "planners/redistribution/algorithms.hpp"
#include "planners/redistribution/asap_schedule.hpp"
#include "planners/redistribution/bounds.hpp"

namespace ringsim {

RedistributionPlan plan_algorithm2(const RingInstance& inst) {
  RedistributionPlan plan;
  plan.algorithm = "uni-heterogeneous";
  plan.send_next = unidirectional_flows(inst);
  plan.send_prev.assign(inst.size(), 0);
  plan.transfers = schedule_asap(inst, plan.send_next, plan.send_prev, PortPolicy::next_then_prev);
  plan.time = makespan(plan.transfers);
  return plan;
}

}  // namespace ringsim
