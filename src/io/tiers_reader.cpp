#include "io/tiers_reader.hpp"

#include <climits>
#include <cmath>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/json_input.hpp"
#include "model/errors.hpp"

namespace ringsim::io {
namespace {

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read '" + path + "'");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Whole-line integers: exactly `count` of them, nothing else.
bool read_ints(const std::string& line, std::size_t count, std::vector<long>& out) {
  std::istringstream in(line);
  out.clear();
  long v = 0;
  while (in >> v) out.push_back(v);
  if (!in.eof()) return false;  // a token that is not an integer
  return out.size() == count;
}

// Header lines such as "# 5\tNM: number of MANs per WAN" or "# 100\t Grid size (square)".
void read_header_line(const std::string& line, TiersParameters& p, int& seen, long& declared_nodes) {
  std::istringstream in(line.substr(1));
  long value = 0;
  if (!(in >> value)) {
    const auto pos = line.find("Total Number of Nodes");
    if (pos != std::string::npos) {
      const auto colon = line.find(':', pos);
      if (colon != std::string::npos) declared_nodes = std::strtol(line.c_str() + colon + 1, nullptr, 10);
    }
    return;
  }
  std::string rest;
  std::getline(in, rest);
  const auto start = rest.find_first_not_of(" \t");
  rest = start == std::string::npos ? "" : rest.substr(start);
  if (value < 0 || value > INT_MAX) return;  // no parameter of the header takes it: the parameters stay unknown
  const int v = static_cast<int>(value);
  const std::pair<const char*, int*> names[] = {{"NW:", &p.nw},  {"NM:", &p.nm},   {"NL:", &p.nl},  {"SW:", &p.sw},
                                               {"SM:", &p.sm},  {"SL:", &p.sl},   {"RW:", &p.rw},  {"RM:", &p.rm},
                                               {"RL:", &p.rl},  {"RMW:", &p.rmw}, {"RLM:", &p.rlm}};
  for (const auto& [name, field] : names)
    if (rest.rfind(name, 0) == 0) {
      *field = v;
      ++seen;
      return;
    }
  if (rest.rfind("Grid size", 0) == 0) p.grid = v;
  if (rest.rfind("Grid unit for WAN", 0) == 0) p.wan_unit = v;
  if (rest.rfind("Grid unit for MAN", 0) == 0) p.man_unit = v;
  if (rest.rfind("Grid unit for LAN", 0) == 0) p.lan_unit = v;
}

}  // namespace

TiersGraph parse_tiers(const std::string& text, const std::string& where) {
  enum class Section { header, nodes, edges };
  TiersGraph graph;
  TiersParameters params;
  int params_seen = 0;
  long declared_nodes = -1;
  Section section = Section::header;
  std::set<std::pair<std::size_t, std::size_t>> seen_edges;
  std::istringstream in(text);
  std::string line;
  std::vector<long> v;
  std::size_t lineno = 0;
  const auto fail = [&](const std::string& msg) -> InputError {
    return InputError(where + ":" + std::to_string(lineno) + ": " + msg);
  };
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    if (line[first] == '#') {
      if (line.find("# NODES") == first) section = Section::nodes;
      else if (line.find("# EDGES") == first) section = Section::edges;
      else if (section == Section::header) read_header_line(line.substr(first), params, params_seen, declared_nodes);
      continue;
    }
    if (section == Section::header) throw fail("data before the '# NODES' section (is this a Tiers file?)");
    if (section == Section::nodes) {
      if (!read_ints(line, 4, v)) throw fail("a node line must be 'id x y type' (4 integers)");
      if (v[0] != static_cast<long>(graph.nodes.size()))
        throw fail("node id " + std::to_string(v[0]) + " where " + std::to_string(graph.nodes.size()) + " was expected");
      if (v[3] < 0 || v[3] > 2) throw fail("node type " + std::to_string(v[3]) + " (0 = WAN, 1 = MAN, 2 = LAN)");
      graph.nodes.push_back({v[1], v[2], static_cast<TiersLevel>(v[3])});
    } else {
      if (!read_ints(line, 7, v))
        throw fail("an edge line must be 'from to delay bandwidth from_type to_type state' (7 integers)");
      const auto n = static_cast<long>(graph.nodes.size());
      if (v[0] < 0 || v[0] >= n || v[1] < 0 || v[1] >= n)
        throw fail("edge " + std::to_string(v[0]) + " - " + std::to_string(v[1]) + " names an unknown node");
      if (v[0] == v[1]) throw fail("edge from node " + std::to_string(v[0]) + " to itself");
      if (v[6] < 1 || v[6] > 4) throw fail("edge state " + std::to_string(v[6]) + " (1 to 4)");
      if (v[3] < 0 || v[3] > INT_MAX) throw fail("bandwidth class " + std::to_string(v[3]) + " is out of range (0 to 2147483647)");
      const auto a = static_cast<std::size_t>(v[0]), b = static_cast<std::size_t>(v[1]);
      if (!seen_edges.insert({std::min(a, b), std::max(a, b)}).second) continue;
      graph.edges.push_back({a, b, v[2], static_cast<int>(v[3]), static_cast<int>(v[6])});
    }
  }
  lineno = 0;
  if (graph.nodes.empty()) throw InputError(where + ": no node (missing '# NODES' section?)");
  if (declared_nodes >= 0 && declared_nodes != static_cast<long>(graph.nodes.size()))
    throw InputError(where + ": the header announces " + std::to_string(declared_nodes) + " nodes, the file lists " +
                     std::to_string(graph.nodes.size()));
  if (params_seen == 11) graph.parameters = params;
  return graph;
}

TiersGraph read_tiers_file(const std::string& path) { return parse_tiers(read_whole_file(path), path); }

std::string format_tiers(const TiersGraph& graph) {
  std::ostringstream out;
  out << "#\n# Parameters for Network Model (written by ringsim)\n# ============================\n#\n";
  if (const auto& p = graph.parameters) {
    out << "# Value\tParameter\n# -----\t---------\n#\n";
    out << "# " << p->nw << "\tNW: number of WANs\n# " << p->nm << "\tNM: number of MANs per WAN\n# " << p->nl
        << "\tNL: number of LANs per MAN\n# " << p->sw << "\tSW: number of nodes per WAN\n# " << p->sm
        << "\tSM: number of nodes per MAN\n# " << p->sl << "\tSL: number of nodes per LAN\n# " << p->rw
        << "\tRW: intranetwork redundancy for WAN\n# " << p->rm << "\tRM: intranetwork redundancy for MANs\n# " << p->rl
        << "\tRL: intranetwork redundancy for LANs\n# " << p->rmw << "\tRMW: internetwork redundancy for MAN to WAN\n# "
        << p->rlm << "\tRLM: internetwork redundancy for LAN to MAN\n#\n# " << p->grid << "\t Grid size (square)\n# "
        << p->wan_unit << "\t Grid unit for WAN\n# " << p->man_unit << "\t Grid unit for MAN\n# " << p->lan_unit
        << "\t Grid unit for LAN\n#\n";
  }
  out << "# Total Number of Nodes (derived) : " << graph.nodes.size() << "\n#\n";
  out << "# NODES\n# =====\n#\n# Node\tX\tY\tType (0 = WAN, 1 = MAN, 2 = LAN)\n# ------------------------------------\n";
  for (std::size_t i = 0; i < graph.nodes.size(); ++i)
    out << i << '\t' << graph.nodes[i].x << '\t' << graph.nodes[i].y << '\t' << static_cast<int>(graph.nodes[i].level)
        << '\n';
  out << "#\n# EDGES\n# =====\n#\n# From\t To\tDelay\tBand-\tFrom\tTo\tState (1:active, 2:redundant\n"
         "# Node\tNode\t     \twidth\tType\tType\t3:internetwork, 4:red.inter.)\n"
         "# ---------------------------------------------------\n";
  for (const auto& e : graph.edges)
    for (const auto& [a, b] : {std::pair{e.from, e.to}, std::pair{e.to, e.from}})
      out << a << '\t' << b << '\t' << e.delay << '\t' << e.bandwidth_class << '\t'
          << static_cast<int>(graph.nodes[a].level) << '\t' << static_cast<int>(graph.nodes[b].level) << '\t'
          << e.state << '\n';
  out << "# End of Model\n";
  return out.str();
}

MeasuredValues read_measured_values(const std::string& path) {
  const auto doc = read_json_document(path);
  const auto number = [&](const nlohmann::json& obj, const char* key, const std::string& where) {
    if (!obj.is_object() || !obj.contains(key) || !obj[key].is_number())
      throw InputError("'" + path + "': " + where + " lacks the number '" + key + "'");
    const double x = obj[key].get<double>();
    if (!std::isfinite(x) || x < 0) throw InputError("'" + path + "': " + where + "." + key + " must be >= 0");
    return x;
  };
  if (!doc.is_object() || !doc.contains("machines") || !doc["machines"].is_array() || !doc.contains("link_classes") ||
      !doc["link_classes"].is_object())
    throw InputError("'" + path + "' needs a 'machines' array and a 'link_classes' object");
  MeasuredValues values;
  for (std::size_t i = 0; i < doc["machines"].size(); ++i) {
    const double mflops = number(doc["machines"][i], "mflops", "machines[" + std::to_string(i) + "]");
    if (mflops <= 0) throw InputError("'" + path + "': machines[" + std::to_string(i) + "].mflops must be > 0");
    values.machine_mflops.push_back(mflops);
  }
  for (const auto& item : doc["link_classes"].items()) {
    int cls = 0;
    try {
      std::size_t used = 0;
      cls = std::stoi(item.key(), &used);
      if (used != item.key().size()) throw std::invalid_argument("trailing");
    } catch (const std::exception&) {
      throw InputError("'" + path + "': link class '" + item.key() + "' is not an integer");
    }
    const auto& ms = item.value().is_object() ? item.value().value("measurements", nlohmann::json()) : nlohmann::json();
    if (!ms.is_array() || ms.empty())
      throw InputError("'" + path + "': link class " + item.key() + " lacks a non-empty 'measurements' array");
    auto& list = values.link_classes[cls];
    for (std::size_t i = 0; i < ms.size(); ++i) {
      const std::string where = "link_classes." + item.key() + ".measurements[" + std::to_string(i) + "]";
      const double bw = number(ms[i], "bandwidth_MBps", where);
      if (bw <= 0) throw InputError("'" + path + "': " + where + " has zero bandwidth");
      list.push_back({bw, number(ms[i], "latency_ms", where)});
    }
  }
  if (values.machine_mflops.empty()) throw InputError("'" + path + "' lists no machine");
  return values;
}

}  // namespace ringsim::io
