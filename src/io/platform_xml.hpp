// SimGrid platform XML (DTD 4.1), the subset ringsim reads and writes:
//   <!DOCTYPE platform ...> (SimGrid's parser requires it), then <platform version="4.1"> holding one <zone routing="Full|Floyd|Dijkstra|DijkstraCache"> with
//   <host id speed [core] [speed_file] [state_file]>, <router id>,
//   <link id bandwidth latency [sharing_policy="SHARED|FATPIPE"] [bandwidth_file] [latency_file]
//   [state_file]>, and <route src dst [symmetrical]><link_ctn id/>...</route>;
//   or one <cluster> (alone, or alone in the zone), converted to explicit routes;
//   <prop> and <config> elements are skipped. The DOCTYPE's URL and the element order are
//   checked as SimGrid's own (DTD-validating) parser does: <config> first in the platform,
//   <prop> first in a zone, all <route> elements last.
// In Floyd/Dijkstra zones every route is one link between adjacent nodes, symmetrical (or given
// in both directions): an edge of the platform graph. In Full zones routes are kept as given.
// Values carry SimGrid's unit suffixes (io/units.hpp).
#pragma once

#include <cstddef>
#include <string>

#include "model/platform.hpp"

namespace pugi {
class xml_document;
class xml_node;
}  // namespace pugi

namespace ringsim::io {

// Reads and validates (model/platform.hpp's validate): throws InputError naming the file, the
// line and the problem ("p.xml:12: route 'h1' -> 'h2' names unknown link 'l9'").
Platform parse_platform_xml(const std::string& text, const std::string& where);
Platform read_platform_xml(const std::string& path);

// Hosts and routers, links, then routes, all in model order; graph edges as symmetrical one-link
// routes. `provenance` (e.g. the command that made the file) becomes the zone's first
// <prop id="provenance" value="..."/> (SimGrid keeps it as a zone property; ringsim's reader
// skips it).
std::string format_platform_xml(const Platform& p, const std::string& provenance = "");
void write_platform_xml(const Platform& p, const std::string& path, const std::string& provenance = "");

// Shared with the 2005-format reader.
namespace xml_detail {
// Parses `text` into `doc`; throws InputError "malformed XML in '<where>' at line N: <reason>".
void parse_or_throw(pugi::xml_document& doc, const std::string& text, const std::string& where);
// "<where>:<line>" for a node of a document parsed from `text`.
std::string location(const std::string& text, const std::string& where, const pugi::xml_node& node);
}  // namespace xml_detail

}  // namespace ringsim::io
