// The ring size options of the greedy family (RingOptions::size, max_size): the best ring of
// exactly n hosts, or of at most n, is the one the unrestricted growth went through; no ring of n
// hosts beats it by more than the choice of hosts and order allows (brute force over both).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <optional>
#include <set>
#include <string>

#include "model/errors.hpp"
#include "oracles/ring_bruteforce.hpp"
#include "oracles/ring_platforms.hpp"
#include "oracles/ring_size_bruteforce.hpp"
#include "planners/ring/ring_planner.hpp"

using namespace ringsim;
using namespace ringsim::ring;

namespace {

const char* const kGreedyMethods[] = {"greedy", "greedy-maxmin", "greedy-global"};

// Platforms of 4..7 hosts whose paths are forced, so that the brute force over hosts and orders
// (pair paths, optimal fractions) bounds every ring the planner can build: Full zones (the
// routes) and graph zones that are trees (one simple path per pair).
Platform forced_path_platform(std::mt19937_64& rng, int trial) {
  const std::size_t hosts = 4 + static_cast<std::size_t>(trial % 4);
  if (trial % 2 == 0) return testing::cluster_platform(rng, hosts, trial % 4 == 0);
  testing::RandomPlatformShape shape;
  shape.hosts = hosts;
  shape.routers = 1 + static_cast<std::size_t>(trial % 3);
  shape.extra_edges = 0;
  shape.hosts_are_leaves = trial % 3 != 0;
  shape.fatpipe_probability = trial % 5 == 1 ? 0.3 : 0.0;
  return testing::random_graph_platform(rng, shape);
}

void require_same_prefix(const RingPlan& sized, const RingPlan& full, std::size_t n) {
  REQUIRE(sized.tstep_by_size.size() == n);
  for (std::size_t q = 0; q < n; ++q)
    REQUIRE((sized.tstep_by_size[q] == full.tstep_by_size[q] ||
             (std::isnan(sized.tstep_by_size[q]) && std::isnan(full.tstep_by_size[q]))));
}

}  // namespace

TEST_CASE("--size n: n distinct hosts, the T_step the growth recorded at n, no n-host ring much better") {
  std::mt19937_64 rng(4242);
  int sizes_checked = 0;
  for (int trial = 0; trial < 8; ++trial) {
    const Platform p = forced_path_platform(rng, trial);
    const RingNetwork net(p);
    const std::size_t hosts = net.host_count();
    for (double ratio : {1e-4, 1e-2}) {
      const Workload load{1e9, ratio * 1e9};
      const auto oracle = oracles::best_tstep_by_exact_size(net, load);
      for (const char* m : kGreedyMethods) {
        CAPTURE(trial);
        CAPTURE(ratio);
        CAPTURE(m);
        const auto full = plan_ring(net, load, m);
        REQUIRE(full.tstep_by_size.size() == hosts);
        for (std::size_t n = 1; n <= hosts; ++n) {
          CAPTURE(n);
          RingOptions opt;
          opt.size = n;
          if (std::isnan(full.tstep_by_size[n - 1])) {
            CHECK_THROWS_AS(plan_ring(net, load, m, opt), InputError);
            continue;
          }
          const auto plan = plan_ring(net, load, m, opt);
          REQUIRE(plan.ring.size() == n);
          REQUIRE(std::set<std::size_t>(plan.ring.begin(), plan.ring.end()).size() == n);
          const auto err = oracles::check_ring_answer(p, load.work, load.comm, testing::to_answer(net, plan));
          REQUIRE_MESSAGE(err.empty(), err);
          // The same growth, stopped at n: the sizes up to n recorded bit for bit, and the answer's
          // T_step (recomputed by the common evaluator) is the one recorded at n.
          require_same_prefix(plan, full, n);
          CHECK(plan.tstep == doctest::Approx(full.tstep_by_size[n - 1]).epsilon(1e-12));
          // A heuristic: never below the best ring of n hosts (up to rounding of the bound).
          CHECK(plan.tstep >= oracle[n - 1] * (1 - 1e-9));
          if (n == 1) CHECK(plan.tstep == doctest::Approx(oracle[0]).epsilon(1e-12));  // the fastest host alone
          ++sizes_checked;
        }
      }
    }
  }
  CHECK(sizes_checked > 200);
}

TEST_CASE("--max-size n: the best of the sizes 1..n the growth went through, and with n = all hosts the answer without bounds") {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 12; ++trial) {
    testing::RandomPlatformShape shape;
    shape.hosts = 5 + static_cast<std::size_t>(trial % 6);
    shape.routers = 2 + static_cast<std::size_t>(trial % 4);
    shape.extra_edges = static_cast<std::size_t>(trial % 3);
    shape.hosts_are_leaves = trial % 2 == 0;
    const Platform p = testing::random_graph_platform(rng, shape);
    const RingNetwork net(p);
    const std::size_t hosts = net.host_count();
    const Workload load{1e9, std::pow(10.0, -5.0 + 0.7 * (trial % 5)) * 1e9};
    for (const char* m : kGreedyMethods) {
      CAPTURE(trial);
      CAPTURE(m);
      const auto full = plan_ring(net, load, m);
      for (std::size_t n = 1; n <= hosts; ++n) {
        CAPTURE(n);
        RingOptions opt;
        opt.max_size = n;
        const auto plan = plan_ring(net, load, m, opt);
        require_same_prefix(plan, full, n);
        double best = INFINITY;
        std::size_t best_q = 0;
        for (std::size_t q = 1; q <= n; ++q)
          if (full.tstep_by_size[q - 1] < best) {  // NaN (not reached) never wins
            best = full.tstep_by_size[q - 1];
            best_q = q;
          }
        REQUIRE(plan.ring.size() == best_q);  // ties: the smallest size, as without a bound
        CHECK(plan.tstep == doctest::Approx(best).epsilon(1e-12));
        if (n == hosts) {
          CHECK(plan.ring == full.ring);
          CHECK(plan.tstep == full.tstep);
          CHECK(plan.succ_bw == full.succ_bw);
          CHECK(plan.pred_bw == full.pred_bw);
          CHECK(plan.note == full.note);
        }
      }
    }
  }
}

TEST_CASE("impossible sizes are refused: 0, more than the hosts, both bounds, methods that do not grow a ring") {
  std::mt19937_64 rng(7);
  const Platform p = testing::cluster_platform(rng, 5, false);
  const RingNetwork net(p);
  const Workload load{1e9, 1e6};
  auto with = [](std::optional<std::size_t> size, std::optional<std::size_t> max_size) {
    RingOptions opt;
    opt.size = size;
    opt.max_size = max_size;
    return opt;
  };
  for (const char* m : kGreedyMethods) {
    CAPTURE(m);
    CHECK_THROWS_WITH_AS(plan_ring(net, load, m, with(0, {})), doctest::Contains("--size must be"), InputError);
    CHECK_THROWS_WITH_AS(plan_ring(net, load, m, with({}, 0)), doctest::Contains("--max-size must be"), InputError);
    CHECK_THROWS_WITH_AS(plan_ring(net, load, m, with(6, {})), doctest::Contains("only 5 candidate hosts"),
                         InputError);
    CHECK_THROWS_WITH_AS(plan_ring(net, load, m, with({}, 6)), doctest::Contains("only 5 candidate hosts"),
                         InputError);
    CHECK_THROWS_WITH_AS(plan_ring(net, load, m, with(3, 3)), doctest::Contains("exclude each other"), InputError);
    CHECK(plan_ring(net, load, m, with(5, {})).ring.size() == 5);
  }
  for (const char* m : {"exhaustive", "tsp-ilp", "tsp-local", "ignore-sharing"}) {
    CAPTURE(m);
    CHECK_THROWS_WITH_AS(plan_ring(net, load, m, with(3, {})), doctest::Contains("methods that grow a ring"),
                         InputError);
    CHECK_THROWS_WITH_AS(plan_ring(net, load, m, with({}, 3)), doctest::Contains("methods that grow a ring"),
                         InputError);
  }
  // Called directly, the greedy checks its options too.
  CHECK_THROWS_AS(plan_greedy(net, load, Refinement::none, with(0, {})), InputError);
}

TEST_CASE("--size beyond where the greedy stops growing is refused, and --max-size keeps the sizes it reached") {
  // Full zone: a, b, c joined pairwise by their own links U (a-b), V (b-c), W (a-c); x reaches
  // each of them only through all three. Max-min fairness saturates every link, so once a, b, c
  // form the ring, inserting x anywhere gives back one of the three links and x finds the two
  // others full: the growth stops at 3 of 4 hosts.
  Platform p;
  p.routing = ZoneRouting::full;
  for (const char* h : {"a", "b", "c"}) p.add_host(h, 1e9);
  p.add_host("x", 1e8);
  const std::size_t U = p.add_link("U", 1e7, 1e-4), V = p.add_link("V", 1e7, 1e-4), W = p.add_link("W", 1e7, 1e-4);
  testing::add_route_per_pair(p, [&](std::size_t s, std::size_t d) -> std::vector<std::size_t> {
    if (s == 3 || d == 3) return {U, V, W};
    const std::size_t lo = std::min(s, d), hi = std::max(s, d);
    return {lo == 0 && hi == 1 ? U : lo == 1 && hi == 2 ? V : W};
  });
  const RingNetwork net(p);
  const Workload load{1e9, 1e4};
  const auto full = plan_ring(net, load, "greedy-maxmin");
  REQUIRE(full.tstep_by_size.size() == 4);
  REQUIRE(std::isfinite(full.tstep_by_size[2]));
  REQUIRE(std::isnan(full.tstep_by_size[3]));
  CHECK(full.note.find("stopped growing at 3") != std::string::npos);
  RingOptions exactly, at_most;
  exactly.size = 4;
  at_most.max_size = 4;
  CHECK_THROWS_WITH_AS(plan_ring(net, load, "greedy-maxmin", exactly), doctest::Contains("stopped growing at 3"),
                       InputError);
  const auto plan = plan_ring(net, load, "greedy-maxmin", at_most);
  CHECK(plan.ring == full.ring);
  CHECK(plan.note == full.note);
  exactly.size = 3;
  CHECK(plan_ring(net, load, "greedy-maxmin", exactly).ring.size() == 3);
}
