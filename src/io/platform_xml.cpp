#include "io/platform_xml.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_map>
#include <utility>
#include <vector>

#include <pugixml.hpp>

#include "io/files.hpp"
#include "io/units.hpp"
#include "model/errors.hpp"

namespace ringsim::io {

namespace xml_detail {

namespace {
std::size_t line_at(const std::string& text, std::ptrdiff_t offset) {
  if (offset < 0) return 0;
  const auto end = text.begin() + std::min<std::ptrdiff_t>(offset, static_cast<std::ptrdiff_t>(text.size()));
  return static_cast<std::size_t>(std::count(text.begin(), end, '\n')) + 1;
}
}  // namespace

void parse_or_throw(pugi::xml_document& doc, const std::string& text, const std::string& where) {
  const auto result =
      doc.load_buffer(text.data(), text.size(), pugi::parse_default | pugi::parse_doctype, pugi::encoding_utf8);
  if (!result)
    throw InputError("malformed XML in '" + where + "' at line " + std::to_string(line_at(text, result.offset)) + ": " +
                     result.description());
  if (!doc.document_element()) throw InputError("malformed XML in '" + where + "': no root element");
}

std::string location(const std::string& text, const std::string& where, const pugi::xml_node& node) {
  const auto line = line_at(text, node.offset_debug());
  return line ? where + ":" + std::to_string(line) : where;
}

}  // namespace xml_detail

namespace {

std::string escaped(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string format_platform_xml(const Platform& p, const std::string& provenance) {
  std::ostringstream out;
  out << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n";
  out << "<platform version=\"4.1\">\n";
  out << "  <zone id=\"" << escaped(p.zone_name) << "\" routing=\"" << to_string(p.routing) << "\">\n";
  // A zone property rather than an XML comment, which could not hold the options' "--".
  if (!provenance.empty()) out << "    <prop id=\"provenance\" value=\"" << escaped(provenance) << "\"/>\n";
  const auto file_attr = [&](const char* name, const std::string& value) {
    if (!value.empty()) out << ' ' << name << "=\"" << escaped(value) << '"';
  };
  for (const auto& n : p.nodes) {  // in model order: SimGrid numbers them in this order too
    if (!n.is_host) {
      out << "    <router id=\"" << escaped(n.name) << "\"/>\n";
      continue;
    }
    out << "    <host id=\"" << escaped(n.name) << "\" speed=\"" << format_speed(n.speed) << '"';
    if (n.cores != 1) out << " core=\"" << n.cores << '"';
    file_attr("speed_file", n.speed_file);
    file_attr("state_file", n.state_file);
    out << "/>\n";
  }
  for (const auto& l : p.links) {
    out << "    <link id=\"" << escaped(l.name) << "\" bandwidth=\"" << format_bandwidth(l.bandwidth) << "\" latency=\""
        << format_time(l.latency) << '"';
    if (l.sharing != SharingPolicy::shared) out << " sharing_policy=\"" << to_string(l.sharing) << '"';
    file_attr("bandwidth_file", l.bandwidth_file);
    file_attr("latency_file", l.latency_file);
    file_attr("state_file", l.state_file);
    out << "/>\n";
  }
  for (const auto& e : p.edges)
    out << "    <route src=\"" << escaped(p.nodes[e.a].name) << "\" dst=\"" << escaped(p.nodes[e.b].name)
        << "\"><link_ctn id=\"" << escaped(p.links[e.link].name) << "\"/></route>\n";
  for (const auto& r : p.routes) {
    out << "    <route src=\"" << escaped(p.nodes[r.src].name) << "\" dst=\"" << escaped(p.nodes[r.dst].name)
        << "\" symmetrical=\"" << (r.symmetrical ? "YES" : "NO") << "\">";
    for (auto l : r.links) out << "<link_ctn id=\"" << escaped(p.links[l].name) << "\"/>";
    out << "</route>\n";
  }
  out << "  </zone>\n</platform>\n";
  return out.str();
}

void write_platform_xml(const Platform& p, const std::string& path, const std::string& provenance) {
  write_file_atomically(path, format_platform_xml(p, provenance));
}

}  // namespace ringsim::io
