// SimGrid's 2005 platform XML (<platform_description>): the 2004 paper's 90-host platform and
// small files (unit conversions, what the reader refuses). Writing 4.1 XML from what it reads is
// covered in test_platform_writer.cpp.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "io/legacy_xml_2005.hpp"
#include "model/errors.hpp"
#include "model/platform_graph.hpp"
#include "repo_files.hpp"

using namespace ringsim;

namespace {

using ringsim::testing::repo_file;

}  // namespace

TEST_CASE("legacy xml 2005: the 2004 paper's 2005-format platform") {
  const auto p = io::read_legacy_platform_2005(repo_file("platforms/reference/paper2004_tiers90_platform_2005dtd.xml"));
  CHECK(p.host_count() == 90);
  CHECK(p.router_count() == 0);
  CHECK(p.links.size() == 192);
  CHECK(p.routes.size() == 8010);
  CHECK(p.routing == ZoneRouting::full);
  CHECK(p.zone_name == "AS0");
  std::size_t elements = 0;
  bool one_way = true;
  for (const auto& r : p.routes) {
    elements += r.links.size();
    one_way = one_way && !r.symmetrical;
  }
  CHECK(elements == 91622);
  CHECK(one_way);  // kept one-way, as given
  // <cpu name="Jacquelin" power="137.333"/> (MFlops); <network_link name="127" bandwidth="3.430125"
  // latency="0.000536941"/> (MB/s, s)
  CHECK(p.nodes[*p.find_node("Jacquelin")].speed == doctest::Approx(137.333e6));
  CHECK(p.nodes[*p.find_node("TeX")].speed == doctest::Approx(68.667e6));
  const auto& l = p.links[*p.find_link("127")];
  CHECK(l.bandwidth == doctest::Approx(3.430125e6));
  CHECK(l.latency == 0.000536941);
  CHECK(hosts_connected(p));
}

TEST_CASE("legacy xml 2005: files convert MFlops and MB/s, and reject what they cannot hold") {
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

