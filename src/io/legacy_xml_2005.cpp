#include "io/legacy_xml_2005.hpp"

#include "io/json_input.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <unordered_map>
#include <utility>

#include <pugixml.hpp>

#include "io/platform_xml.hpp"
#include "io/text_fields.hpp"
#include "model/errors.hpp"

namespace ringsim::io {
namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

class LegacyReader {
 public:
  LegacyReader(const std::string& text, const std::string& where) : text_(text), where_(where) {}

  Platform read() {
    pugi::xml_document doc;
    xml_detail::parse_or_throw(doc, text_, where_);
    const auto root = doc.document_element();
    if (std::string(root.name()) != "platform_description")
      throw fail(root, "the root element is <" + std::string(root.name()) + ">, not <platform_description> (2005 format)");
    p_.zone_name = "AS0";
    p_.routing = ZoneRouting::full;
    std::vector<pugi::xml_node> routes;
    for (const auto child : root.children()) {
      if (child.type() != pugi::node_element) continue;
      const std::string name = child.name();
      if (name == "cpu") read_cpu(child);
      else if (name == "network_link") read_link(child);
      else if (name == "route") routes.push_back(child);
      else throw fail(child, "unsupported element <" + name + "> in a 2005 platform");
    }
    for (const auto& r : routes) read_route(r);
    try {
      validate(p_);
    } catch (const InputError& e) {
      throw InputError(where_ + ": " + e.what());
    }
    return std::move(p_);
  }

 private:
  InputError fail(const pugi::xml_node& node, const std::string& msg) const {
    return InputError(xml_detail::location(text_, where_, node) + ": " + msg);
  }

  std::string required(const pugi::xml_node& node, const char* attr) const {
    const auto a = node.attribute(attr);
    if (!a || std::string(a.value()).empty())
      throw fail(node, "<" + std::string(node.name()) + "> lacks the attribute '" + attr + "'");
    return a.value();
  }

  double number(const pugi::xml_node& node, const char* attr, const std::string& what) const {
    const auto text = required(node, attr);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !std::isfinite(v) || holds_hexadecimal(text))
      throw fail(node, what + " has " + attr + "='" + text + "' (a plain decimal number is expected in the 2005 format)");
    if (v < 0) throw fail(node, what + " has " + attr + "='" + text + "' (must be >= 0)");
    return v;
  }

  // Attributes the 2005 DTD defines but ringsim does not model: accepted at their defaults only.
  void check_attributes(const pugi::xml_node& node, std::initializer_list<const char*> modelled,
                        std::initializer_list<std::pair<const char*, double>> defaults, const std::string& what) const {
    for (const auto a : node.attributes()) {
      const std::string name = a.name();
      if (std::any_of(modelled.begin(), modelled.end(), [&](const char* k) { return name == k; })) continue;
      if (name == "state" && std::string(a.value()) == "ON") continue;
      const auto d = std::find_if(defaults.begin(), defaults.end(), [&](const auto& kv) { return name == kv.first; });
      if (d != defaults.end()) {
        char* end = nullptr;
        const double v = std::strtod(a.value(), &end);
        if (end != a.value() && *end == '\0' && v == d->second) continue;
      }
      throw fail(node, what + ": unsupported attribute " + name + "='" + a.value() + "'");
    }
  }

  void read_cpu(const pugi::xml_node& node) {
    const auto name = required(node, "name");
    const std::string what = "cpu " + quoted(name);
    check_attributes(node, {"name", "power"},
                     {{"availability", 1.0}, {"interference_send", 1.0}, {"interference_recv", 1.0},
                      {"interference_send_recv", 1.0}, {"max_outgoing_rate", -1.0}},
                     what);
    const double mflops = number(node, "power", what);
    if (!(mflops > 0)) throw fail(node, what + " has power " + std::to_string(mflops) + " (must be > 0)");
    if (!nodes_.emplace(name, p_.add_host(name, mflops * 1e6)).second)
      throw fail(node, "duplicate cpu name " + quoted(name));
  }

  void read_link(const pugi::xml_node& node) {
    const auto name = required(node, "name");
    const std::string what = "network_link " + quoted(name);
    check_attributes(node, {"name", "bandwidth", "latency", "sharing_policy"}, {}, what);
    const double mbps = number(node, "bandwidth", what);
    if (mbps == 0) throw fail(node, what + " has zero bandwidth");
    if (!(mbps > 0)) throw fail(node, what + " has a negative bandwidth");
    const double latency = node.attribute("latency") ? number(node, "latency", what) : 0.0;
    if (!(latency >= 0)) throw fail(node, what + " has a negative latency");
    auto policy = SharingPolicy::shared;
    if (const auto sp = node.attribute("sharing_policy")) {
      const std::string v = sp.value();
      if (v == "FATPIPE") policy = SharingPolicy::fatpipe;
      else if (v != "SHARED") throw fail(node, what + " has sharing_policy '" + v + "' (SHARED or FATPIPE)");
    }
    if (!links_.emplace(name, p_.add_link(name, mbps * 1e6, latency, policy)).second)
      throw fail(node, "duplicate network_link name " + quoted(name));
  }

  void read_route(const pugi::xml_node& node) {
    const auto src = required(node, "src"), dst = required(node, "dst");
    const std::string what = "route " + quoted(src) + " -> " + quoted(dst);
    check_attributes(node, {"src", "dst"},
                     {{"impact_on_src", 0.0}, {"impact_on_dst", 0.0}, {"impact_on_src_with_other_recv", 0.0},
                      {"impact_on_dst_with_other_send", 0.0}},
                     what);
    const auto s = nodes_.find(src), d = nodes_.find(dst);
    if (s == nodes_.end()) throw fail(node, what + ": unknown cpu " + quoted(src));
    if (d == nodes_.end()) throw fail(node, what + ": unknown cpu " + quoted(dst));
    ExplicitRoute r{s->second, d->second, {}, false};
    for (const auto child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      if (std::string(child.name()) != "route_element")
        throw fail(child, "unsupported element <" + std::string(child.name()) + "> in a route");
      const auto link = required(child, "name");
      const auto it = links_.find(link);
      if (it == links_.end()) throw fail(child, what + " names unknown network_link " + quoted(link));
      r.links.push_back(it->second);
    }
    if (r.links.empty()) throw fail(node, what + " lists no route_element");
    p_.routes.push_back(std::move(r));
  }

  const std::string& text_;
  const std::string& where_;
  Platform p_;
  std::unordered_map<std::string, std::size_t> nodes_;
  std::unordered_map<std::string, std::size_t> links_;
};

}  // namespace

Platform parse_legacy_platform_2005(const std::string& text, const std::string& where) {
  return LegacyReader(text, where).read();
}

Platform read_legacy_platform_2005(const std::string& path) {
  return parse_legacy_platform_2005(read_text(path), path);
}

}  // namespace ringsim::io
