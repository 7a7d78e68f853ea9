#include "planners/redistribution/redistribution_planner.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "model/errors.hpp"
#include "planners/redistribution/block_budget.hpp"
#include "planners/redistribution/bounds.hpp"
#include "planners/redistribution/redistribution_algorithms.hpp"
#include "planners/redistribution/system2_circulation.hpp"

namespace ringsim::redistribution {
namespace {

using PlanFn = RedistributionPlan (*)(const RingInstance&);

struct Entry : NamedInfo {
  PlanFn run;
};

const std::vector<Entry>& registry() {
  static const std::vector<Entry> entries = {
      {{"uni-homogeneous", "Algorithm 1: homogeneous unidirectional ring, optimal (Lemma 1)"}, plan_algorithm1},
      {{"uni-heterogeneous", "Algorithm 2: heterogeneous unidirectional ring, as-soon-as-possible forwarding, optimal (Lemma 2)"}, plan_algorithm2},
      {{"bi-homogeneous", "Algorithm 3 with repairs: homogeneous bidirectional ring, optimal (Lemma 3)"}, plan_algorithm3},
      {{"bi-homogeneous-early-late", "homogeneous bidirectional ring, optimal (Lemma 3) in O(n): the schedule of the bound's tightness proof, rightward items early, leftward late"}, plan_early_late},
      {{"bi-light", "System 2 solved exactly via its circulation parameter, Lemma 4 schedule: optimal for light redistributions"}, plan_light_circulation},
      {{"bi-light-glpk", "System 2 as a GLPK linear program (dual simplex, presolve), rounded, Lemma 4 schedule"}, plan_light_glpk},
      {{"bi-heuristic", "heterogeneous bidirectional, general case: best of several flow and port-order choices, always feasible"}, plan_general_heuristic},
      {{"exact", "time-indexed integer program with GLPK: the optimum, for small instances with commensurable costs"}, plan_exact},
  };
  return entries;
}

// An exact solver's optimum is itself a lower bound; otherwise the instance's proven bound. A time
// within rounding of the bound (relative: costs may be tiny) meets it.
void with_lower_bound(RedistributionPlan& plan, const RingInstance& inst) {
  const double bound = instance_lower_bound(inst);
  plan.lower_bound = plan.optimal ? std::max(plan.time, bound) : bound;
  if (!plan.optimal) plan.optimal = plan.time <= plan.lower_bound * (1.0 + 1e-9);
}

// The most time a plan may state: every time of every algorithm (and of its bounds) is at most the
// items times the ring's length times the largest cost, which must stay a finite double with room
// for the planners' sums.
constexpr double kMaxPlanTime = 1e300;

std::string format_number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

// Times are sums of item costs: costs below the normal doubles lose their precision, and items
// times the largest cost past kMaxPlanTime would overflow to inf (not JSON, and no schedule).
void check_times_representable(const RingInstance& inst) {
  double largest = 0.0, smallest = std::numeric_limits<double>::infinity();
  for (const auto* costs : {&inst.cost_next, &inst.cost_prev})
    for (double c : *costs) {
      largest = std::max(largest, c);
      smallest = std::min(smallest, c);
    }
  if (smallest < std::numeric_limits<double>::min())
    throw InputError("a cost of " + format_number(smallest) + " is below " +
                     format_number(std::numeric_limits<double>::min()) +
                     ", the least normal double: times would lose their precision");
  const double items = static_cast<double>(std::accumulate(inst.loads.begin(), inst.loads.end(), Count{0}));
  const double span = items * static_cast<double>(inst.size()) * largest;
  if (!(span <= kMaxPlanTime))
    throw InputError("costs up to " + format_number(largest) + " for " + format_number(items) + " items on " +
                     std::to_string(inst.size()) + " processors could give times above " + format_number(kMaxPlanTime) +
                     " (items x processors x largest cost), beyond what a plan's times can hold in a double");
}

void check_plannable(const RingInstance& inst) {
  validate(inst);
  check_times_representable(inst);
}

}  // namespace

const std::vector<NamedInfo>& redistribution_algorithms() {
  static const std::vector<NamedInfo> infos = infos_of(registry());
  return infos;
}

void check_redistribution_algorithm(const std::string& planner) {
  if (planner != "auto") find_named(registry(), planner, "algorithm", "auto");
}

std::string choose_planner(const RingInstance& inst) {
  if (!inst.bidirectional) return inst.homogeneous() ? "uni-homogeneous" : "uni-heterogeneous";
  if (inst.homogeneous()) return "bi-homogeneous-early-late";
  return optimal_integer_circulation(inst).light ? "bi-light" : "bi-heuristic";
}

RedistributionPlan plan_redistribution(const RingInstance& inst, const std::string& planner) {
  check_plannable(inst);
  const std::string name = planner == "auto" ? choose_planner(inst) : planner;
  RedistributionPlan plan = find_named(registry(), name, "algorithm", "auto").run(inst);
  with_lower_bound(plan, inst);
  return plan;
}

bool stream_redistribution(const RingInstance& inst, const std::string& planner,
                           const std::function<void(const RedistributionPlan&)>& head, const TransferSink& emit,
                           std::size_t hold_limit) {
  check_plannable(inst);
  const std::string name = planner == "auto" ? choose_planner(inst) : planner;
  const PlanHead bounded_head = [&](RedistributionPlan& plan) {
    with_lower_bound(plan, inst);
    head(plan);
  };
  if (name == "bi-light") {
    stream_light_circulation(inst, bounded_head, emit, hold_limit);
    return true;
  }
  if (name == "bi-heuristic") {
    stream_general_heuristic(inst, bounded_head, emit, hold_limit);
    return true;
  }
  if (name != "uni-heterogeneous") return false;
  RedistributionPlan plan = algorithm2_head(inst);
  std::size_t blocks = 0;
  stream_algorithm2(inst, plan.send_next, [&](const Transfer& t) {
    BlockBudget::check(++blocks);
    plan.time = std::max(plan.time, t.end);
  });
  with_lower_bound(plan, inst);
  head(plan);
  stream_algorithm2(inst, plan.send_next, emit);
  return true;
}

RedistributionSummary summarize_redistribution(const RingInstance& inst, const std::string& planner) {
  check_plannable(inst);
  const std::string name = planner == "auto" ? choose_planner(inst) : planner;
  const bool lemma1 = name == "uni-homogeneous" && inst.homogeneous();
  if (lemma1 || name == "uni-heterogeneous") {
    // Lemmas 1 and 2: Algorithms 1 and 2 send f_i = delta_{start,i} items over each edge and end
    // at max_i f_i c_(i,i+1), which is also the bound: no schedule needed.
    RedistributionSummary s;
    s.plan.planner = name;
    s.plan.send_next = unidirectional_flows(inst);
    s.plan.send_prev.assign(inst.size(), 0);
    s.plan.time = unidirectional_lower_bound(inst);
    s.basis = lemma1 ? "Lemma 1 (HiPC 2004, Section 3): time = max_i f_i * c, the schedule not built"
                     : "Lemma 2 (HiPC 2004, Section 4): time = max_i f_i * c_(i,i+1), the schedule not built";
    with_lower_bound(s.plan, inst);
    return s;
  }
  if (name == "bi-light" || name == "bi-heuristic") {
    RedistributionSummary s;
    auto without_schedule = name == "bi-light" ? summarize_light_circulation(inst, s.basis) : summarize_general_heuristic(inst, s.basis);
    if (without_schedule) {
      s.plan = std::move(*without_schedule);
      with_lower_bound(s.plan, inst);
      return s;
    }
  }
  RedistributionSummary s{plan_redistribution(inst, name), "the algorithm's schedule, built and then dropped"};
  if (name == "bi-homogeneous-early-late")
    s.basis = "Lemma 3 (HiPC 2004, Section 5): time = its bound, reached by the O(n) schedule of the bound's tightness proof";
  s.plan.transfers.clear();
  s.plan.transfers.shrink_to_fit();
  return s;
}

}  // namespace ringsim::redistribution
