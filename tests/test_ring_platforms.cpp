// Ring construction on small hand-built platforms (a Dijkstra zone with a widest detour, a Full
// zone with a FATPIPE backbone), and the JSON answer's contract. The platforms are built in code
// with the model API, as the SimGrid XML 4.1 files they replace would have read: same node, link,
// edge and route order, values in SI units (flop/s, bytes/s, s; SimGrid's unit suffixes
// converted as io/units.cpp does: "100Mf" = 100 * 1e6, "10MBps" = 10 * 1e6, "100us" = 100 * 1e-6).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "io/ring_json.hpp"
#include "model/platform_graph.hpp"
#include "oracles/ring_bruteforce.hpp"
#include "oracles/ring_platforms.hpp"
#include "planners/ring/ring_planner.hpp"

using namespace ringsim;
using namespace ringsim::ring;

namespace {

// SimGrid's unit factors (io/units.cpp): each value is number * factor, computed as the unit
// parser computes it, so the doubles are the very ones the XML text gave.
constexpr double kMf = 1e6;    // Mf
constexpr double kGf = 1e9;    // Gf
constexpr double kMBps = 1e6;  // MBps
constexpr double kMs = 1e-3;   // ms
constexpr double kUs = 1e-6;   // us

// Two LANs; between their routers a slow direct WAN link and a faster detour through a third
// router (widest paths must take the detour). A Dijkstra zone "AS0":
//   hosts a1 (100Mf), a2 (80Mf), a3 (120Mf), b1 (100Mf), b2 (60Mf); routers ra, rb, rc;
//   links la1 la2 la3 lb1 lb2 (10MBps, 100us), slow (1MBps, 1ms), d1 d2 (5MBps, 5ms);
//   symmetrical one-link routes a1-ra, a2-ra, a3-ra, b1-rb, b2-rb, ra-rb (slow), ra-rc (d1),
//   rc-rb (d2), each an edge.
Platform two_lans() {
  Platform p;
  p.zone_name = "AS0";
  p.routing = ZoneRouting::dijkstra;
  const auto a1 = p.add_host("a1", 100 * kMf);
  const auto a2 = p.add_host("a2", 80 * kMf);
  const auto a3 = p.add_host("a3", 120 * kMf);
  const auto b1 = p.add_host("b1", 100 * kMf);
  const auto b2 = p.add_host("b2", 60 * kMf);
  const auto ra = p.add_router("ra");
  const auto rb = p.add_router("rb");
  const auto rc = p.add_router("rc");
  const auto la1 = p.add_link("la1", 10 * kMBps, 100 * kUs);
  const auto la2 = p.add_link("la2", 10 * kMBps, 100 * kUs);
  const auto la3 = p.add_link("la3", 10 * kMBps, 100 * kUs);
  const auto lb1 = p.add_link("lb1", 10 * kMBps, 100 * kUs);
  const auto lb2 = p.add_link("lb2", 10 * kMBps, 100 * kUs);
  const auto slow = p.add_link("slow", 1 * kMBps, 1 * kMs);
  const auto d1 = p.add_link("d1", 5 * kMBps, 5 * kMs);
  const auto d2 = p.add_link("d2", 5 * kMBps, 5 * kMs);
  p.add_edge(a1, ra, la1);
  p.add_edge(a2, ra, la2);
  p.add_edge(a3, ra, la3);
  p.add_edge(b1, rb, lb1);
  p.add_edge(b2, rb, lb2);
  p.add_edge(ra, rb, slow);
  p.add_edge(ra, rc, d1);
  p.add_edge(rc, rb, d2);
  validate(p);
  return p;
}

// A Full zone "AS0": four hosts c0 (1Gf), c1 (2Gf), c2 (1.5Gf), c3 (0.5Gf), private links p0 p1 p3
// (125MBps, 10us) and p2 (60MBps, 10us), a FATPIPE backbone bb (100MBps, 10us); symmetrical
// routes ci -> cj (i < j) through pi, bb, pj.
Platform full_zone() {
  Platform p;
  p.zone_name = "AS0";
  p.routing = ZoneRouting::full;
  const std::size_t c[] = {p.add_host("c0", 1 * kGf), p.add_host("c1", 2 * kGf), p.add_host("c2", 1.5 * kGf),
                           p.add_host("c3", 0.5 * kGf)};
  const std::size_t priv[] = {p.add_link("p0", 125 * kMBps, 10 * kUs), p.add_link("p1", 125 * kMBps, 10 * kUs),
                              p.add_link("p2", 60 * kMBps, 10 * kUs), p.add_link("p3", 125 * kMBps, 10 * kUs)};
  const auto bb = p.add_link("bb", 100 * kMBps, 10 * kUs, SharingPolicy::fatpipe);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = i + 1; j < 4; ++j) p.routes.push_back(ExplicitRoute{c[i], c[j], {priv[i], bb, priv[j]}, true});
  validate(p);
  return p;
}

const char* const kMethods[] = {"greedy",  "greedy-maxmin", "greedy-global", "exhaustive",
                                "tsp-ilp", "tsp-local",     "ignore-sharing"};

}  // namespace

TEST_CASE("ring methods on a hand-built Dijkstra platform: consistent answers, widest detours") {
  const Platform p = two_lans();
  const RingNetwork net(p);
  REQUIRE(net.host_count() == 5);
  // a1 -> b1: the detour (bottleneck 5 MB/s) beats the direct 1 MB/s link.
  CHECK(net.full_bandwidth(0, 3) == doctest::Approx(5e6));
  const auto path = net.pair_path(0, 3);
  CHECK(path.links.size() == 4);
  for (double ratio : {1e-6, 1e-4, 1e-3, 1e-2}) {
    const Workload load{1e9, ratio * 1e9};
    for (const char* m : kMethods) {
      CAPTURE(ratio);
      CAPTURE(m);
      const auto plan = plan_ring(net, load, m);
      CHECK(oracles::check_ring_answer(p, load.work, load.comm, testing::to_answer(net, plan)) == "");
      for (std::size_t k = 0; k < plan.succ.size(); ++k)
        for (auto l : plan.succ[k].links) CHECK(net.link_name(l) != "slow");
    }
  }
}

TEST_CASE("ring methods on a hand-built Full zone with a FATPIPE backbone: routes as given") {
  const Platform p = full_zone();
  const RingNetwork net(p);
  REQUIRE(net.fixed_routes());
  // The backbone (FATPIPE, 100 MB/s) caps each path; c2's 60 MB/s private link is its pool.
  CHECK(net.full_bandwidth(0, 1) == doctest::Approx(100e6));
  CHECK(net.full_bandwidth(0, 2) == doctest::Approx(60e6));
  CHECK(net.pool_capacity(2) == doctest::Approx(60e6));
  for (double ratio : {1e-5, 1e-3, 1e-1}) {
    const Workload load{1e9, ratio * 1e9};
    for (const char* m : kMethods) {
      CAPTURE(m);
      const auto plan = plan_ring(net, load, m);
      CHECK(oracles::check_ring_answer(p, load.work, load.comm, testing::to_answer(net, plan)) == "");
    }
    // Every ring (all orders of all subsets) through the oracle: the exhaustive method's
    // objective is the complete-graph optimum.
    std::vector<double> speed;
    std::vector<std::vector<double>> cost(4, std::vector<double>(4, 0.0));
    for (std::size_t a = 0; a < 4; ++a) {
      speed.push_back(net.speed(a));
      for (std::size_t b = 0; b < 4; ++b)
        if (a != b) cost[a][b] = 1.0 / net.full_bandwidth(a, b);
    }
    CHECK(plan_ring(net, load, "exhaustive").objective ==
          doctest::Approx(oracles::brute_force_complete_graph(speed, cost, load.work, load.comm)).epsilon(1e-12));
  }
}

TEST_CASE("the JSON answer carries the contract's keys and recomputes") {
  const Platform p = two_lans();
  const RingNetwork net(p);
  const Workload load{1e9, 1e5};
  const auto plan = plan_ring(net, load, "greedy");
  const auto doc = nlohmann::json::parse(io::ring_plan_to_json(net, load, plan).dump());
  CHECK(doc["method"] == "greedy");
  CHECK(doc["tstep"].get<double>() == plan.tstep);
  REQUIRE(doc["ring"].size() == plan.ring.size());
  REQUIRE(doc["alpha"].size() == plan.ring.size());
  const std::size_t q = plan.ring.size();
  REQUIRE(doc["paths"].size() == (q == 1 ? 0 : 2 * q));
  double sum = 0.0;
  for (const auto& a : doc["alpha"]) sum += a.get<double>();
  CHECK(sum == doctest::Approx(1.0));
  // Rebuild the answer from the JSON alone and check it.
  oracles::RingAnswer ans;
  for (const auto& h : doc["ring"]) ans.ring.push_back(h.get<std::string>());
  for (std::size_t m = 0; m < q && q > 1; ++m) {
    const auto& s = doc["paths"][2 * m];
    const auto& pr = doc["paths"][2 * m + 1];
    CHECK(s["from"] == ans.ring[m]);
    CHECK(s["to"] == doc["ring"][(m + 1) % q]);
    CHECK(pr["to"] == doc["ring"][(m + q - 1) % q]);
    ans.succ_links.push_back(s["links"].get<std::vector<std::string>>());
    ans.pred_links.push_back(pr["links"].get<std::vector<std::string>>());
    ans.succ_bw.push_back(s["bandwidth"].get<double>());
    ans.pred_bw.push_back(pr["bandwidth"].get<double>());
  }
  ans.tstep = doc["tstep"].get<double>();
  CHECK(oracles::check_ring_answer(p, load.work, load.comm, ans) == "");
  for (const char* key : {"q", "work", "comm", "wcumul", "tstep_eq4", "members", "tstep_by_size", "fractions"})
    CHECK_MESSAGE(doc.contains(key), key);
}
