// The complete-graph methods (slides): exhaustive search against an independent brute force, the
// TSP methods against the best tour, widest paths against a brute-force bottleneck.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "model/errors.hpp"
#include "oracles/ring_bruteforce.hpp"
#include "oracles/ring_platforms.hpp"
#include "planners/ring/complete_graph.hpp"
#include "planners/ring/ring_planner.hpp"
#include "repo_files.hpp"

using namespace ringsim;
using namespace ringsim::ring;

namespace {

using ringsim::testing::host_speeds;

// Costs c_ij = 1 / bottleneck, the bottleneck computed by the oracle (not by RingNetwork).
std::vector<std::vector<double>> oracle_costs(const Platform& p) {
  const auto hosts = p.host_indices();
  std::vector<std::vector<double>> c(hosts.size(), std::vector<double>(hosts.size(), 0.0));
  for (std::size_t i = 0; i < hosts.size(); ++i)
    for (std::size_t j = 0; j < hosts.size(); ++j)
      if (i != j) c[i][j] = 1.0 / oracles::bottleneck_bruteforce(p, hosts[i], hosts[j]);
  return c;
}

}  // namespace

TEST_CASE("widest bottlenecks equal a brute-force threshold search") {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 30; ++trial) {
    testing::RandomPlatformShape shape;
    shape.hosts = 3 + trial % 6;
    shape.routers = trial % 6;
    shape.extra_edges = trial % 5;
    shape.discrete_bandwidths = trial % 2 == 0;
    const Platform p = testing::random_graph_platform(rng, shape);
    const RingNetwork net(p);
    const auto hosts = p.host_indices();
    for (std::size_t i = 0; i < hosts.size(); ++i)
      for (std::size_t j = 0; j < hosts.size(); ++j)
        if (i != j) REQUIRE(net.full_bandwidth(i, j) == oracles::bottleneck_bruteforce(p, hosts[i], hosts[j]));
  }
}

TEST_CASE("exhaustive: its objective equals an independent brute force over every subset and order") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 30; ++trial) {
    testing::RandomPlatformShape shape;
    shape.hosts = 2 + trial % 6;  // up to 7 hosts: 7! orders per subset in the oracle
    shape.routers = trial % 4;
    shape.extra_edges = trial % 3;
    shape.hosts_are_leaves = trial % 3 == 0 && shape.routers > 0;
    const Platform p = testing::random_graph_platform(rng, shape);
    const RingNetwork net(p);
    const Workload load{1e9, std::pow(10.0, -5.0 + trial % 5) * 1e9};
    const auto plan = plan_ring(net, load, "exhaustive");
    const double oracle = oracles::brute_force_complete_graph(host_speeds(p), oracle_costs(p), load.work, load.comm);
    CAPTURE(trial);
    REQUIRE(plan.objective == doctest::Approx(oracle).epsilon(1e-12));
    REQUIRE(plan.optimal.value_or(false));
    // Sharing can only make it worse.
    CHECK(plan.tstep >= plan.objective * (1 - 1e-9));
  }
}

TEST_CASE("exhaustive on complete graphs of FATPIPE links: nothing is shared, T_step is the brute-force optimum") {
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 12; ++trial) {
    const Platform p = testing::complete_graph_platform(rng, 2 + trial % 6, true);
    const RingNetwork net(p);
    const Workload load{1e9, std::pow(10.0, -4.0 + trial % 4) * 1e9};
    const auto plan = plan_ring(net, load, "exhaustive");
    const double oracle = oracles::brute_force_complete_graph(host_speeds(p), oracle_costs(p), load.work, load.comm);
    CHECK(plan.tstep == doctest::Approx(oracle).epsilon(1e-9));
    // Without sharing, greedy's answer is also a complete-graph ring: never better than the optimum.
    CHECK(plan_ring(net, load, "greedy").tstep >= oracle * (1 - 1e-9));
  }
}

TEST_CASE("tsp-ilp finds the best tour, tsp-local is never better, exhaustive refuses 11 hosts") {
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 10; ++trial) {
    testing::RandomPlatformShape shape;
    shape.hosts = 4 + trial % 5;
    shape.routers = 2;
    shape.extra_edges = 2;
    shape.discrete_bandwidths = false;
    const Platform p = testing::random_graph_platform(rng, shape);
    const RingNetwork net(p);
    const Workload load{1e9, 1e-6 * 1e9};
    const CompleteGraph g(net, load);
    // Best tour weight by brute force over the orders starting at host 0.
    std::vector<std::size_t> order(p.host_count());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    double best = INFINITY;
    do best = std::min(best, tour_weight(g, order));
    while (std::next_permutation(order.begin() + 1, order.end()));
    const auto ilp = plan_ring(net, load, "tsp-ilp");
    REQUIRE(ilp.optimal.value_or(false));
    CHECK(tour_weight(g, ilp.ring) == doctest::Approx(best).epsilon(1e-9));
    const auto local = plan_ring(net, load, "tsp-local");
    CHECK(tour_weight(g, local.ring) >= best * (1 - 1e-12));
    CHECK(ilp.ring.size() == p.host_count());
    CHECK(local.ring.size() == p.host_count());
  }
  testing::RandomPlatformShape big;
  big.hosts = 11;
  const Platform p = testing::random_graph_platform(rng, big);
  const RingNetwork net(p);
  CHECK_THROWS_AS(plan_ring(net, {1e9, 1e6}, "exhaustive"), InputError);
}

TEST_CASE("ignore-sharing (H1) vs greedy (H2): sharing awareness pays on a star") {
  // Six equal hosts on one LAN switch whose links are slow: H1 believes every pair has the whole
  // link, H2 knows that each host link carries four paths.
  Platform p;
  p.routing = ZoneRouting::dijkstra;
  const auto sw = p.add_router("switch");
  for (int h = 0; h < 6; ++h) {
    const auto n = p.add_host("h" + std::to_string(h), 100e6);
    p.add_edge(n, sw, p.add_link("l" + std::to_string(h), 10e6, 1e-4));
  }
  validate(p);
  const RingNetwork net(p);
  for (double ratio : {1e-4, 1e-3, 3e-3}) {
    const Workload load{1e9, ratio * 1e9};
    const auto h1 = plan_ring(net, load, "ignore-sharing");
    const auto h2 = plan_ring(net, load, "greedy");
    const auto ex = plan_ring(net, load, "exhaustive");
    CAPTURE(ratio);
    CHECK(h2.tstep <= h1.tstep * (1 + 1e-9));
    CHECK(h1.objective <= h1.tstep);
    CHECK(ex.objective <= h1.objective * (1 + 1e-12));
  }
}
