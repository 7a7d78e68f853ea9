// Unidirectional rings (HiPC 2004: Algorithm 1, homogeneous, Section 3; Algorithm 2,
// heterogeneous, Section 4): Lemma 1 and Lemma 2 reached on the slides' example and on thousands of
// seeded instances; Algorithm 2's forwarded runs as paced blocks and by runs, the same schedule as
// item by item; its streamed JSON the plan's very text, a block budget refused before any block.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include <memory>
#include <sstream>
#include <string>

#include "instances.hpp"
#include "streamed_plan.hpp"
#include "io/redistribution_json.hpp"
#include "model/errors.hpp"
#include "planners/redistribution/block_budget.hpp"
#include "model/replay.hpp"
#include "planners/redistribution/asap_schedule.hpp"
#include "planners/redistribution/bounds.hpp"
#include "planners/redistribution/redistribution_planner.hpp"
#include "trial_count.hpp"

using namespace ringsim;

TEST_CASE("Algorithm 1 meets Lemma 1 on the slides' example shape") {
  RingInstance inst;
  inst.loads = {6, 1, 4, 2, 7};
  inst.targets = {3, 4, 4, 5, 4};
  inst.cost_next.assign(5, 2.0);
  const auto plan = redistribution::plan_redistribution(inst, "auto");
  CHECK(plan.planner == "uni-homogeneous");
  const auto rep = replay(inst, plan);
  CHECK_MESSAGE(rep.ok, rep.error);
  CHECK(plan.optimal);
  CHECK(plan.time == doctest::Approx(plan.lower_bound));
}

TEST_CASE("unidirectional algorithms reach Lemma 1 / Lemma 2 on thousands of seeded instances") {
  std::mt19937_64 rng(20041219);
  for (int trial = 0; trial < 3000; ++trial) {
    testing::InstanceShape shape;
    shape.bidirectional = false;
    shape.n = 2 + trial % 40 + (trial % 97 == 0 ? 250 : 0);
    shape.homogeneous = trial % 2 == 0;
    shape.integer_costs = trial % 3 != 0;
    shape.max_load = 1 + trial % 30;
    shape.max_cost = 6;
    const auto inst = testing::random_instance(rng, shape);
    for (const char* algo : {"auto", "uni-heterogeneous"}) {
      const auto plan = redistribution::plan_redistribution(inst, algo);
      const auto rep = replay(inst, plan);
      REQUIRE_MESSAGE(rep.ok, "trial " << trial << " " << algo << ": " << rep.error);
      REQUIRE_MESSAGE(plan.time == doctest::Approx(redistribution::unidirectional_lower_bound(inst)), "trial " << trial);
      REQUIRE(plan.optimal);
    }
  }
}

// Algorithm 2 forwards items from a slower link as they arrive: each such run is one paced block.
// Counted against the blocks an item-by-item schedule has (a block per run of back-to-back items).
TEST_CASE("Algorithm 2 writes forwarded runs as paced blocks: fewer blocks, the same schedule") {
  std::mt19937_64 rng(77);
  std::size_t paced = 0, blocks = 0, unpaced_blocks = 0;
  for (int trial = 0; trial < 400; ++trial) {
    testing::InstanceShape shape;
    shape.bidirectional = false;
    shape.homogeneous = false;
    shape.integer_costs = trial % 2 == 0;
    shape.n = 3 + trial % 20;
    shape.max_load = 40;
    shape.max_cost = 5;
    const auto inst = testing::random_instance(rng, shape);
    const auto plan = redistribution::plan_redistribution(inst, "uni-heterogeneous");
    const auto rep = replay(inst, plan);
    REQUIRE_MESSAGE(rep.ok, "trial " << trial << ": " << rep.error);
    REQUIRE(plan.time == doctest::Approx(redistribution::unidirectional_lower_bound(inst)));
    for (const auto& t : plan.transfers) {
      blocks += 1;
      if (t.period == 0.0) {
        unpaced_blocks += 1;
        continue;
      }
      ++paced;
      // The pace is that of a slower link upstream; each item of a paced block would have been a
      // block of its own.
      CHECK(t.period > inst.cost_next[t.from]);
      unpaced_blocks += static_cast<std::size_t>(t.items);
    }
  }
  CHECK(paced > 100);
  CHECK(blocks < unpaced_blocks);
}

// Algorithm 2 by runs of items against an independent item-by-item execution of its counts (the
// event-driven executor of the bidirectional algorithms, asap_schedule.hpp, which on a
// unidirectional ring has no contested port): every item leaves at the same time, exactly with
// integer costs and to rounding with real ones.
TEST_CASE("Algorithm 2 by runs sends every item when the item-by-item execution does") {
  std::mt19937_64 rng(4242);
  int exact = 0, rounded = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    testing::InstanceShape shape;
    shape.bidirectional = false;
    shape.homogeneous = trial % 10 == 0;
    shape.integer_costs = trial % 2 == 0;
    shape.n = 2 + trial % 31;
    shape.max_load = 1 + trial % 60;
    shape.max_cost = 2 + trial % 6;
    const auto inst = testing::random_instance(rng, shape);
    const auto plan = redistribution::plan_redistribution(inst, "uni-heterogeneous");
    redistribution::AsapRules rules;
    rules.paced_blocks = false;
    const auto items = redistribution::schedule_asap(inst, plan.send_next, {}, rules);
    auto departures_of = [&](const std::vector<Transfer>& blocks) {
      std::vector<std::pair<std::size_t, double>> d;
      for (const auto& t : blocks)
        for (Count m = 0; m < t.items; ++m) d.emplace_back(t.from, departure(t, m, inst.cost_next[t.from]));
      std::sort(d.begin(), d.end());
      return d;
    };
    const auto a = departures_of(plan.transfers), b = departures_of(items);
    INFO("trial " << trial);
    REQUIRE(a.size() == b.size());
    const bool exact_costs = shape.homogeneous || shape.integer_costs;
    for (std::size_t k = 0; k < a.size(); ++k) {
      REQUIRE(a[k].first == b[k].first);
      if (exact_costs) REQUIRE(a[k].second == b[k].second);
      else REQUIRE(a[k].second == doctest::Approx(b[k].second).epsilon(1e-12));
    }
    (exact_costs ? exact : rounded) += 1;
  }
  CHECK(exact > 900);
  CHECK(rounded > 900);
}

TEST_CASE("uni-heterogeneous streams its schedule: the very JSON text of the plan, a budget refused before any block") {
  std::mt19937_64 rng(20261123);
  int streamed = 0;
  const int trials = testing::trials(3000);
  for (int trial = 0; trial < trials; ++trial) {
    testing::InstanceShape shape;
    shape.bidirectional = false;
    shape.n = 2 + trial % 60 + (trial % 101 == 0 ? 900 : 0);
    shape.homogeneous = trial % 5 == 0;
    shape.integer_costs = trial % 3 != 0;
    shape.max_load = 1 + trial % 40;
    shape.max_cost = 7;
    const auto inst = testing::random_instance(rng, shape);
    for (const char* algo : {"auto", "uni-heterogeneous", "uni-homogeneous"}) {
      if (std::string(algo) == "uni-homogeneous" && !inst.homogeneous()) continue;
      const auto streamed_plan = testing::stream_plan(inst, algo);
      const RedistributionPlan plan = redistribution::plan_redistribution(inst, algo);
      // Only Algorithm 2 streams; `auto` on a homogeneous ring is Algorithm 1, which does not.
      CHECK(streamed_plan.streamed == (plan.planner == "uni-heterogeneous"));
      if (!streamed_plan.streamed) {
        CHECK(streamed_plan.text.empty());
        continue;
      }
      ++streamed;
      CHECK(streamed_plan.text == io::plan_to_json_text(plan));
      RedistributionPlan replayed = plan;
      replayed.transfers = streamed_plan.blocks;
      const ReplayReport rep = replay(inst, replayed);
      CHECK_MESSAGE(rep.ok, rep.error);
      // A budget one block short is refused before the head, or any block, is handed out.
      if (plan.transfers.size() > 1) {
        const redistribution::BlockBudget budget(plan.transfers.size() - 1);
        bool handed = false;
        CHECK_THROWS_AS(redistribution::stream_redistribution(
                            inst, algo, [&](const RedistributionPlan&) { handed = true; },
                            [&](const Transfer&) { handed = true; }),
                        InputError);
        CHECK_FALSE(handed);
      }
    }
  }
  CHECK(streamed > 2 * trials / 3);
}
