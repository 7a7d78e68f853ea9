// The SimGrid XML 4.1 writer (io::format_platform_xml, io::write_platform_xml), checked without
// any platform reader of ringsim's own: the text is parsed with pugixml and compared, element by
// element and attribute by attribute, with the model it was written from. Values must read back
// to the very same doubles, both through io::parse_* (SimGrid's unit rules) and through an
// independent std::stod of the number times the factor of its (decimal) unit; the document must
// have the prologue and the element order SimGrid's DTD-validating parser requires.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <pugixml.hpp>

#include "io/legacy_xml_2005.hpp"
#include "io/platform_xml.hpp"
#include "io/units.hpp"
#include "model/platform_graph.hpp"
#include "model/tiers_generator.hpp"
#include "repo_files.hpp"

using namespace ringsim;

namespace {

using ringsim::testing::repo_file;

const char* const kDoctype = "platform SYSTEM \"https://simgrid.org/simgrid.dtd\"";

std::string file_contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, "cannot open " << path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The decimal units the writer may use, with SimGrid's factors (xbt_parse_units; the same
// doubles as io/units.cpp: powers of 1000 are exact, the time factors are the literals).
using UnitTable = std::vector<std::pair<std::string, double>>;
const UnitTable kSpeedUnits = {{"f", 1.0},   {"kf", 1e3},  {"Mf", 1e6}, {"Gf", 1e9},
                               {"Tf", 1e12}, {"Pf", 1e15}, {"Ef", 1e18}};
const UnitTable kBandwidthUnits = {{"Bps", 1.0}, {"kBps", 1e3}, {"MBps", 1e6}, {"GBps", 1e9}, {"TBps", 1e12}};
const UnitTable kTimeUnits = {{"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}};

// std::stod of the number, times the factor of the suffix; NaN when the text is not a number
// followed by one of `units`.
double independent_value(const std::string& text, const UnitTable& units) {
  std::size_t used = 0;
  double number = 0.0;
  try {
    number = std::stod(text, &used);
  } catch (const std::exception&) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  const std::string suffix = text.substr(used);
  for (const auto& [unit, factor] : units)
    if (suffix == unit) return number * factor;
  return std::numeric_limits<double>::quiet_NaN();
}

// A value attribute: present, reads back exactly through io::parse_* and through stod.
void check_value(const pugi::xml_node& e, const char* attr, double expected, const UnitTable& units,
                 double (*parse)(const std::string&, const std::string&)) {
  const auto a = e.attribute(attr);
  REQUIRE_MESSAGE(a, "<" << e.name() << " id=\"" << e.attribute("id").value() << "\"> lacks " << attr);
  const std::string text = a.value();
  CAPTURE(text);
  CHECK(parse(text, "the test") == expected);
  CHECK(independent_value(text, units) == expected);
}

std::set<std::string> attribute_names(const pugi::xml_node& e) {
  std::set<std::string> out;
  for (const auto a : e.attributes()) out.insert(a.name());
  return out;
}

std::vector<pugi::xml_node> element_children(const pugi::xml_node& e) {
  std::vector<pugi::xml_node> out;
  for (const auto c : e.children()) {
    CHECK_MESSAGE(c.type() == pugi::node_element, "<" << e.name() << "> holds a node of type " << int(c.type()));
    if (c.type() == pugi::node_element) out.push_back(c);
  }
  return out;
}

// An optional file attribute: absent when empty, else the text as given (after unescaping).
void check_optional(const pugi::xml_node& e, const char* attr, const std::string& expected, std::set<std::string>& names) {
  if (expected.empty()) {
    CHECK_FALSE(e.attribute(attr));
    return;
  }
  names.insert(attr);
  CHECK(std::string(e.attribute(attr).value()) == expected);
}

// SimGrid's DTD (4.1) for a zone: properties first, then resources (hosts, routers, links), then
// routes. "" when the zone's children keep that order, else the first offence.
std::string dtd_order_problem(const pugi::xml_node& zone) {
  int phase = 0;  // 0: props, 1: resources, 2: routes
  for (const auto c : zone.children()) {
    if (c.type() != pugi::node_element) return "a non-element node in the zone";
    const std::string name = c.name();
    const int want = name == "prop" ? 0 : (name == "host" || name == "router" || name == "link") ? 1 : name == "route" ? 2 : -1;
    if (want < 0) return "unexpected <" + name + ">";
    if (want < phase) return "<" + name + " id=\"" + c.attribute("id").value() + "\"> comes too late";
    phase = want;
  }
  return "";
}

// The whole document against the model it was written from.
void check_written(const Platform& p, const std::string& text, const std::string& provenance) {
  CHECK(text.rfind("<?xml version='1.0'?>\n<!DOCTYPE " + std::string(kDoctype) + ">\n", 0) == 0);
  pugi::xml_document doc;
  const auto res = doc.load_buffer(text.data(), text.size(),
                                   pugi::parse_default | pugi::parse_doctype | pugi::parse_declaration |
                                       pugi::parse_comments | pugi::parse_pi,
                                   pugi::encoding_utf8);
  REQUIRE_MESSAGE(res, "not well-formed: " << res.description() << " at offset " << res.offset);

  // Prologue: the declaration, SimGrid's DOCTYPE (its parser refuses a platform without it),
  // then <platform version="4.1"> and nothing else.
  std::vector<pugi::xml_node> top;
  for (const auto n : doc.children()) top.push_back(n);
  REQUIRE(top.size() == 3);
  CHECK(top[0].type() == pugi::node_declaration);
  CHECK(std::string(top[0].attribute("version").value()) == "1.0");
  CHECK(top[1].type() == pugi::node_doctype);
  CHECK(std::string(top[1].value()) == kDoctype);
  const auto platform = top[2];
  REQUIRE(platform == doc.document_element());
  CHECK(std::string(platform.name()) == "platform");
  CHECK(attribute_names(platform) == std::set<std::string>{"version"});
  CHECK(std::string(platform.attribute("version").value()) == "4.1");

  // One zone.
  const auto in_platform = element_children(platform);
  REQUIRE(in_platform.size() == 1);
  const auto zone = in_platform[0];
  REQUIRE(std::string(zone.name()) == "zone");
  CHECK(attribute_names(zone) == std::set<std::string>{"id", "routing"});
  CHECK(std::string(zone.attribute("id").value()) == p.zone_name);
  CHECK(std::string(zone.attribute("routing").value()) == to_string(p.routing));
  CHECK(dtd_order_problem(zone) == "");

  const auto kids = element_children(zone);
  std::size_t next = 0;
  if (!provenance.empty()) {
    REQUIRE(!kids.empty());
    const auto prop = kids[next++];
    CHECK(std::string(prop.name()) == "prop");
    CHECK(attribute_names(prop) == std::set<std::string>{"id", "value"});
    CHECK(std::string(prop.attribute("id").value()) == "provenance");
    CHECK(std::string(prop.attribute("value").value()) == provenance);
    CHECK(element_children(prop).empty());
  } else {
    CHECK_MESSAGE((kids.empty() || std::string(kids[0].name()) != "prop"), "a <prop> without provenance");
  }

  // Hosts and routers in model order (SimGrid numbers them in this order too).
  REQUIRE(kids.size() >= next + p.nodes.size() + p.links.size());
  for (const auto& n : p.nodes) {
    const auto e = kids[next++];
    CAPTURE(n.name);
    CHECK(std::string(e.name()) == (n.is_host ? "host" : "router"));
    CHECK(std::string(e.attribute("id").value()) == n.name);
    CHECK(element_children(e).empty());
    std::set<std::string> names{"id"};
    if (n.is_host) {
      names.insert("speed");
      check_value(e, "speed", n.speed, kSpeedUnits, io::parse_speed);
      if (n.cores != 1) {
        names.insert("core");
        CHECK(std::string(e.attribute("core").value()) == std::to_string(n.cores));
      } else {
        CHECK_FALSE(e.attribute("core"));
      }
      check_optional(e, "speed_file", n.speed_file, names);
      check_optional(e, "state_file", n.state_file, names);
    }
    CHECK(attribute_names(e) == names);
  }

  // Links in model order.
  for (const auto& l : p.links) {
    const auto e = kids[next++];
    CAPTURE(l.name);
    CHECK(std::string(e.name()) == "link");
    CHECK(std::string(e.attribute("id").value()) == l.name);
    CHECK(element_children(e).empty());
    std::set<std::string> names{"id", "bandwidth", "latency"};
    check_value(e, "bandwidth", l.bandwidth, kBandwidthUnits, io::parse_bandwidth);
    check_value(e, "latency", l.latency, kTimeUnits, io::parse_time);
    if (l.sharing == SharingPolicy::shared) {
      CHECK_FALSE(e.attribute("sharing_policy"));  // SimGrid's default
    } else {
      names.insert("sharing_policy");
      CHECK(std::string(e.attribute("sharing_policy").value()) == "FATPIPE");
    }
    check_optional(e, "bandwidth_file", l.bandwidth_file, names);
    check_optional(e, "latency_file", l.latency_file, names);
    check_optional(e, "state_file", l.state_file, names);
    CHECK(attribute_names(e) == names);
  }

  // Then the routes, last: one symmetrical one-link route per graph edge, or the explicit routes.
  REQUIRE(kids.size() == next + p.edges.size() + p.routes.size());
  const auto check_route = [&](const pugi::xml_node& e, std::size_t src, std::size_t dst,
                               const std::vector<std::size_t>& links) {
    CHECK(std::string(e.name()) == "route");
    CHECK(std::string(e.attribute("src").value()) == p.nodes[src].name);
    CHECK(std::string(e.attribute("dst").value()) == p.nodes[dst].name);
    const auto ctns = element_children(e);
    REQUIRE(ctns.size() == links.size());
    for (std::size_t k = 0; k < links.size(); ++k) {
      CHECK(std::string(ctns[k].name()) == "link_ctn");
      CHECK(attribute_names(ctns[k]) == std::set<std::string>{"id"});
      CHECK(std::string(ctns[k].attribute("id").value()) == p.links[links[k]].name);
    }
  };
  for (const auto& edge : p.edges) {
    const auto e = kids[next++];
    check_route(e, edge.a, edge.b, {edge.link});
    // No symmetrical attribute means YES for SimGrid.
    const auto sym = e.attribute("symmetrical");
    CHECK((!sym || std::string(sym.value()) == "YES"));
    CHECK(attribute_names(e).count("src") + attribute_names(e).count("dst") == 2);
  }
  for (const auto& r : p.routes) {
    const auto e = kids[next++];
    check_route(e, r.src, r.dst, r.links);
    CHECK(attribute_names(e) == std::set<std::string>{"src", "dst", "symmetrical"});
    CHECK(std::string(e.attribute("symmetrical").value()) == (r.symmetrical ? "YES" : "NO"));
  }
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

  for (const auto& [routing, spelled] : {std::pair{ZoneRouting::floyd, "Floyd"}, std::pair{ZoneRouting::dijkstra_cache, "DijkstraCache"},
                                         std::pair{ZoneRouting::dijkstra, "Dijkstra"}}) {
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
