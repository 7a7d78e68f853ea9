// System 2 of HiPC 2004 (Section 6) solved through its circulation
// (src/planners/redistribution/system2_circulation.hpp): the binary search against a scan of every
// x, the items each processor sends, and bi-light's Lemma 4 schedule meeting the optimum on light
// instances, in closed form as the item-by-item executor plays it.
#include <doctest/doctest.h>

#include <limits>
#include <random>

#include "instances.hpp"
#include "model/replay.hpp"
#include "planners/redistribution/asap_schedule.hpp"
#include "planners/redistribution/bounds.hpp"
#include "planners/redistribution/redistribution_planner.hpp"
#include "planners/redistribution/ring_math.hpp"
#include "planners/redistribution/system2_circulation.hpp"

using namespace ringsim;

TEST_CASE("binary search on the circulation finds the integer optimum of System 2 (vs scanning every x)") {
  std::mt19937_64 rng(6);
  for (int trial = 0; trial < 3000; ++trial) {
    testing::InstanceShape shape;
    shape.n = 2 + trial % 25;
    shape.homogeneous = trial % 5 == 0;
    shape.integer_costs = trial % 2 == 0;
    shape.max_load = 1 + trial % 20;
    const auto inst = testing::random_instance(rng, shape);
    const auto delta = redistribution::imbalances(inst);
    const auto F = redistribution::prefix_imbalances(delta);
    const auto opt = redistribution::optimal_integer_circulation(inst);
    const Count span = redistribution::max_slice_imbalance(F) + 3;
    double best = std::numeric_limits<double>::infinity();
    Count lo = 0, hi = 0;
    bool light_exists = false;
    for (Count x = -span - F.front(); x <= span - F.front(); ++x) {
      const double t = redistribution::system2_time(inst, F, x);
      if (t < best - 1e-12) { best = t; lo = hi = x; } else if (t <= best + 1e-12) hi = x;
    }
    for (Count x = lo; x <= hi; ++x) {
      bool light = true;
      for (std::size_t i = 0; i < inst.size(); ++i) light = light && redistribution::items_sent(delta, F, i, x) <= inst.loads[i];
      light_exists = light_exists || light;
    }
    REQUIRE_MESSAGE(opt.tau == doctest::Approx(best), "trial " << trial);
    REQUIRE(opt.x_min == lo);
    REQUIRE(opt.x_max == hi);
    REQUIRE(opt.light == light_exists);
  }
}

TEST_CASE("items_sent counts what the net flows make each processor send") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 500; ++trial) {
    testing::InstanceShape shape;
    shape.n = 2 + trial % 9;
    const auto inst = testing::random_instance(rng, shape);
    const auto delta = redistribution::imbalances(inst);
    const auto F = redistribution::prefix_imbalances(delta);
    for (Count x = -10; x <= 10; ++x) {
      const auto f = redistribution::flows_for_circulation(F, x);
      for (std::size_t i = 0; i < inst.size(); ++i)
        REQUIRE(redistribution::items_sent(delta, F, i, x) == f.send_next[i] + f.send_prev[i]);
    }
  }
}

TEST_CASE("bi-light: the Lemma 4 schedule meets the System 2 optimum on light instances") {
  std::mt19937_64 rng(8);
  int light = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    testing::InstanceShape shape;
    shape.n = 2 + trial % 60 + (trial % 101 == 0 ? 200 : 0);
    shape.homogeneous = false;
    shape.integer_costs = trial % 2 == 0;
    shape.max_load = 2 + trial % 40;
    const auto inst = testing::random_instance(rng, shape);
    const auto opt = redistribution::optimal_integer_circulation(inst);
    const auto plan = redistribution::plan_redistribution(inst, "bi-light");
    const auto rep = replay(inst, plan);
    REQUIRE_MESSAGE(rep.ok, "trial " << trial << ": " << rep.error);
    REQUIRE(plan.time >= opt.tau - 1e-9 * std::max(1.0, opt.tau));
    if (opt.light) {
      ++light;
      REQUIRE_MESSAGE(plan.time == doctest::Approx(opt.tau), "trial " << trial);
      REQUIRE(plan.optimal);
    }
  }
  MESSAGE(light << " of 4000 instances were light");
  CHECK(light > 300);  // the property above must not be vacuous
}

TEST_CASE("Lemma 4 in closed form and the item-by-item executor agree on light instances") {
  std::mt19937_64 rng(9);
  int compared = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    testing::InstanceShape shape;
    shape.n = 2 + trial % 30;
    shape.homogeneous = false;
    shape.integer_costs = trial % 2 == 0;
    shape.max_load = 10 + trial % 30;
    const auto inst = testing::random_instance(rng, shape);
    const auto opt = redistribution::optimal_integer_circulation(inst);
    if (!opt.light) continue;
    ++compared;
    const auto flows = redistribution::flows_for_circulation(redistribution::prefix_imbalances(redistribution::imbalances(inst)), opt.x);
    const auto asap = redistribution::schedule_asap(inst, flows.send_next, flows.send_prev, redistribution::PortPolicy::next_then_prev);
    const auto plan = redistribution::plan_redistribution(inst, "bi-light");
    REQUIRE(redistribution::makespan(asap) == doctest::Approx(plan.time));
  }
  CHECK(compared > 300);  // not vacuous
}
