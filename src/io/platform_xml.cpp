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

#include "io/json_input.hpp"
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

using xml_detail::location;

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// SimGrid 3.32's parser accepts `platform SYSTEM "<url>"` with one of these URLs only.
bool simgrid_doctype(const std::string& decl) {
  std::istringstream in(decl);
  std::string name, system, literal;
  in >> name >> system;
  std::getline(in, literal);
  const auto first = literal.find_first_not_of(" \t\r\n");
  literal = first == std::string::npos ? "" : literal.substr(first);
  const auto last = literal.find_last_not_of(" \t\r\n");
  literal = last == std::string::npos ? "" : literal.substr(0, last + 1);
  if (name != "platform" || system != "SYSTEM" || literal.size() < 2 || (literal.front() != '"' && literal.front() != '\'') ||
      literal.back() != literal.front())
    return false;
  const auto url = literal.substr(1, literal.size() - 2);
  return url == "https://simgrid.org/simgrid.dtd" || url == "http://simgrid.gforge.inria.fr/simgrid/simgrid.dtd";
}

class PlatformXmlReader {
 public:
  PlatformXmlReader(const std::string& text, const std::string& where) : text_(text), where_(where) {}

  Platform read() {
    pugi::xml_document doc;
    xml_detail::parse_or_throw(doc, text_, where_);
    const auto root = doc.document_element();
    const std::string root_name = root.name();
    if (root_name == "platform_description")
      throw InputError("'" + where_ + "' is a SimGrid 2005 platform: convert it with 'ringsim platform import'");
    if (root_name != "platform") throw fail(root, "the root element is <" + root_name + ">, not <platform>");
    // SimGrid's parser (flexml) refuses a platform without its DOCTYPE.
    bool doctype = false;
    for (const auto node : doc.children())
      doctype = doctype || (node.type() == pugi::node_doctype && simgrid_doctype(node.value()));
    if (!doctype)
      throw fail(root, "no <!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\"> before <platform> (SimGrid requires it)");
    const std::string version = root.attribute("version").value();
    if (version != "4.1") throw fail(root, "platform version '" + version + "' (ringsim reads SimGrid's version 4.1)");
    check_attributes(root, {"version"});

    pugi::xml_node content;
    for (const auto child : root.children()) {
      if (child.type() != pugi::node_element) continue;
      const std::string name = child.name();
      if (name == "config") {
        if (content) throw fail(child, "<config> after the " + std::string(content.name()) + " (SimGrid wants it first)");
        continue;
      }
      if (name != "zone" && name != "cluster")
        throw fail(child, "unsupported element <" + name + "> (ringsim reads one <zone> or one <cluster>)");
      if (content) throw fail(child, "a second <" + name + "> (ringsim reads one zone or one cluster)");
      content = child;
    }
    if (!content) throw fail(root, "no <zone> or <cluster> in the platform");
    if (std::string(content.name()) == "cluster") read_cluster(content);
    else read_zone(content);
    validate_with_location();
    return std::move(p_);
  }

 private:
  InputError fail(const pugi::xml_node& node, const std::string& msg) const {
    return InputError(location(text_, where_, node) + ": " + msg);
  }

  void check_attributes(const pugi::xml_node& node, std::initializer_list<const char*> allowed) const {
    for (const auto a : node.attributes()) {
      const bool known = std::any_of(allowed.begin(), allowed.end(), [&](const char* k) { return a.name() == std::string(k); });
      if (!known)
        throw fail(node, "unsupported attribute '" + std::string(a.name()) + "' on <" + node.name() + ">");
    }
  }

  // Unit errors carry the element's location.
  double value_of(const pugi::xml_node& node, double (*parse)(const std::string&, const std::string&),
                  const std::string& text, const std::string& what) const {
    try {
      return parse(text, what);
    } catch (const InputError& e) {
      throw fail(node, e.what());
    }
  }

  std::string required(const pugi::xml_node& node, const char* attr) const {
    const auto a = node.attribute(attr);
    if (!a) throw fail(node, "<" + std::string(node.name()) + "> lacks the attribute '" + attr + "'");
    return a.value();
  }

  std::string id_of(const pugi::xml_node& node) const {
    const auto id = required(node, "id");
    if (id.empty()) throw fail(node, "<" + std::string(node.name()) + "> has an empty id");
    return id;
  }

  SharingPolicy sharing(const pugi::xml_node& node, const char* attr, SharingPolicy dflt) const {
    const auto a = node.attribute(attr);
    if (!a) return dflt;
    const std::string v = a.value();
    if (v == "SHARED") return SharingPolicy::shared;
    if (v == "FATPIPE") return SharingPolicy::fatpipe;
    throw fail(node, "unsupported " + std::string(attr) + " '" + v + "' (ringsim reads SHARED and FATPIPE)");
  }

  void add_node_name(const pugi::xml_node& node, const std::string& name, std::size_t index) {
    if (!node_index_.emplace(name, index).second) throw fail(node, "duplicate host or router name " + quoted(name));
  }

  void add_link_name(const pugi::xml_node& node, const std::string& name, std::size_t index) {
    if (!link_index_.emplace(name, index).second) throw fail(node, "duplicate link name " + quoted(name));
  }

  void read_host(const pugi::xml_node& node) {
    check_attributes(node, {"id", "speed", "core", "speed_file", "state_file"});
    const auto id = id_of(node);
    std::string speed_text = required(node, "speed");
    if (speed_text.find(',') != std::string::npos)
      throw fail(node, "host " + quoted(id) + " lists several pstates (ringsim reads one speed)");
    const double speed = value_of(node, parse_speed, speed_text, "host " + quoted(id));
    if (!(speed > 0)) throw fail(node, "host " + quoted(id) + " has speed " + speed_text + " (must be > 0)");
    const auto index = p_.add_host(id, speed);
    auto& h = p_.nodes[index];
    if (const auto core = node.attribute("core")) {
      const std::string c = core.value();
      std::size_t used = 0;
      int cores = 0;
      try {
        cores = std::stoi(c, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != c.size() || c.empty() || cores < 1)
        throw fail(node, "host " + quoted(id) + " has core '" + c + "' (must be an integer >= 1)");
      h.cores = cores;
    }
    h.speed_file = node.attribute("speed_file").value();
    h.state_file = node.attribute("state_file").value();
    for (const auto child : node.children())
      if (child.type() == pugi::node_element && std::string(child.name()) != "prop")
        throw fail(child, "unsupported element <" + std::string(child.name()) + "> in a host");
    add_node_name(node, id, index);
  }

  void read_router(const pugi::xml_node& node) {
    check_attributes(node, {"id"});
    const auto id = id_of(node);
    add_node_name(node, id, p_.add_router(id));
  }

  void read_link(const pugi::xml_node& node) {
    check_attributes(node, {"id", "bandwidth", "latency", "sharing_policy", "bandwidth_file", "latency_file", "state_file"});
    const auto id = id_of(node);
    const std::string bw_text = required(node, "bandwidth");
    if (bw_text.find_first_of(",;") != std::string::npos)
      throw fail(node, "link " + quoted(id) + " lists several bandwidths (ringsim reads one)");
    const double bw = value_of(node, parse_bandwidth, bw_text, "link " + quoted(id));
    if (bw == 0) throw fail(node, "link " + quoted(id) + " has zero bandwidth");
    if (!(bw > 0)) throw fail(node, "link " + quoted(id) + " has a negative bandwidth");
    // SimGrid 3.32 fails on a link without latency ("cannot parse number").
    const double lat = value_of(node, parse_time, required(node, "latency"), "link " + quoted(id));
    if (!(lat >= 0)) throw fail(node, "link " + quoted(id) + " has a negative latency");
    const auto index = p_.add_link(id, bw, lat, sharing(node, "sharing_policy", SharingPolicy::shared));
    auto& l = p_.links[index];
    l.bandwidth_file = node.attribute("bandwidth_file").value();
    l.latency_file = node.attribute("latency_file").value();
    l.state_file = node.attribute("state_file").value();
    add_link_name(node, id, index);
  }

  std::size_t node_named(const pugi::xml_node& route, const char* attr) const {
    const auto name = required(route, attr);
    const auto it = node_index_.find(name);
    if (it == node_index_.end())
      throw fail(route, "route " + std::string(attr) + " " + quoted(name) + " names no host or router");
    return it->second;
  }

  struct RouteRead {
    std::size_t src, dst;
    std::vector<std::size_t> links;
    bool symmetrical;
  };

  RouteRead read_route(const pugi::xml_node& node) const {
    check_attributes(node, {"src", "dst", "symmetrical"});
    RouteRead r{node_named(node, "src"), node_named(node, "dst"), {}, true};
    const std::string what = "route " + quoted(p_.nodes[r.src].name) + " -> " + quoted(p_.nodes[r.dst].name);
    if (const auto sym = node.attribute("symmetrical")) {
      const std::string s = sym.value();
      if (s == "YES" || s == "yes") r.symmetrical = true;
      else if (s == "NO" || s == "no") r.symmetrical = false;
      else throw fail(node, what + " has symmetrical='" + s + "' (YES or NO)");
    }
    if (r.src == r.dst) throw fail(node, what + " goes nowhere");
    for (const auto child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      if (std::string(child.name()) != "link_ctn")
        throw fail(child, "unsupported element <" + std::string(child.name()) + "> in a route");
      check_attributes(child, {"id", "direction"});
      const std::string dir = child.attribute("direction").value();
      if (!dir.empty() && dir != "NONE")
        throw fail(child, what + ": link direction '" + dir + "' (ringsim reads no split-duplex links)");
      const auto id = required(child, "id");
      const auto it = link_index_.find(id);
      if (it == link_index_.end()) throw fail(child, what + " names unknown link " + quoted(id));
      r.links.push_back(it->second);
    }
    if (r.links.empty()) throw fail(node, what + " lists no link");
    return r;
  }

  void read_zone(const pugi::xml_node& zone) {
    check_attributes(zone, {"id", "routing"});
    p_.zone_name = id_of(zone);
    const std::string routing = required(zone, "routing");
    const auto r = zone_routing_from_string(routing);
    if (!r) throw fail(zone, "unsupported routing '" + routing + "' (ringsim reads Full, Floyd, Dijkstra, DijkstraCache)");
    p_.routing = *r;

    std::vector<pugi::xml_node> routes;
    pugi::xml_node cluster;
    pugi::xml_node other;
    for (const auto child : zone.children()) {
      if (child.type() != pugi::node_element) continue;
      const std::string name = child.name();
      // SimGrid's DTD order: properties, then resources, then routes.
      if (name == "prop") {
        if (other || cluster) throw fail(child, "<prop> after the zone's content (SimGrid wants properties first)");
        continue;
      }
      if (name != "route" && !routes.empty())
        throw fail(child, "<" + name + "> after a <route> (SimGrid wants all routes last)");
      if (name == "cluster") {
        if (cluster) throw fail(child, "a second <cluster> (ringsim reads one)");
        cluster = child;
        continue;
      }
      other = other ? other : child;
      if (name == "host") read_host(child);
      else if (name == "router") read_router(child);
      else if (name == "link") read_link(child);
      else if (name == "route") routes.push_back(child);
      else throw fail(child, "unsupported element <" + name + "> in a zone");
    }
    if (cluster) {
      if (other) throw fail(other, "a <cluster> mixed with other elements in one zone (ringsim reads it alone)");
      read_cluster(cluster);
      return;
    }
    if (p_.graph_routed()) read_graph_routes(routes);
    else
      for (const auto& node : routes) {
        auto route = read_route(node);
        p_.routes.push_back({route.src, route.dst, std::move(route.links), route.symmetrical});
      }
  }

  // One-link routes between adjacent nodes, paired into undirected edges.
  void read_graph_routes(const std::vector<pugi::xml_node>& routes) {
    std::map<std::pair<std::size_t, std::size_t>, std::pair<std::size_t, pugi::xml_node>> arcs;  // -> link, node
    std::vector<std::pair<std::size_t, std::size_t>> order;
    for (const auto& node : routes) {
      const auto r = read_route(node);
      const std::string what = "route " + quoted(p_.nodes[r.src].name) + " -> " + quoted(p_.nodes[r.dst].name);
      if (r.links.size() != 1)
        throw fail(node, what + " has " + std::to_string(r.links.size()) + " links (in " + to_string(p_.routing) +
                             " zones ringsim reads one link per route, between adjacent nodes)");
      std::vector<std::pair<std::size_t, std::size_t>> dirs{{r.src, r.dst}};
      if (r.symmetrical) dirs.emplace_back(r.dst, r.src);
      for (const auto& d : dirs) {
        if (!arcs.emplace(d, std::make_pair(r.links.front(), node)).second)
          throw fail(node, "duplicate route " + quoted(p_.nodes[d.first].name) + " -> " + quoted(p_.nodes[d.second].name));
        order.push_back(d);
      }
    }
    std::set<std::pair<std::size_t, std::size_t>> done;
    for (const auto& d : order) {
      const auto key = std::minmax(d.first, d.second);
      if (done.count(key)) continue;
      const auto& [link, node] = arcs.at(d);
      const auto back = arcs.find({d.second, d.first});
      const std::string what = "route " + quoted(p_.nodes[d.first].name) + " -> " + quoted(p_.nodes[d.second].name);
      if (back == arcs.end())
        throw fail(node, what + " is one-way (ringsim reads symmetrical routes in " + to_string(p_.routing) + " zones)");
      if (back->second.first != link)
        throw fail(node, what + " and its reverse use different links");
      p_.add_edge(d.first, d.second, link);
      done.insert(key);
    }
  }

  static std::vector<int> parse_radical(const std::string& text) {
    std::vector<int> out;
    std::istringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
      const auto dash = part.find('-');
      std::size_t used1 = 0, used2 = 0;
      const std::string first = part.substr(0, dash);
      const std::string last = dash == std::string::npos ? first : part.substr(dash + 1);
      const int a = std::stoi(first, &used1), b = std::stoi(last, &used2);
      if (used1 != first.size() || used2 != last.size() || b < a || a < 0) throw std::invalid_argument(part);
      for (int i = a; i <= b; ++i) out.push_back(i);
    }
    return out;
  }

  // SimGrid's flat cluster: host i reaches host j through i's private link (UP half when
  // split-duplex), the backbone if any, then j's private link (DOWN half).
  void read_cluster(const pugi::xml_node& node) {
    check_attributes(node, {"id", "prefix", "suffix", "radical", "speed", "core", "bw", "lat", "sharing_policy",
                            "bb_bw", "bb_lat", "bb_sharing_policy", "topology", "router_id", "loopback_bw",
                            "loopback_lat"});
    const auto id = id_of(node);
    const std::string topology = node.attribute("topology").value();
    if (!topology.empty() && topology != "FLAT")
      throw fail(node, "cluster topology '" + topology + "' (ringsim reads FLAT clusters)");
    std::vector<int> radicals;
    try {
      radicals = parse_radical(required(node, "radical"));
    } catch (const std::invalid_argument&) {
      throw fail(node, "cluster " + quoted(id) + " has a malformed radical");
    } catch (const std::out_of_range&) {
      throw fail(node, "cluster " + quoted(id) + " has a malformed radical");
    }
    if (radicals.empty()) throw fail(node, "cluster " + quoted(id) + " has no host");
    if (radicals.size() > 512)
      throw fail(node, "cluster " + quoted(id) + " has " + std::to_string(radicals.size()) +
                           " hosts (ringsim converts clusters of at most 512 hosts to explicit routes)");
    const std::string prefix = node.attribute("prefix").value(), suffix = node.attribute("suffix").value();
    const std::string speed_text = required(node, "speed");
    const double speed = value_of(node, parse_speed, speed_text, "cluster " + quoted(id));
    if (!(speed > 0)) throw fail(node, "cluster " + quoted(id) + " has speed " + speed_text + " (must be > 0)");
    int cores = 1;
    if (const auto c = node.attribute("core")) {
      cores = c.as_int(0);
      if (cores < 1) throw fail(node, "cluster " + quoted(id) + " has core '" + c.value() + "'");
    }
    const double bw = value_of(node, parse_bandwidth, required(node, "bw"), "cluster " + quoted(id));
    const double lat = value_of(node, parse_time, required(node, "lat"), "cluster " + quoted(id));
    if (bw == 0) throw fail(node, "cluster " + quoted(id) + " has zero bandwidth");
    const std::string policy = node.attribute("sharing_policy").value();
    const bool split = policy.empty() || policy == "SPLITDUPLEX";
    const auto private_policy = split ? SharingPolicy::shared : sharing(node, "sharing_policy", SharingPolicy::shared);

    p_.zone_name = id;
    p_.routing = ZoneRouting::full;
    std::vector<std::size_t> hosts, up, down;
    for (int r : radicals) {
      const auto name = prefix + std::to_string(r) + suffix;
      const auto h = p_.add_host(name, speed);
      p_.nodes[h].cores = cores;
      add_node_name(node, name, h);
      hosts.push_back(h);
      const auto link_name = id + "_link_" + std::to_string(r);
      if (split) {
        up.push_back(p_.add_link(link_name + "_UP", bw, lat));
        down.push_back(p_.add_link(link_name + "_DOWN", bw, lat));
      } else {
        up.push_back(p_.add_link(link_name, bw, lat, private_policy));
        down.push_back(up.back());
      }
    }
    const std::string router_id = node.attribute("router_id").value();
    const auto router = router_id.empty() ? prefix + id + "_router" + suffix : router_id;
    add_node_name(node, router, p_.add_router(router));
    std::optional<std::size_t> backbone;
    if (const auto bb = node.attribute("bb_bw")) {
      const double bb_bw = value_of(node, parse_bandwidth, bb.value(), "the backbone of cluster " + quoted(id));
      if (bb_bw == 0) throw fail(node, "cluster " + quoted(id) + " has a backbone of zero bandwidth");
      const double bb_lat = value_of(node, parse_time, required(node, "bb_lat"), "the backbone of cluster " + quoted(id));
      backbone = p_.add_link(id + "_backbone", bb_bw, bb_lat, sharing(node, "bb_sharing_policy", SharingPolicy::shared));
    }
    for (std::size_t i = 0; i < hosts.size(); ++i)
      for (std::size_t j = 0; j < hosts.size(); ++j) {
        if (i == j) continue;
        std::vector<std::size_t> links{up[i]};
        if (backbone) links.push_back(*backbone);
        links.push_back(down[j]);
        p_.routes.push_back({hosts[i], hosts[j], std::move(links), false});
      }
  }

  // Whole-platform problems (e.g. disconnected hosts) have no line: the file is named.
  void validate_with_location() const {
    try {
      validate(p_);
    } catch (const InputError& e) {
      throw InputError(where_ + ": " + e.what());
    }
  }

  const std::string& text_;
  const std::string& where_;
  Platform p_;
  std::unordered_map<std::string, std::size_t> node_index_;
  std::unordered_map<std::string, std::size_t> link_index_;
};

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

Platform parse_platform_xml(const std::string& text, const std::string& where) {
  return PlatformXmlReader(text, where).read();
}

Platform read_platform_xml(const std::string& path) { return parse_platform_xml(read_text(path), path); }

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
  for (const auto& n : p.nodes) {  // in model order, so that reading gives the same indices
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
