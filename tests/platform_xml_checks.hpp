// A platform's SimGrid XML 4.1 text checked against the model it was written from, without any
// platform reader of ringsim's own: the text parsed with pugixml and compared element by element
// and attribute by attribute; values read back to the very same doubles, through io::parse_*
// (SimGrid's unit rules) and through an independent std::stod of the number times the factor of
// its (decimal) unit; the prologue and the element order SimGrid's DTD-validating parser requires.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <exception>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <pugixml.hpp>

#include "io/platform_xml.hpp"
#include "io/units.hpp"
#include "model/platform_graph.hpp"

namespace ringsim::testing {

inline constexpr const char* kDoctype = "platform SYSTEM \"https://simgrid.org/simgrid.dtd\"";

// The decimal units the writer may use, with SimGrid's factors (xbt_parse_units; the same
// doubles as io/units.cpp: powers of 1000 are exact, the time factors are the literals).
using UnitTable = std::vector<std::pair<std::string, double>>;
inline const UnitTable kSpeedUnits = {{"f", 1.0},   {"kf", 1e3},  {"Mf", 1e6}, {"Gf", 1e9},
                               {"Tf", 1e12}, {"Pf", 1e15}, {"Ef", 1e18}};
inline const UnitTable kBandwidthUnits = {{"Bps", 1.0},  {"kBps", 1e3}, {"MBps", 1e6},
                                          {"GBps", 1e9}, {"TBps", 1e12}};
inline const UnitTable kTimeUnits = {{"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}};

// std::stod of the number, times the factor of the suffix; NaN when the text is not a number
// followed by one of `units`.
inline double independent_value(const std::string& text, const UnitTable& units) {
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
inline void check_value(const pugi::xml_node& e, const char* attr, double expected, const UnitTable& units,
                 double (*parse)(const std::string&, const std::string&)) {
  const auto a = e.attribute(attr);
  REQUIRE_MESSAGE(a, "<" << e.name() << " id=\"" << e.attribute("id").value() << "\"> lacks " << attr);
  const std::string text = a.value();
  CAPTURE(text);
  CHECK(parse(text, "the test") == expected);
  CHECK(independent_value(text, units) == expected);
}

inline std::set<std::string> attribute_names(const pugi::xml_node& e) {
  std::set<std::string> out;
  for (const auto a : e.attributes()) out.insert(a.name());
  return out;
}

inline std::vector<pugi::xml_node> element_children(const pugi::xml_node& e) {
  std::vector<pugi::xml_node> out;
  for (const auto c : e.children()) {
    CHECK_MESSAGE(c.type() == pugi::node_element, "<" << e.name() << "> holds a node of type " << int(c.type()));
    if (c.type() == pugi::node_element) out.push_back(c);
  }
  return out;
}

// An optional file attribute: absent when empty, else the text as given (after unescaping).
inline void check_optional(const pugi::xml_node& e, const char* attr, const std::string& expected,
                           std::set<std::string>& names) {
  if (expected.empty()) {
    CHECK_FALSE(e.attribute(attr));
    return;
  }
  names.insert(attr);
  CHECK(std::string(e.attribute(attr).value()) == expected);
}

// SimGrid's DTD (4.1) for a zone: properties first, then resources (hosts, routers, links), then
// routes. "" when the zone's children keep that order, else the first offence.
inline std::string dtd_order_problem(const pugi::xml_node& zone) {
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
inline void check_written(const Platform& p, const std::string& text, const std::string& provenance) {
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

}  // namespace ringsim::testing
