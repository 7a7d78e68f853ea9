// Tiers-style generation, .tiers files, and their conversion into platforms.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "io/platform_xml.hpp"
#include "io/tiers_reader.hpp"
#include "model/errors.hpp"
#include "model/platform_graph.hpp"
#include "model/tiers_generator.hpp"
#include "repo_files.hpp"

using namespace ringsim;

namespace {

using ringsim::testing::repo_file;

// The parameters in the header of the reference WAN_3.tiers.
TiersParameters wan3() {
  TiersParameters p;
  p.nw = 1, p.nm = 5, p.nl = 5, p.sw = 10, p.sm = 10, p.sl = 5;
  p.rw = 2, p.rm = 1, p.rl = 1, p.rmw = 2, p.rlm = 1;
  return p;
}

std::string generated_xml(const TiersParameters& params, std::uint64_t seed) {
  TiersConversion conv;
  conv.seed = seed;
  return io::format_platform_xml(tiers_to_platform(generate_tiers_graph(params, seed), embedded_measured_values(), conv));
}

std::size_t count_state(const TiersGraph& g, int state) {
  std::size_t n = 0;
  for (const auto& e : g.edges) n += e.state == state;
  return n;
}

}  // namespace

TEST_CASE("tiers: same seed, same bytes, and another seed, other bytes") {
  const auto a = generated_xml(wan3(), 7);
  CHECK(a == generated_xml(wan3(), 7));
  CHECK(a != generated_xml(wan3(), 8));
  CHECK(generate_tiers_graph(wan3(), 3).nodes.size() == 185);
}

TEST_CASE("tiers: WAN_3 parameters give WAN_3's size") {
  double hosts = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto g = generate_tiers_graph(wan3(), seed);
    CHECK(g.nodes.size() == 185);
    CHECK(g.edges.size() >= 188);  // WAN_3.tiers: 192 (154 tree, 3 redundant, 30 + 5 internetwork)
    CHECK(g.edges.size() <= 196);
    CHECK(count_state(g, 1) == 154);  // spanning trees and LAN stars: nodes - networks
    CHECK(count_state(g, 3) == 30);   // one edge per MAN (to the WAN) and per LAN (to its MAN)
    CHECK(count_state(g, 4) == 5);    // RMW = 2: a second edge per MAN
    TiersConversion conv;
    conv.seed = seed;
    const auto p = tiers_to_platform(g, embedded_measured_values(), conv);  // validates: connected
    CHECK(hosts_connected(p));
    CHECK(p.nodes.size() == 185);
    CHECK(p.links.size() == g.edges.size());
    CHECK(p.host_count() >= 70);
    CHECK(p.host_count() <= 105);
    hosts += static_cast<double>(p.host_count());
  }
  CHECK(hosts / 10 == doctest::Approx(0.7 * 125).epsilon(0.06));
}

TEST_CASE("tiers: hosts are LAN nodes, speeds and links come from the measured values") {
  const auto g = generate_tiers_graph(wan3(), 11);
  TiersConversion conv;
  conv.seed = 11;
  conv.host_count = 37;
  const auto p = tiers_to_platform(g, embedded_measured_values(), conv);
  CHECK(p.host_count() == 37);
  const auto& values = embedded_measured_values();
  for (std::size_t i = 0; i < p.nodes.size(); ++i) {
    if (!p.nodes[i].is_host) continue;
    CHECK(g.nodes[i].level == TiersLevel::lan);
    bool known = false;
    for (double m : values.machine_mflops) known = known || p.nodes[i].speed == m * 1e6;
    CHECK(known);
  }
  for (std::size_t e = 0; e < g.edges.size(); ++e) {
    const auto& list = values.link_classes.at(g.edges[e].bandwidth_class);
    bool known = false;
    for (const auto& m : list)
      known = known || (p.links[e].bandwidth == m.bandwidth_MBps * 1e6 && p.links[e].latency == m.latency_ms * 1e-3);
    CHECK(known);
  }
  conv.host_count = 126;
  CHECK_THROWS_AS(tiers_to_platform(g, values, conv), InputError);
  auto bad = wan3();
  bad.nw = 2;
  CHECK_THROWS_WITH_AS(generate_tiers_graph(bad, 1), doctest::Contains("NW must be 1"), InputError);
}

TEST_CASE("tiers: pruning keeps every host and the cycles") {
  const auto g = generate_tiers_graph(wan3(), 5);
  TiersConversion conv;
  conv.seed = 5;
  conv.host_count = 37;
  const auto full = tiers_to_platform(g, embedded_measured_values(), conv);
  conv.prune_routers = true;
  const auto pruned = tiers_to_platform(g, embedded_measured_values(), conv);
  CHECK(pruned.host_count() == 37);
  CHECK(pruned.router_count() < full.router_count());
  // Removing dead ends removes as many links as nodes: the number of independent cycles stays.
  CHECK(pruned.links.size() - pruned.nodes.size() == full.links.size() - full.nodes.size());
}

TEST_CASE("tiers: the reference .tiers files give the sizes of their headers") {
  struct Case {
    const char* file;
    std::size_t nodes, edges;
  };
  for (const auto& c : {Case{"small.tiers", 27, 26}, Case{"medium.tiers", 45, 44}, Case{"WAN_3.tiers", 185, 192}}) {
    CAPTURE(c.file);
    const auto g = io::read_tiers_file(repo_file(std::string("platforms/reference/") + c.file));
    CHECK(g.nodes.size() == c.nodes);
    CHECK(g.edges.size() == c.edges);
    REQUIRE(g.parameters);
    CHECK(g.parameters->node_count() == c.nodes);
    const auto p = tiers_to_platform(g, embedded_measured_values(), TiersConversion{});
    CHECK(p.links.size() == c.edges);
    CHECK(hosts_connected(p));
  }
  const auto w = io::read_tiers_file(repo_file("platforms/reference/WAN_3.tiers"));
  CHECK(w.parameters->rw == 2);
  CHECK(w.parameters->rmw == 2);
  CHECK(count_state(w, 2) == 3);
  CHECK(count_state(w, 4) == 5);
}

TEST_CASE("tiers: a written .tiers file reads back to the same graph and platform") {
  const auto g = generate_tiers_graph(wan3(), 21);
  const auto back = io::parse_tiers(io::format_tiers(g), "generated");
  REQUIRE(back.nodes.size() == g.nodes.size());
  REQUIRE(back.edges.size() == g.edges.size());
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    CHECK(back.nodes[i].x == g.nodes[i].x);
    CHECK(back.nodes[i].y == g.nodes[i].y);
    CHECK(back.nodes[i].level == g.nodes[i].level);
  }
  for (std::size_t e = 0; e < g.edges.size(); ++e) {
    CHECK(back.edges[e].from == g.edges[e].from);
    CHECK(back.edges[e].to == g.edges[e].to);
    CHECK(back.edges[e].delay == g.edges[e].delay);
    CHECK(back.edges[e].bandwidth_class == g.edges[e].bandwidth_class);
    CHECK(back.edges[e].state == g.edges[e].state);
  }
  REQUIRE(back.parameters);
  CHECK(back.parameters->sw == 10);
  TiersConversion conv;
  conv.seed = 21;
  CHECK(tiers_to_platform(back, embedded_measured_values(), conv) == tiers_to_platform(g, embedded_measured_values(), conv));
}

TEST_CASE("tiers: malformed .tiers files are InputErrors with a line number") {
  const std::string head = "# NODES\n0 0 0 0\n1 10 0 0\n# EDGES\n";
  CHECK_THROWS_WITH_AS(io::parse_tiers(head + "0 2 5 10 0 0 1\n", "t"), doctest::Contains("t:5: edge 0 - 2 names an unknown node"),
                       InputError);
  CHECK_THROWS_WITH_AS(io::parse_tiers(head + "0 1 5 ten 0 0 1\n", "t"), doctest::Contains("t:5: an edge line"), InputError);
  CHECK_THROWS_WITH_AS(io::parse_tiers("# NODES\n0 0 0 0\n2 1 1 0\n", "t"), doctest::Contains("t:3: node id 2"), InputError);
  CHECK_THROWS_WITH_AS(io::parse_tiers("# Total Number of Nodes (derived) : 3\n" + head, "t"),
                       doctest::Contains("announces 3 nodes"), InputError);
  CHECK_THROWS_WITH_AS(io::parse_tiers("hello\n", "t"), doctest::Contains("t:1: data before"), InputError);
  CHECK(io::parse_tiers(head + "0 1 5 10 0 0 1\n1 0 5 10 0 0 1\n", "t").edges.size() == 1);
}

TEST_CASE("tiers: the built-in measured values are those of platforms/measured_platform_values.json") {
  const auto file = io::read_measured_values(repo_file("platforms/measured_platform_values.json"));
  const auto& built_in = embedded_measured_values();
  CHECK(file.machine_mflops == built_in.machine_mflops);
  REQUIRE(file.link_classes.size() == built_in.link_classes.size());
  for (const auto& entry : built_in.link_classes) {
    const auto& cls = entry.first;
    const auto& list = entry.second;
    CAPTURE(cls);
    const auto& other = file.link_classes.at(cls);
    REQUIRE(other.size() == list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
      CHECK(other[i].bandwidth_MBps == list[i].bandwidth_MBps);
      CHECK(other[i].latency_ms == list[i].latency_ms);
    }
  }
  CHECK(built_in.machine_mflops.size() == 12);
  CHECK(built_in.link_classes.at(10).size() == 5);
  CHECK(built_in.link_classes.at(100).size() == 12);
  CHECK(built_in.link_classes.at(1000).size() == 90);
}
