// `redistribute --summary` and `--max-blocks`: the summary answers what the full plan answers
// (time, bound, optimality, per-link counts), from the lemmas' closed forms where the paper gives
// them; a block budget refuses a larger schedule with InputError and changes nothing otherwise.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "instances.hpp"
#include "model/errors.hpp"
#include "planners/redistribution/block_budget.hpp"
#include "planners/redistribution/redistribution_planner.hpp"

using namespace ringsim;
using ringsim::testing::InstanceShape;
using ringsim::testing::random_instance;

namespace {

bool same_time(double a, double b) { return std::fabs(a - b) <= 1e-12 * std::max(1.0, std::fabs(b)); }

// Returns whether the summary's time was computed by runs of items (lemma4_runs.hpp).
bool check_summary_matches(const RingInstance& inst, const std::string& planner) {
  const RedistributionPlan full = redistribution::plan_redistribution(inst, planner);
  const redistribution::RedistributionSummary s = redistribution::summarize_redistribution(inst, planner);
  CHECK(s.plan.transfers.empty());
  CHECK(s.plan.planner == full.planner);
  CHECK(s.plan.send_next == full.send_next);
  CHECK(s.plan.send_prev == full.send_prev);
  CHECK(s.plan.lower_bound == full.lower_bound);
  CHECK(s.plan.optimal == full.optimal);
  CHECK(same_time(s.plan.time, full.time));
  // Lemmas 1-4 where the paper gives the time: unidirectional rings, the schedule of Lemma 3's
  // tightness proof, light instances of System 2.
  const bool closed_form = full.planner.rfind("uni-", 0) == 0 || full.planner == "bi-homogeneous-early-late" ||
                           (full.planner == "bi-light" && full.notes.empty());
  if ((full.planner == "bi-light" && !full.notes.empty()) || full.planner == "bi-heuristic")  // runs where they apply
    CHECK((s.basis.find("by runs") != std::string::npos || s.basis.find("built and then dropped") != std::string::npos));
  else
    CHECK((s.basis.find("Lemma") != std::string::npos) == closed_form);
  return s.basis.find("by runs") != std::string::npos;
}

// The k-th of a seeded series of shapes: sizes, directions, costs and loads cycling independently.
RingInstance varied_instance(std::mt19937_64& rng, int k, std::size_t smallest, std::size_t sizes, Count max_load) {
  InstanceShape shape;
  shape.n = smallest + static_cast<std::size_t>(k) % sizes;
  shape.bidirectional = k % 2 == 0;
  shape.homogeneous = k % 3 == 0;
  shape.integer_costs = k % 5 != 0;
  shape.max_load = max_load;
  return random_instance(rng, shape);
}

}  // namespace

TEST_CASE("the summary equals the full plan on thousands of seeded instances, every algorithm that applies") {
  std::mt19937_64 rng(20261123);
  int compared = 0, by_runs = 0;
  for (int k = 0; k < 3000; ++k) {
    const RingInstance inst = varied_instance(rng, k, 2, 11, 2 + k % 13);
    std::vector<std::string> algorithms{"auto"};
    if (!inst.bidirectional) {
      algorithms.push_back("uni-heterogeneous");
      if (inst.homogeneous()) algorithms.push_back("uni-homogeneous");
    } else {
      algorithms.insert(algorithms.end(), {"bi-light", "bi-heuristic", "uni-heterogeneous"});
      if (inst.homogeneous()) algorithms.insert(algorithms.end(), {"bi-homogeneous", "bi-homogeneous-early-late"});
    }
    for (const auto& a : algorithms) {
      CAPTURE(k);
      CAPTURE(a);
      by_runs += check_summary_matches(inst, a);
      ++compared;
    }
  }
  CHECK(compared > 9000);
  CHECK(by_runs > 500);  // bi-light off light instances, bi-heuristic whose first schedule meets the bound
  MESSAGE(compared << " summaries, " << by_runs << " of them timed by runs of items");
}

TEST_CASE("the summary refuses what the full planner refuses") {
  RingInstance inst;
  inst.loads = {5, 1, 3};
  inst.targets = {3, 3, 3};
  inst.cost_next = {1.0, 2.0, 1.0};
  CHECK_THROWS_AS(redistribution::summarize_redistribution(inst, "uni-homogeneous"), std::invalid_argument);
  CHECK_THROWS_AS(redistribution::plan_redistribution(inst, "uni-homogeneous"), std::invalid_argument);
  inst.targets = {3, 3, 4};
  CHECK_THROWS_AS(redistribution::summarize_redistribution(inst), InputError);
}

TEST_CASE("a block budget refuses a larger schedule with one clear error and leaves smaller ones alone") {
  std::mt19937_64 rng(7);
  int refused = 0;
  for (int k = 0; k < 500; ++k) {
    const RingInstance inst = varied_instance(rng, k, 3, 9, 12);
    const RedistributionPlan free_plan = redistribution::plan_redistribution(inst);
    const std::size_t blocks = free_plan.transfers.size();
    {
      const redistribution::BlockBudget budget(blocks);
      const RedistributionPlan within = redistribution::plan_redistribution(inst);
      CHECK(within.transfers.size() == blocks);
      CHECK(within.time == free_plan.time);
    }
    if (blocks < 2) continue;
    const redistribution::BlockBudget budget(blocks - 1);
    try {
      redistribution::plan_redistribution(inst);
      FAIL("a schedule of " << blocks << " blocks passed a budget of " << blocks - 1);
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find("more than " + std::to_string(blocks - 1) + " transfer blocks") !=
            std::string::npos);
      ++refused;
    }
  }
  CHECK(refused > 200);
  // The guard restores the budget it replaced: none again here.
  InstanceShape big;
  big.n = 64;
  big.bidirectional = false;
  big.homogeneous = false;
  big.max_load = 40;
  std::mt19937_64 rng2(3);
  CHECK_NOTHROW(redistribution::plan_redistribution(random_instance(rng2, big)));
}
