// The SimGrid XML 4.1 writer (io::format_platform_xml, io::write_platform_xml) on generated Tiers
// platforms, cores, FATPIPE links, trace files and special characters, graph edges, Full zones, the
// 2004 paper's platform, the committed tiers37.xml and arbitrary values: each text checked against
// the model it was written from by platform_xml_checks.hpp, without any platform reader of
// ringsim's own.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "io/legacy_xml_2005.hpp"
#include "io/platform_xml.hpp"
#include "model/platform_graph.hpp"
#include "model/tiers_generator.hpp"
#include "platform_xml_checks.hpp"
#include "repo_files.hpp"

using namespace ringsim;

namespace {

using ringsim::testing::check_written;
using ringsim::testing::repo_file;

// The bytes of the file at `path`.
std::string file_contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, "cannot open " << path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

Platform generated_tiers_platform() {
  TiersParameters params;
  params.nm = 3, params.nl = 3, params.sw = 5, params.sm = 5, params.sl = 4, params.rw = 2, params.rmw = 2;
  TiersConversion conv;
  conv.seed = 4;
  return tiers_to_platform(generate_tiers_graph(params, 4), embedded_measured_values(), conv);
}

// Two hosts and a router, two links (1MBps/1ms and 10Mbps/5us).
Platform two_hosts(ZoneRouting routing) {
  Platform p;
  p.zone_name = "z";
  p.routing = routing;
  p.add_host("h1", 1e9);
  p.add_host("h2", 2e9);
  p.add_router("r");
  p.add_link("l1", 1e6, 1e-3);
  p.add_link("l2", 10 * 1e6 / 8, 5 * 1e-6);
  return p;
}

}  // namespace

TEST_CASE("platform writer: a generated Tiers platform, with its provenance, in every graph routing") {
  auto p = generated_tiers_platform();
  REQUIRE(p.routing == ZoneRouting::dijkstra);
  REQUIRE(!p.edges.empty());
  REQUIRE(p.routes.empty());
  REQUIRE(p.router_count() > 0);
  const std::string provenance = "ringsim platform tiers --seed 4";
  const auto text = io::format_platform_xml(p, provenance);
  CHECK(text.find("<zone id=\"AS0\" routing=\"Dijkstra\">\n    <prop id=\"provenance\" value=\"ringsim platform tiers --seed 4\"/>\n") !=
        std::string::npos);
  check_written(p, text, provenance);
  // Without provenance: no <prop> at all.
  const auto bare = io::format_platform_xml(p);
  CHECK(bare.find("<prop") == std::string::npos);
  check_written(p, bare, "");
  // The same bytes every time.
  CHECK(io::format_platform_xml(p, provenance) == text);

  for (const auto& entry : {std::pair{ZoneRouting::floyd, "Floyd"}, std::pair{ZoneRouting::dijkstra_cache, "DijkstraCache"},
                                         std::pair{ZoneRouting::dijkstra, "Dijkstra"}}) {
    const auto& routing = entry.first;
    const auto& spelled = entry.second;
    CAPTURE(spelled);
    p.routing = routing;
    const auto again = io::format_platform_xml(p, provenance);
    CHECK(again.find("routing=\"" + std::string(spelled) + "\"") != std::string::npos);
    check_written(p, again, provenance);
  }
}

TEST_CASE("platform writer: cores, FATPIPE links, trace files and special characters") {
  auto p = generated_tiers_platform();
  p.routing = ZoneRouting::floyd;
  p.zone_name = "zone \"A&B\"";
  p.links[0].sharing = SharingPolicy::fatpipe;
  p.links[1].bandwidth_file = "traces/bw<1>.txt";
  p.links[1].latency_file = "traces/lat'1'.txt";
  p.links[2].state_file = "traces/on-off.txt";
  const auto h = p.host_indices();
  p.nodes[h.front()].cores = 4;
  p.nodes[h.front()].speed_file = "traces/a&b.txt";
  p.nodes[h.back()].state_file = "traces/\"state\".txt";
  // Options hold "--", which an XML comment could not: the provenance is an attribute.
  const std::string provenance = "ringsim platform tiers --seed 4 --values \"m&m's <values>.json\"";
  const auto text = io::format_platform_xml(p, provenance);
  CHECK(text.find("a&amp;b") != std::string::npos);
  CHECK(text.find("zone &quot;A&amp;B&quot;") != std::string::npos);
  CHECK(text.find("bw&lt;1&gt;") != std::string::npos);
  CHECK(text.find(" core=\"4\"") != std::string::npos);
  CHECK(text.find(" sharing_policy=\"FATPIPE\"") != std::string::npos);
  check_written(p, text, provenance);
}

TEST_CASE("platform writer: graph edges become symmetrical one-link routes") {
  auto p = two_hosts(ZoneRouting::dijkstra);
  p.add_edge(0, 2, 0);  // h1 - r through l1
  p.add_edge(2, 1, 1);  // r - h2 through l2
  validate(p);
  const auto text = io::format_platform_xml(p);
  CHECK(text.find("<host id=\"h1\" speed=\"1Gf\"/>") != std::string::npos);
  CHECK(text.find("<router id=\"r\"/>") != std::string::npos);
  CHECK(text.find("<link id=\"l1\" bandwidth=\"1MBps\" latency=\"1ms\"/>") != std::string::npos);
  CHECK(text.find("<route src=\"h1\" dst=\"r\"><link_ctn id=\"l1\"/></route>") != std::string::npos);
  CHECK(text.find("<route src=\"r\" dst=\"h2\"><link_ctn id=\"l2\"/></route>") != std::string::npos);
  check_written(p, text, "");
}

TEST_CASE("platform writer: Full zones keep their routes, symmetrical or not") {
  auto p = two_hosts(ZoneRouting::full);
  p.routes.push_back(ExplicitRoute{0, 1, {0, 1}, false});
  p.routes.push_back(ExplicitRoute{1, 0, {1}, false});
  p.routes.push_back(ExplicitRoute{0, 2, {0}, true});
  validate(p);
  const auto text = io::format_platform_xml(p, "hand-built");
  CHECK(text.find("<zone id=\"z\" routing=\"Full\">") != std::string::npos);
  CHECK(text.find("<link id=\"l2\" bandwidth=\"1.25MBps\" latency=\"5us\"/>") != std::string::npos);
  CHECK(text.find("<route src=\"h1\" dst=\"h2\" symmetrical=\"NO\"><link_ctn id=\"l1\"/><link_ctn id=\"l2\"/></route>") !=
        std::string::npos);
  CHECK(text.find("<route src=\"h2\" dst=\"h1\" symmetrical=\"NO\"><link_ctn id=\"l2\"/></route>") != std::string::npos);
  CHECK(text.find("<route src=\"h1\" dst=\"r\" symmetrical=\"YES\"><link_ctn id=\"l1\"/></route>") != std::string::npos);
  check_written(p, text, "hand-built");
}

TEST_CASE("platform writer: the 2004 paper's platform (2005 format) as a Full zone of one-way routes") {
  const auto p = io::read_legacy_platform_2005(repo_file("platforms/reference/paper2004_tiers90_platform_2005dtd.xml"));
  REQUIRE(p.routing == ZoneRouting::full);
  REQUIRE(p.routes.size() == 8010);
  const std::string provenance = "ringsim platform import paper2004_tiers90_platform_2005dtd.xml";
  const auto text = io::format_platform_xml(p, provenance);
  // <cpu name="Jacquelin" power="137.333"/>, <network_link name="127" bandwidth="3.430125"
  // latency="0.000536941"/>: MFlops and MB/s, written with SimGrid's units.
  CHECK(text.find("<host id=\"Jacquelin\" speed=\"137.333Mf\"/>") != std::string::npos);
  CHECK(text.find("<link id=\"127\" bandwidth=\"3.430125MBps\" latency=\"536.941us\"/>") != std::string::npos);
  CHECK(text.find("symmetrical=\"YES\"") == std::string::npos);
  check_written(p, text, provenance);
  // The committed platform file is this very text (platforms/README.md gives the command).
  CHECK(text == file_contents(repo_file("platforms/paper2004_tiers90.xml")));
}

TEST_CASE("platform writer: the committed Tiers platform tiers37.xml is the generator's output") {
  // platforms/README.md: ringsim platform tiers 1 5 5 6 8 5 2 1 1 2 1 --seed 92 --hosts 37 --prune-routers
  TiersParameters params;
  params.nw = 1, params.nm = 5, params.nl = 5, params.sw = 6, params.sm = 8, params.sl = 5;
  params.rw = 2, params.rm = 1, params.rl = 1, params.rmw = 2, params.rlm = 1;
  TiersConversion conv;
  conv.seed = 92;
  conv.host_count = 37;
  conv.prune_routers = true;
  const auto p = tiers_to_platform(generate_tiers_graph(params, 92), embedded_measured_values(), conv);
  CHECK(p.host_count() == 37);
  CHECK(p.router_count() == 47);
  CHECK(p.links.size() == 91);
  const std::string provenance = "ringsim platform tiers 1 5 5 6 8 5 2 1 1 2 1 --seed 92 --hosts 37 --prune-routers";
  const auto text = io::format_platform_xml(p, provenance);
  check_written(p, text, provenance);
  CHECK(text == file_contents(repo_file("platforms/tiers37.xml")));
}

TEST_CASE("platform writer: arbitrary values are written so that they read back to the same doubles") {
  std::mt19937_64 rng(20240917);
  std::uniform_real_distribution<double> mantissa(1.0, 10.0);
  std::uniform_int_distribution<int> decade(-9, 12);
  const auto draw = [&](int shift) { return mantissa(rng) * std::pow(10.0, decade(rng) + shift); };
  Platform p;
  p.routing = ZoneRouting::dijkstra;
  const auto hub = p.add_router("hub");
  for (std::size_t i = 0; i < 300; ++i) {
    const auto h = p.add_host("h" + std::to_string(i), draw(3));
    // Some round values and their neighbours (one ulp off), a zero latency.
    double bw = draw(0);
    if (i % 7 == 0) bw = 125e6;
    if (i % 7 == 1) bw = std::nextafter(125e6, 0.0);
    if (i % 7 == 2) bw = 10 * 1e6 / 8;
    double lat = draw(-6);
    if (i % 5 == 0) lat = 0.0;
    if (i % 5 == 1) lat = 0.000536941;
    if (i % 5 == 2) lat = std::nextafter(1e-4, 1.0);
    p.add_edge(h, hub, p.add_link("l" + std::to_string(i), bw, lat));
  }
  p.nodes[1].speed = 68.667e6;
  p.nodes[2].speed = 0.1;
  p.nodes[3].speed = 1e-7;
  validate(p);
  const auto text = io::format_platform_xml(p);
  check_written(p, text, "");
}

TEST_CASE("platform writer: write_platform_xml writes format_platform_xml's text") {
  const auto p = generated_tiers_platform();
  const auto dir = std::filesystem::temp_directory_path() /
                   ("ringsim-writer-test-" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / "out.xml").string();
  io::write_platform_xml(p, path, "provenance \"x\"");
  CHECK(file_contents(path) == io::format_platform_xml(p, "provenance \"x\""));
  // Overwrites an existing file.
  io::write_platform_xml(p, path);
  const auto again = file_contents(path);
  CHECK(again == io::format_platform_xml(p));
  check_written(p, again, "");
  std::filesystem::remove_all(dir);
}
