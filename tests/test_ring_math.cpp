// T_step with alpha_i >= 0, Equation 4, and the bandwidth allocations (SharedRing report,
// Sections 2.1, 4.1-4.3).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "oracles/ring_bruteforce.hpp"
#include "oracles/ring_platforms.hpp"
#include "planners/ring/bandwidth_allocation.hpp"
#include "planners/ring/fractions.hpp"
#include "planners/ring/ring_planner.hpp"
#include "planners/ring/tstep.hpp"

using namespace ringsim;
using namespace ringsim::ring;

namespace {

double weighted_cost(const std::vector<double>& w, const std::vector<double>& f) {
  double s = 0.0;
  for (std::size_t p = 0; p < w.size(); ++p) s += w[p] / f[p];
  return s;
}

bool feasible(const std::vector<double>& f, const std::vector<double>& cap, const std::vector<SharedSet>& sets,
              double tol = 1e-9) {
  for (std::size_t p = 0; p < f.size(); ++p)
    if (!(f[p] > 0) || f[p] > cap[p] * (1 + tol)) return false;
  for (const auto& s : sets) {
    double u = 0.0;
    for (std::size_t p = 0; p < f.size(); ++p)
      if (s.mask >> p & 1) u += f[p];
    if (u > s.capacity * (1 + tol)) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("exact T_step: water filling equals bisection, Equation 4 when every share is >= 0") {
  std::mt19937_64 rng(2005);
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t q = 1 + trial % 12;
    std::vector<double> a(q), b(q);
    for (auto& x : a) x = std::uniform_real_distribution<double>(0.5, 20)(rng);
    const double scale = trial % 3 == 0 ? 10.0 : 0.5;  // sometimes communication dominates
    for (auto& x : b) x = q == 1 ? 0.0 : std::uniform_real_distribution<double>(0, scale)(rng);
    const auto s = balance_shares(a, b);
    const double oracle = oracles::ring_tstep_bisection(a, b);
    REQUIRE(s.tstep == doctest::Approx(oracle).epsilon(1e-12));
    REQUIRE(exact_tstep(a, b) == doctest::Approx(oracle).epsilon(1e-12));
    CHECK(s.eq4 <= s.tstep * (1 + 1e-12));
    double sum = 0.0;
    bool all_positive = true;
    for (std::size_t i = 0; i < q; ++i) {
      REQUIRE(s.alpha[i] >= 0.0);
      sum += s.alpha[i];
      REQUIRE(s.alpha[i] * a[i] + b[i] <= s.tstep * (1 + 1e-12));
      all_positive = all_positive && (s.eq4 - b[i]) / a[i] >= 0;
    }
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-12));
    if (all_positive) CHECK(s.eq4 == doctest::Approx(s.tstep).epsilon(1e-12));
  }
}

TEST_CASE("a member whose communication alone exceeds T gets alpha 0 and still counts") {
  // Two fast members with cheap links and one slow member behind a slow link.
  const std::vector<double> a = {2.0, 2.0, 4.0}, b = {0.1, 0.1, 5.0};
  const auto s = balance_shares(a, b);
  CHECK(s.alpha[2] == 0.0);
  CHECK(s.tstep == doctest::Approx(5.0));  // the slow member's communication
  CHECK(s.eq4 < s.tstep);
  // Balanced without it, the others finish at (1 + 0.05 + 0.05) / (1/2 + 1/2) = 1.1: a member whose
  // communication takes 1.2 gets no work, and T is its 1.2 ...
  const auto s2 = balance_shares({2.0, 2.0, 4.0}, {0.1, 0.1, 1.2});
  CHECK(s2.alpha[2] == 0.0);
  CHECK(s2.alpha[0] == doctest::Approx(0.5));
  CHECK(s2.tstep == doctest::Approx(1.2));
  // ... while at 1.05 it takes a small share: (1.1 + 1.05/4) / 1.25 = 1.09.
  const auto s3 = balance_shares({2.0, 2.0, 4.0}, {0.1, 0.1, 1.05});
  CHECK(s3.alpha[2] == doctest::Approx(0.01));
  CHECK(s3.tstep == doctest::Approx(1.09));
}

TEST_CASE("laminar allocation: optimal (matches the dual method and beats random feasible points)") {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(0.1, 10.0);
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t n = 4;
    std::vector<double> w(n), cap(n);
    for (auto& x : w) x = u(rng);
    for (auto& x : cap) x = trial % 4 == 0 ? kInfinity : u(rng) * 2;
    // The greedy's structure: {0,1} and {2,3} under {0,1,2,3}, plus the pair at the inserted host.
    std::vector<SharedSet> sets = {{0b0011, u(rng)}, {0b1100, u(rng)}, {0b1111, u(rng) * 1.5}};
    if (trial % 2) sets.push_back({0b0001, u(rng)});
    REQUIRE(laminar(sets));
    const auto f = min_weighted_cost_allocation(w, cap, sets);
    REQUIRE(feasible(f, cap, sets));
    const auto g = min_weighted_cost_allocation_dual(w, cap, sets);
    REQUIRE(feasible(g, cap, sets));
    const double cf = weighted_cost(w, f), cg = weighted_cost(w, g);
    CHECK(cf <= cg * (1 + 1e-9));
    CHECK(cg <= cf * (1 + 1e-6));
    for (int s = 0; s < 200; ++s) {  // random feasible points never do better
      std::vector<double> x(n);
      for (std::size_t p = 0; p < n; ++p) x[p] = std::min(cap[p], 20.0) * std::uniform_real_distribution<double>(0.01, 1)(rng);
      double factor = 1.0;
      for (const auto& set : sets) {
        double used = 0.0;
        for (std::size_t p = 0; p < n; ++p)
          if (set.mask >> p & 1) used += x[p];
        factor = std::min(factor, set.capacity / used);
      }
      for (auto& v : x) v *= std::min(1.0, factor);
      REQUIRE(weighted_cost(w, x) >= cf * (1 - 1e-12));
    }
  }
}

TEST_CASE("the greedy's allocation for at most 4 paths answers as the general one") {
  // min_weighted_cost_allocation_small (set capacities by mask, no allocation) against
  // min_weighted_cost_allocation (a list of sets) on random families of 1 to 4 paths: laminar
  // exactly when `laminar` says so, the same fractions, and the square roots given or not the same
  // bits. 4000 seeded instances.
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> u(0.1, 10.0);
  int laminar_seen = 0, other_seen = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const int n = 1 + trial % 4;
    double w[4], root[4], cap[4], set_cap[16];
    for (int p = 0; p < n; ++p) {
      w[p] = u(rng);
      root[p] = std::sqrt(w[p]);
      cap[p] = rng() % 3 == 0 ? kInfinity : u(rng) * 2;
    }
    std::vector<SharedSet> sets;
    for (int m = 0; m < 16; ++m) set_cap[m] = kInfinity;
    for (int m = 1; m < (1 << n); ++m)
      if (rng() % 3 == 0) {
        set_cap[m] = rng() % 10 == 0 ? 0.0 : u(rng);
        sets.push_back({static_cast<std::uint64_t>(m), set_cap[m]});
      }
    const std::vector<double> wv(w, w + n), capv(cap, cap + n);
    const auto general = min_weighted_cost_allocation(wv, capv, sets);
    double f[4] = {-1, -1, -1, -1}, g[4] = {-1, -1, -1, -1}, h[4];
    const bool closed = laminar_allocation_small(n, w, cap, set_cap, f, root);
    CAPTURE(trial);
    REQUIRE(closed == laminar(sets));
    if (closed)
      ++laminar_seen;
    else
      ++other_seen;
    if (!closed)
      for (double x : f) REQUIRE(x == -1);  // left as it was
    min_weighted_cost_allocation_small(n, w, cap, set_cap, g);
    min_weighted_cost_allocation_small(n, w, cap, set_cap, h, root);
    for (int p = 0; p < n; ++p) {
      CAPTURE(p);
      REQUIRE(std::memcmp(&g[p], &h[p], sizeof(double)) == 0);
      if (closed) REQUIRE(std::memcmp(&f[p], &g[p], sizeof(double)) == 0);
      if (std::isnan(general[p]))  // the iterative solve's answer to a set of capacity 0
        CHECK(std::isnan(g[p]));
      else if (std::isinf(general[p]))
        CHECK(std::isinf(g[p]));
      else
        CHECK(g[p] == doctest::Approx(general[p]).epsilon(closed ? 1e-12 : 1e-9));
    }
  }
  CHECK(laminar_seen > 1000);
  CHECK(other_seen > 200);
}

TEST_CASE("non-laminar families go through the dual method and stay feasible") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.1, 10.0);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<double> w = {u(rng), u(rng), u(rng)}, cap(3, kInfinity);
    std::vector<SharedSet> sets = {{0b011, u(rng)}, {0b110, u(rng)}, {0b101, u(rng)}};
    REQUIRE_FALSE(laminar(sets));
    const auto f = min_weighted_cost_allocation(w, cap, sets);
    REQUIRE(feasible(f, cap, sets));
    // Closed-form check of optimality along feasible random directions.
    const double c = weighted_cost(w, f);
    for (int s = 0; s < 300; ++s) {
      std::vector<double> x = {u(rng), u(rng), u(rng)};
      double factor = 1.0;
      for (const auto& set : sets) {
        double used = 0.0;
        for (std::size_t p = 0; p < 3; ++p)
          if (set.mask >> p & 1) used += x[p];
        factor = std::min(factor, set.capacity / used);
      }
      for (auto& v : x) v *= factor;
      REQUIRE(weighted_cost(w, x) >= c * (1 - 1e-7));
    }
  }
}

TEST_CASE("Section 4.2 closed form: k paths on one shared link get bandwidth proportional to sqrt(weight)") {
  const std::vector<double> w = {1.0, 4.0, 9.0};
  const auto f = min_weighted_cost_allocation(w, {kInfinity, kInfinity, kInfinity}, {{0b111, 12.0}});
  CHECK(f[0] == doctest::Approx(2.0));
  CHECK(f[1] == doctest::Approx(4.0));
  CHECK(f[2] == doctest::Approx(6.0));
  // A cap on the heaviest path sends the rest to the others.
  const auto g = min_weighted_cost_allocation(w, {kInfinity, kInfinity, 3.0}, {{0b111, 12.0}});
  CHECK(g[2] == doctest::Approx(3.0));
  CHECK(g[0] == doctest::Approx(3.0));
  CHECK(g[1] == doctest::Approx(6.0));
}

TEST_CASE("max-min fairness: progressive filling on two links") {
  // Paths: 0 crosses A and B, 1 crosses A, 2 crosses B. A = 10, B = 4: path 0 and 2 get 2 on B,
  // then path 1 gets 10 - 2 = 8 on A.
  Platform p;
  p.routing = ZoneRouting::dijkstra;
  p.add_host("x", 1e8);
  p.add_host("y", 1e8);
  p.add_host("z", 1e8);
  const auto a = p.add_link("A", 10, 0);
  const auto b = p.add_link("B", 4, 0);
  const auto c = p.add_link("F", 1, 0, SharingPolicy::fatpipe);
  p.add_edge(0, 1, a);
  p.add_edge(1, 2, b);
  p.add_edge(0, 2, c);
  validate(p);
  const RingNetwork net(p);
  std::vector<double> cap = {10, 4, 1};
  const auto r = maxmin_allocation(net, {{a, b}, {a}, {b}, {c}, {c}}, cap);
  CHECK(r[0] == doctest::Approx(2.0));
  CHECK(r[2] == doctest::Approx(2.0));
  CHECK(r[1] == doctest::Approx(8.0));
  CHECK(r[3] == doctest::Approx(1.0));  // FATPIPE: each path gets it all
  CHECK(r[4] == doctest::Approx(1.0));
}

TEST_CASE("the global fraction solve: never worse than the start, gap reached, agrees with GLPK cutting planes") {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 12; ++trial) {
    testing::RandomPlatformShape shape;
    shape.hosts = 5 + trial % 6;
    shape.routers = 3 + trial % 4;
    shape.extra_edges = trial % 3;
    shape.fatpipe_probability = trial % 4 == 1 ? 0.3 : 0.0;
    const Platform p = testing::random_graph_platform(rng, shape);
    const RingNetwork net(p);
    const Workload load{1e9, 1e9 * (trial % 2 ? 1e-2 : 1e-3)};
    RingOptions opt;
    auto plan = plan_greedy(net, load, Refinement::none, opt);
    if (plan.ring.size() < 2) continue;
    const double before = plan.tstep;
    const auto rep = allocate_optimal(net, load, plan, 1e-7);
    evaluate_plan(net, load, plan);
    CHECK(plan.tstep <= before * (1 + 1e-12));
    CHECK(rep.lower_bound <= plan.tstep * (1 + 1e-9));
    CHECK(rep.gap <= 1e-7);
    CHECK(plan.tstep == doctest::Approx(rep.tstep).epsilon(1e-12));
    CHECK(oracles::check_ring_answer(p, load.work, load.comm, testing::to_answer(net, plan)) == "");
    // An independent algorithm (Kelley's cutting planes, GLPK) brackets the same optimum.
    auto lp_plan = plan;
    const auto lp = allocate_optimal_lp(net, load, lp_plan, 1e-7);
    CHECK(lp.lower_bound <= rep.tstep * (1 + 1e-9));
    CHECK(rep.lower_bound <= lp.tstep * (1 + 1e-9));
    CHECK(lp.tstep == doctest::Approx(rep.tstep).epsilon(2e-7));
  }
}

TEST_CASE("q = 2 closed forms: both paths of a member go to the same neighbour and share its links") {
  Platform p;
  p.routing = ZoneRouting::dijkstra;
  p.add_host("a", 100e6);
  p.add_host("b", 100e6);
  p.add_edge(0, 1, p.add_link("l", 10e6, 1e-3));
  validate(p);
  const RingNetwork net(p);
  const Workload load{1e9, 1e6};
  // Four paths of equal weight on one SHARED link: 2.5 MB/s each, c_pred + c_succ = 0.8 us/B.
  for (const char* m : {"greedy", "greedy-maxmin", "greedy-global", "exhaustive", "tsp-ilp", "tsp-local",
                        "ignore-sharing"}) {
    const auto plan = plan_ring(net, load, m);
    CAPTURE(m);
    REQUIRE(plan.ring.size() == 2);
    CHECK(plan.tstep == doctest::Approx(5.0 + 0.8).epsilon(1e-6));
    REQUIRE(plan.succ.size() == 2);
    CHECK(plan.succ[0].to == plan.pred[0].to);
  }
  // FATPIPE: every path gets the full 10 MB/s.
  p.links[0].sharing = SharingPolicy::fatpipe;
  const RingNetwork fat(p);
  const auto plan = plan_ring(fat, load, "greedy");
  CHECK(plan.tstep == doctest::Approx(5.0 + 0.2));
  // q = 1 when communication is too expensive: the fastest host alone, no path.
  const auto alone = plan_ring(net, {1e9, 1e9}, "greedy");
  CHECK(alone.ring.size() == 1);
  CHECK(alone.succ.empty());
  CHECK(alone.tstep == doctest::Approx(10.0));
}
