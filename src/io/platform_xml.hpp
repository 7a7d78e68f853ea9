// Writing SimGrid platform XML (DTD 4.1) from ringsim's model: the Tiers generator's and the
// importers' output. Reading platforms is SimGrid's job (platform/platform_reader.hpp): ringsim has no
// reader of this format. One zone routing="Full|Floyd|Dijkstra|DijkstraCache" holding, in model
// order, <host id speed [core] [speed_file] [state_file]> and <router id>, then
// <link id bandwidth latency [sharing_policy] [bandwidth_file] [latency_file] [state_file]>, then
// one symmetrical one-link <route> per graph edge or the explicit routes; values with SimGrid's
// unit suffixes (io/units.hpp), written so that they read back to the same doubles.
#pragma once

#include <cstddef>
#include <string>

#include "model/platform_graph.hpp"

namespace pugi {
class xml_document;
class xml_node;
}  // namespace pugi

namespace ringsim::io {

// Hosts and routers, links, then routes, all in model order; graph edges as symmetrical one-link
// routes. `provenance` (e.g. the command that made the file) becomes the zone's first
// <prop id="provenance" value="..."/> (SimGrid keeps it as a zone property).
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
