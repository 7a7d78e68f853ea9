#include <doctest/doctest.h>

#include <random>

#include "instances.hpp"
#include "model/replay.hpp"
#include "planners/redistribution/bounds.hpp"
#include "planners/redistribution/planner.hpp"

using namespace ringsim;

TEST_CASE("Algorithm 1 meets Lemma 1 on the slides' example shape") {
  RingInstance inst;
  inst.loads = {6, 1, 4, 2, 7};
  inst.targets = {3, 4, 4, 5, 4};
  inst.cost_next.assign(5, 2.0);
  const auto plan = plan_redistribution(inst, "auto");
  CHECK(plan.algorithm == "uni-homogeneous");
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
      const auto plan = plan_redistribution(inst, algo);
      const auto rep = replay(inst, plan);
      REQUIRE_MESSAGE(rep.ok, "trial " << trial << " " << algo << ": " << rep.error);
      REQUIRE_MESSAGE(plan.time == doctest::Approx(unidirectional_lower_bound(inst)), "trial " << trial);
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
    const auto plan = plan_redistribution(inst, "uni-heterogeneous");
    const auto rep = replay(inst, plan);
    REQUIRE_MESSAGE(rep.ok, "trial " << trial << ": " << rep.error);
    REQUIRE(plan.time == doctest::Approx(unidirectional_lower_bound(inst)));
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
