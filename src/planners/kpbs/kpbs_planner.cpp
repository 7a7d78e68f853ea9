#include "planners/kpbs/kpbs_planner.hpp"

#include <algorithm>
#include <stdexcept>

#include "planners/kpbs/kpbs_algorithms.hpp"
#include "planners/kpbs/lower_bound.hpp"

namespace ringsim::kpbs {
namespace {

using PlanFn = KpbsSchedule (*)(const KpbsInstance&);

struct Entry : NamedInfo {
  PlanFn run;
};

const std::vector<Entry>& registry() {
  static const std::vector<Entry> entries = {
      {{"ggp", "GGP (the KPBS paper, Section 2.1): weights in units of beta, weight-regular completion, peeling of any "
               "perfect matchings; within 8/3 of the optimum (the KPBS paper claims 2)"},
       kpbs::plan_ggp},
      {{"oggp", "OGGP: GGP peeling at each step a perfect matching whose smallest weight is largest "
                "(bottleneck matching): usually fewer steps"},
       kpbs::plan_oggp},
      {{"greedy", "baseline: per step the heaviest communications that fit (at most k, one per node), cut to "
                  "the length that moves the most data per unit of time (beta + length)"},
       kpbs::plan_greedy},
      {{"all-at-once", "baseline, not a KPBS schedule: everything starts together; time = beta + makespan under "
                       "max-min fair fluid sharing of node links and backbone"},
       kpbs::plan_all_at_once},
  };
  return entries;
}

}  // namespace

const std::vector<NamedInfo>& kpbs_algorithms() {
  static const std::vector<NamedInfo> infos = infos_of(registry());
  return infos;
}

void check_kpbs_algorithm(const std::string& scheduler, const std::string& kind) {
  find_named(registry(), scheduler, kind);
}

KpbsSchedule plan_kpbs(const KpbsInstance& inst, const std::string& scheduler) {
  validate(inst);
  KpbsSchedule sched = find_named(registry(), scheduler, "algorithm").run(inst);
  sched.lower_bound = kpbs_lower_bound(inst).eta;
  return sched;
}

}  // namespace ringsim::kpbs
