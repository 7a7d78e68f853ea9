// Ring construction on hand-written SimGrid XML platforms (through the platform reader), and the
// JSON answer's contract.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "io/platform_xml.hpp"
#include "io/ring_json.hpp"
#include "oracles/ring_bruteforce.hpp"
#include "oracles/ring_platforms.hpp"
#include "planners/ring/ring_planner.hpp"

using namespace ringsim;
using namespace ringsim::ring;

namespace {

// Two LANs; between their routers a slow direct WAN link and a faster detour through a third
// router (widest paths must take the detour).
const char* const kTwoLans = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="AS0" routing="Dijkstra">
    <host id="a1" speed="100Mf"/><host id="a2" speed="80Mf"/><host id="a3" speed="120Mf"/>
    <host id="b1" speed="100Mf"/><host id="b2" speed="60Mf"/>
    <router id="ra"/><router id="rb"/><router id="rc"/>
    <link id="la1" bandwidth="10MBps" latency="100us"/><link id="la2" bandwidth="10MBps" latency="100us"/>
    <link id="la3" bandwidth="10MBps" latency="100us"/><link id="lb1" bandwidth="10MBps" latency="100us"/>
    <link id="lb2" bandwidth="10MBps" latency="100us"/>
    <link id="slow" bandwidth="1MBps" latency="1ms"/>
    <link id="d1" bandwidth="5MBps" latency="5ms"/><link id="d2" bandwidth="5MBps" latency="5ms"/>
    <route src="a1" dst="ra"><link_ctn id="la1"/></route><route src="a2" dst="ra"><link_ctn id="la2"/></route>
    <route src="a3" dst="ra"><link_ctn id="la3"/></route><route src="b1" dst="rb"><link_ctn id="lb1"/></route>
    <route src="b2" dst="rb"><link_ctn id="lb2"/></route>
    <route src="ra" dst="rb"><link_ctn id="slow"/></route>
    <route src="ra" dst="rc"><link_ctn id="d1"/></route><route src="rc" dst="rb"><link_ctn id="d2"/></route>
  </zone>
</platform>)";

// A Full zone: four hosts, private links and a FATPIPE backbone, symmetrical routes.
const char* const kFullZone = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="AS0" routing="Full">
    <host id="c0" speed="1Gf"/><host id="c1" speed="2Gf"/><host id="c2" speed="1.5Gf"/><host id="c3" speed="0.5Gf"/>
    <link id="p0" bandwidth="125MBps" latency="10us"/><link id="p1" bandwidth="125MBps" latency="10us"/>
    <link id="p2" bandwidth="60MBps" latency="10us"/><link id="p3" bandwidth="125MBps" latency="10us"/>
    <link id="bb" bandwidth="100MBps" latency="10us" sharing_policy="FATPIPE"/>
    <route src="c0" dst="c1"><link_ctn id="p0"/><link_ctn id="bb"/><link_ctn id="p1"/></route>
    <route src="c0" dst="c2"><link_ctn id="p0"/><link_ctn id="bb"/><link_ctn id="p2"/></route>
    <route src="c0" dst="c3"><link_ctn id="p0"/><link_ctn id="bb"/><link_ctn id="p3"/></route>
    <route src="c1" dst="c2"><link_ctn id="p1"/><link_ctn id="bb"/><link_ctn id="p2"/></route>
    <route src="c1" dst="c3"><link_ctn id="p1"/><link_ctn id="bb"/><link_ctn id="p3"/></route>
    <route src="c2" dst="c3"><link_ctn id="p2"/><link_ctn id="bb"/><link_ctn id="p3"/></route>
  </zone>
</platform>)";

const char* const kMethods[] = {"greedy",  "greedy-maxmin", "greedy-global", "exhaustive",
                                "tsp-ilp", "tsp-local",     "ignore-sharing"};

}  // namespace

TEST_CASE("ring methods on a hand-written Dijkstra platform: consistent answers, widest detours") {
  const Platform p = io::parse_platform_xml(kTwoLans, "two-lans.xml");
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

TEST_CASE("ring methods on a hand-written Full zone with a FATPIPE backbone: routes as given") {
  const Platform p = io::parse_platform_xml(kFullZone, "full.xml");
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
  const Platform p = io::parse_platform_xml(kTwoLans, "two-lans.xml");
  const RingNetwork net(p);
  const Workload load{1e9, 1e5};
  const auto plan = plan_ring(net, load, "greedy");
  const auto doc = nlohmann::json::parse(io::ring_plan_to_json_text(net, load, plan));
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
