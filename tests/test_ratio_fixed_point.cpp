// The planner's ring for a ratio: the fixed point between the ring and the work its own ratio
// implies (planners/ring/ratio_fixed_point.hpp).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "model/tiers_generator.hpp"
#include "planners/ring/ratio_fixed_point.hpp"
#include "planners/ring/ring_network.hpp"

using namespace ringsim;
using namespace ringsim::ring;

static RingPlan ring_of(std::vector<std::size_t> hosts, double tstep) {
  RingPlan p;
  p.ring = std::move(hosts);
  p.tstep = tstep;
  return p;
}

TEST_CASE("ratio fixed point stops when the ring planned for its own work repeats") {
  int plans = 0;
  // Work below 10 chooses ring {0,1}, above it ring {2,3}; both rings imply work 20.
  const RatioRing r = ratio_fixed_point(
      [&](double w) { ++plans; return w < 10 ? ring_of({0, 1}, 1.0) : ring_of({2, 3}, 2.0); },
      [](const RingPlan&) { return 20.0; }, [](const RingPlan& p, double) { return p.tstep; }, 1.0);
  CHECK(r.converged);
  CHECK(r.plan.ring == std::vector<std::size_t>{2, 3});
  CHECK(r.work == 20.0);
  CHECK(r.rounds == 3);
  CHECK(plans == 3);
}

TEST_CASE("ratio fixed point keeps the best ring of a cycle under its own work") {
  // Ring A implies a work that chooses B, and B one that chooses A: a cycle of two.
  const RatioRing r = ratio_fixed_point(
      [](double w) { return w < 10 ? ring_of({0, 1}, 5.0) : ring_of({1, 2}, 3.0); },
      [](const RingPlan& p) { return p.ring.front() == 0 ? 20.0 : 1.0; },
      [](const RingPlan& p, double) { return p.ring.front() == 0 ? 4.0 : 7.0; }, 1.0);
  CHECK_FALSE(r.converged);
  CHECK(r.plan.ring == std::vector<std::size_t>{0, 1});
  CHECK(r.tstep == 4.0);
  CHECK(r.rounds == 3);
}

TEST_CASE("ratio fixed point is bounded in rounds") {
  double next = 0.0;
  const RatioRing r = ratio_fixed_point(
      [&](double) { next += 1.0; return ring_of({static_cast<std::size_t>(next)}, next); },
      [&](const RingPlan&) { return next; }, [](const RingPlan& p, double) { return p.tstep; }, 1.0, 5);
  CHECK_FALSE(r.converged);
  CHECK(r.rounds == 5);
  CHECK(r.tstep == 1.0);
}

TEST_CASE("the planner's ring realizes the requested ratio on seeded random platforms") {
  for (std::uint64_t seed = 1; seed <= 6; ++seed)
    for (double ratio : {1e-3, 1.0, 1e3}) {
      CAPTURE(seed);
      CAPTURE(ratio);
      const Platform p = tiers_platform_with_hosts(8, seed, TiersShape{});
      const RingNetwork net(p);
      const double columns = 100, bytes = 8000;
      const RatioRing r = plan_ring_for_ratio(net, ratio, columns, bytes, 1e6, "greedy");
      REQUIRE(r.rounds >= 1);
      CHECK(r.rounds <= 8);
      const double column_time = mean_neighbour_column_time(net, r.plan, bytes);
      const double realized = r.work / (columns * column_time * mean_member_speed(net, r.plan));
      CHECK(realized == doctest::Approx(ratio).epsilon(1e-12));
      if (r.converged) CHECK(r.planned_for == doctest::Approx(r.work).epsilon(1e-9));
      if (r.converged) CHECK(r.tstep == doctest::Approx(tstep_under_work(net, r.plan, r.work)));
      MESSAGE("seed " << seed << " ratio " << ratio << ": " << r.rounds << " rounds, converged " << r.converged << ", q " << r.plan.ring.size());
    }
}
