// SimGrid XML: the 4.1 subset (write, read back), the 2005 format, clusters, and bad files.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "io/legacy_xml_2005.hpp"
#include "io/platform_xml.hpp"
#include "model/errors.hpp"
#include "model/platform.hpp"
#include "model/tiers_generator.hpp"

using namespace ringsim;

namespace {

std::string repo_file(const std::string& relative) {
  return (std::filesystem::path(__FILE__).parent_path().parent_path() / relative).string();
}

std::string zone(const std::string& routing, const std::string& body) {
  return "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
         "<platform version=\"4.1\">\n<zone id=\"z\" routing=\"" +
         routing + "\">\n" + body + "</zone>\n</platform>\n";
}

const std::string two_hosts =
    "<host id=\"h1\" speed=\"1Gf\"/>\n<host id=\"h2\" speed=\"2Gf\"/>\n<router id=\"r\"/>\n"
    "<link id=\"l1\" bandwidth=\"1MBps\" latency=\"1ms\"/>\n<link id=\"l2\" bandwidth=\"10Mbps\" latency=\"5us\"/>\n";

// Component by component, for readable failures.
void check_same(const Platform& a, const Platform& b) {
  CHECK(a.zone_name == b.zone_name);
  CHECK(a.routing == b.routing);
  REQUIRE(a.nodes.size() == b.nodes.size());
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    CAPTURE(a.nodes[i].name);
    CHECK(a.nodes[i] == b.nodes[i]);
  }
  REQUIRE(a.links.size() == b.links.size());
  for (std::size_t i = 0; i < a.links.size(); ++i) {
    CAPTURE(a.links[i].name);
    CHECK(a.links[i].bandwidth == b.links[i].bandwidth);
    CHECK(a.links[i].latency == b.links[i].latency);
    CHECK(a.links[i] == b.links[i]);
  }
  CHECK(a.edges == b.edges);
  CHECK(a.routes == b.routes);
  CHECK(a == b);
}

std::string error_of(const std::string& text) {
  try {
    io::parse_platform_xml(text, "bad.xml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("platform xml: a generated platform reads back equal, Dijkstra or Floyd") {
  TiersParameters params;
  params.nm = 3, params.nl = 3, params.sw = 5, params.sm = 5, params.sl = 4, params.rw = 2, params.rmw = 2;
  TiersConversion conv;
  conv.seed = 4;
  auto p = tiers_to_platform(generate_tiers_graph(params, 4), embedded_measured_values(), conv);
  const auto text = io::format_platform_xml(p, "ringsim platform tiers --seed 4");
  CHECK(text.find("<prop id=\"provenance\" value=\"ringsim platform tiers --seed 4\"/>") != std::string::npos);
  check_same(io::parse_platform_xml(text, "gen.xml"), p);
  p.routing = ZoneRouting::floyd;
  p.links[0].sharing = SharingPolicy::fatpipe;
  p.nodes[p.host_indices().front()].cores = 4;
  p.nodes[p.host_indices().front()].speed_file = "traces/a&b.txt";
  const auto again = io::format_platform_xml(p);
  CHECK(again.find("a&amp;b") != std::string::npos);
  check_same(io::parse_platform_xml(again, "gen.xml"), p);
}

TEST_CASE("platform xml: Full zones keep their routes, symmetrical or not") {
  const auto p = io::parse_platform_xml(
      zone("Full", two_hosts +
                       "<route src=\"h1\" dst=\"h2\" symmetrical=\"NO\"><link_ctn id=\"l1\"/><link_ctn id=\"l2\"/></route>\n"
                       "<route src=\"h2\" dst=\"h1\" symmetrical=\"NO\"><link_ctn id=\"l2\"/></route>\n"
                       "<route src=\"h1\" dst=\"r\"><link_ctn id=\"l1\"/></route>\n"),
      "full.xml");
  CHECK(p.routing == ZoneRouting::full);
  REQUIRE(p.routes.size() == 3);
  CHECK_FALSE(p.routes[0].symmetrical);
  CHECK(p.routes[0].links == std::vector<std::size_t>{0, 1});
  CHECK(p.routes[2].symmetrical);  // SimGrid's default
  CHECK(p.links[1].bandwidth == 1.25e6);
  CHECK(p.links[1].latency == 5 * 1e-6);
  check_same(io::parse_platform_xml(io::format_platform_xml(p), "again.xml"), p);
}

TEST_CASE("platform xml: graph zones pair one-link routes into edges") {
  const auto p = io::parse_platform_xml(
      zone("Dijkstra", two_hosts +
                           "<route src=\"h1\" dst=\"r\"><link_ctn id=\"l1\"/></route>\n"
                           "<route src=\"r\" dst=\"h2\" symmetrical=\"NO\"><link_ctn id=\"l2\"/></route>\n"
                           "<route src=\"h2\" dst=\"r\" symmetrical=\"NO\"><link_ctn id=\"l2\"/></route>\n"),
      "graph.xml");
  CHECK(p.edges.size() == 2);
  CHECK(p.router_count() == 1);
  CHECK(hosts_connected(p));
}

TEST_CASE("platform xml: a flat cluster becomes explicit routes") {
  const auto p = io::parse_platform_xml(
      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\"><platform version=\"4.1\"><cluster id=\"c\" prefix=\"n-\" suffix=\".x\" radical=\"0-2,5\" speed=\"1Gf\" "
      "bw=\"125MBps\" lat=\"50us\" bb_bw=\"2.25GBps\" bb_lat=\"500us\"/></platform>",
      "cluster.xml");
  CHECK(p.host_count() == 4);
  CHECK(p.find_node("n-5.x"));
  CHECK(p.find_node("n-c_router.x"));
  CHECK(p.links.size() == 9);  // UP and DOWN per host, and the backbone
  REQUIRE(p.routes.size() == 12);
  const auto& r = p.routes.front();
  CHECK(p.links[r.links[0]].name == "c_link_0_UP");
  CHECK(p.links[r.links[1]].name == "c_backbone");
  CHECK(p.links[r.links[2]].name == "c_link_1_DOWN");
  CHECK(p.links[r.links[1]].bandwidth == 2.25e9);
}

TEST_CASE("platform xml: the 2004 paper's 2005-format platform") {
  const auto p = io::read_legacy_platform_2005(repo_file("platforms/reference/paper2004_tiers90_platform_2005dtd.xml"));
  CHECK(p.host_count() == 90);
  CHECK(p.router_count() == 0);
  CHECK(p.links.size() == 192);
  CHECK(p.routes.size() == 8010);
  CHECK(p.routing == ZoneRouting::full);
  std::size_t elements = 0;
  for (const auto& r : p.routes) elements += r.links.size();
  CHECK(elements == 91622);
  // <cpu name="Jacquelin" power="137.333"/> (MFlops); <network_link name="127" bandwidth="3.430125"
  // latency="0.000536941"/> (MB/s, s)
  CHECK(p.nodes[*p.find_node("Jacquelin")].speed == doctest::Approx(137.333e6));
  CHECK(p.nodes[*p.find_node("TeX")].speed == doctest::Approx(68.667e6));
  const auto& l = p.links[*p.find_link("127")];
  CHECK(l.bandwidth == doctest::Approx(3.430125e6));
  CHECK(l.latency == 0.000536941);
  CHECK(hosts_connected(p));
  check_same(io::parse_platform_xml(io::format_platform_xml(p), "paper.xml"), p);
}

TEST_CASE("platform xml: 2005 files convert MFlops and MB/s, and reject what they cannot hold") {
  const std::string head = "<?xml version='1.0'?>\n<!DOCTYPE platform_description SYSTEM \"surfxml.dtd\">\n<platform_description>\n";
  const auto p = io::parse_legacy_platform_2005(
      head + "<cpu name=\"a\" power=\"100\" availability=\"1.0\"/><cpu name=\"b\" power=\"0.5\"/>\n"
             "<network_link name=\"x\" bandwidth=\"2.5\" latency=\"0.01\"/>\n"
             "<route src=\"a\" dst=\"b\"><route_element name=\"x\"/></route>\n"
             "<route src=\"b\" dst=\"a\"><route_element name=\"x\"/></route>\n</platform_description>\n",
      "old.xml");
  CHECK(p.nodes[0].speed == 1e8);
  CHECK(p.nodes[1].speed == 5e5);
  CHECK(p.links[0].bandwidth == 2.5e6);
  CHECK(p.links[0].latency == 0.01);
  CHECK_THROWS_WITH_AS(io::parse_legacy_platform_2005(head + "<cpu name=\"a\" power=\"100\"/>\n"
                                                             "<route src=\"a\" dst=\"b\"><route_element name=\"x\"/></route>\n"
                                                             "</platform_description>\n",
                                                      "old.xml"),
                       "old.xml:5: route 'a' -> 'b': unknown cpu 'b'", InputError);
  CHECK_THROWS_WITH_AS(io::parse_legacy_platform_2005(head + "<cpu name=\"a\" power=\"1\" availability_file=\"f\"/>\n</platform_description>\n",
                                                      "old.xml"),
                       doctest::Contains("unsupported attribute availability_file"), InputError);
}

TEST_CASE("platform xml: bad files are InputErrors naming file, line and problem") {
  const std::string route = "<route src=\"h1\" dst=\"h2\"><link_ctn id=\"l1\"/></route>\n";
  CHECK(error_of("<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">").find("malformed XML in 'bad.xml' at line 1") == 0);
  CHECK(error_of("<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"/></platform>").find("no <!DOCTYPE platform") !=
        std::string::npos);
  CHECK(error_of(zone("Full", "<host id=\"h1\" speed=\"1Xf\"/>\n")) == "bad.xml:5: unknown unit 'Xf' in speed '1Xf' of host 'h1'");
  CHECK(error_of(zone("Full", two_hosts + "<route src=\"h1\" dst=\"h2\"><link_ctn id=\"l9\"/></route>\n")) ==
        "bad.xml:10: route 'h1' -> 'h2' names unknown link 'l9'");
  CHECK(error_of(zone("Full", two_hosts + "<route src=\"h1\" dst=\"h9\"><link_ctn id=\"l1\"/></route>\n")) ==
        "bad.xml:10: route dst 'h9' names no host or router");
  CHECK(error_of(zone("Full", "<host id=\"h1\" speed=\"1f\"/>\n<link id=\"l1\" bandwidth=\"0MBps\"/>\n")) ==
        "bad.xml:6: link 'l1' has zero bandwidth");
  CHECK(error_of(zone("Full", two_hosts)) == "bad.xml: hosts 'h1' and 'h2' are not connected");
  CHECK(error_of(zone("Dijkstra", two_hosts + "<route src=\"h1\" dst=\"r\" symmetrical=\"NO\"><link_ctn id=\"l1\"/></route>\n"))
            .find("is one-way") != std::string::npos);
  CHECK(error_of(zone("Dijkstra", two_hosts + "<route src=\"h1\" dst=\"h2\"><link_ctn id=\"l1\"/><link_ctn id=\"l2\"/></route>\n"))
            .find("has 2 links") != std::string::npos);
  CHECK(error_of(zone("Cluster", route)).find("unsupported routing 'Cluster'") != std::string::npos);
  CHECK(error_of(zone("Full", two_hosts + "<bypassRoute src=\"h1\" dst=\"h2\"/>\n")).find("unsupported element <bypassRoute>") !=
        std::string::npos);
  CHECK(error_of(zone("Full", "<host id=\"h1\" speed=\"1f\" color=\"red\"/>\n")).find("unsupported attribute 'color'") !=
        std::string::npos);
  CHECK(error_of(zone("Full", "<host id=\"h1\" speed=\"1f\"/><host id=\"h1\" speed=\"1f\"/>\n")) ==
        "bad.xml:5: duplicate host or router name 'h1'");
  CHECK(error_of("<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\"><platform version=\"4\"><zone id=\"z\" routing=\"Full\"/></platform>")
            .find("platform version '4'") != std::string::npos);
  CHECK(error_of("<platform_description/>").find("SimGrid 2005 platform") != std::string::npos);
}

TEST_CASE("platform xml: what SimGrid's validating parser refuses is refused too") {
  CHECK(error_of("<!DOCTYPE platform SYSTEM \"simgrid.dtd\"><platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">"
                 "<host id=\"h\" speed=\"1f\"/></zone></platform>")
            .find("no <!DOCTYPE platform") != std::string::npos);
  CHECK(error_of("<!DOCTYPE platform SYSTEM 'http://simgrid.gforge.inria.fr/simgrid/simgrid.dtd'><platform version=\"4.1\">"
                 "<zone id=\"z\" routing=\"Full\"><host id=\"h\" speed=\"1f\"/></zone></platform>")
            .empty());
  CHECK(error_of(zone("Full", "<host id=\"h1\" speed=\"1f\"/><link id=\"l1\" bandwidth=\"1Bps\"/>\n")) ==
        "bad.xml:5: <link> lacks the attribute 'latency'");
  CHECK(error_of(zone("Full", "<host id=\"h1\" speed=\"1f\"/><prop id=\"a\" value=\"b\"/>\n")).find("<prop> after") !=
        std::string::npos);
  CHECK(error_of(zone("Full", two_hosts + "<route src=\"h1\" dst=\"h2\"><link_ctn id=\"l1\"/></route><router id=\"r2\"/>\n"))
            .find("<router> after a <route>") != std::string::npos);
  CHECK(error_of(zone("Full", "<link id=\"l1\" bandwidth=\"1Bps\" latency=\"0\" sharing_policy=\"SPLITDUPLEX\"/><host id=\"h\" speed=\"1f\"/>"))
            .find("unsupported sharing_policy 'SPLITDUPLEX'") != std::string::npos);
}
