#include "platform/platform_reader.hpp"

#include <climits>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>
#include <stdexcept>

#include <simgrid/Exception.hpp>
#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include "io/json_input.hpp"
#include "io/platform_file.hpp"
#include "model/errors.hpp"
#include "platform/abort_guard.hpp"
#include "platform/simgrid_log.hpp"

XBT_LOG_NEW_DEFAULT_CATEGORY(ringsim_platform_reader, "ringsim: platforms loaded by SimGrid, read back");

namespace sg4 = simgrid::s4u;
namespace kr = simgrid::kernel::routing;

namespace ringsim::platform {
namespace {

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// A temporary 4.1 file for a converted platform, removed when done.
class TemporaryFile {
 public:
  explicit TemporaryFile(const std::string& text) {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/ringsim-platform-XXXXXX.xml";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    const int fd = ::mkstemps(name.data(), 4);
    if (fd < 0) throw std::runtime_error("cannot create a temporary platform file: " + std::string(std::strerror(errno)));
    path_ = name.data();
    const char* p = text.data();
    std::size_t left = text.size();
    while (left > 0) {
      const ssize_t k = ::write(fd, p, left);
      if (k < 0) {
        ::close(fd);
        ::unlink(path_.c_str());
        throw std::runtime_error("cannot write a temporary platform file: " + std::string(std::strerror(errno)));
      }
      p += k;
      left -= static_cast<std::size_t>(k);
    }
    ::close(fd);
  }
  ~TemporaryFile() { ::unlink(path_.c_str()); }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Creation order of hosts and links, recorded while a LoadedPlatform loads (these signals cannot be
// disconnected: they are connected once and record only while the targets are set).
std::vector<sg4::Host*>* g_host_order = nullptr;
std::vector<sg4::Link*>* g_link_order = nullptr;

void record_creation_order(std::vector<sg4::Host*>* hosts, std::vector<sg4::Link*>* links) {
  static const bool connected = [] {
    sg4::Host::on_creation_cb([](sg4::Host& h) {
      if (g_host_order) g_host_order->push_back(&h);
    });
    sg4::Link::on_creation_cb([](sg4::Link& l) {
      if (g_link_order) g_link_order->push_back(&l);
    });
    return true;
  }();
  (void)connected;
  g_host_order = hosts;
  g_link_order = links;
}

bool has_routes_kind(const std::string& kind) { return kind == "Full" || kind == "Floyd" || kind == "Dijkstra"; }

}  // namespace

std::size_t add_loaded_link(Platform& p, const sg4::Link* l) {
  return p.add_link(l->get_name(), l->get_bandwidth(), l->get_latency(),
                    l->get_sharing_policy() == sg4::Link::SharingPolicy::FATPIPE ? SharingPolicy::fatpipe
                                                                                 : SharingPolicy::shared);
}

bool LoadedPlatform::may_hold_speed_profiles() const {
  // Only an XML 4.1 file can give a host a profile (ringsim's conversions write none).
  return io::platform_file(path_).may_hold_speed_profiles;
}

std::string LoadedPlatform::why_no_graph() const {
  if (graph_known()) return "";
  return declared() ? "explicit routes (a Full zone)" : why_no_model();
}

sg4::Engine& reading_engine() {
  static int argc = 1;
  static char program[] = "ringsim";
  static char* argv[] = {program, nullptr};
  static auto* engine = new sg4::Engine(&argc, argv);
  return *engine;
}

std::string zone_kind(const sg4::NetZone* zone) {
  // By the type's name: several zone classes are private to libsimgrid (no typeinfo to cast to).
  const auto& impl = *zone->get_impl();
  const std::string type = typeid(impl).name();
  static const std::pair<std::string, const char*> kinds[] = {
      {"FullZone", "Full"},       {"FloydZone", "Floyd"},     {"DijkstraZone", "Dijkstra"},
      {"VivaldiZone", "Vivaldi"}, {"WifiZone", "Wifi"},       {"StarZone", "Star"},
      {"EmptyZone", "None"},      {"TorusZone", "Torus"},     {"FatTreeZone", "FatTree"},
      {"DragonflyZone", "Dragonfly"}, {"ClusterZone", "Cluster"}, {"ClusterBase", "Cluster"}};
  for (const auto& [name, kind] : kinds) {
    const std::string s = std::to_string(name.size()) + name + "E";  // Itanium ABI: length, name
    if (type.size() >= s.size() && type.compare(type.size() - s.size(), s.size(), s) == 0) return kind;
  }
  return type;
}

LoadedPlatform::LoadedPlatform(sg4::Engine& engine, const std::string& path)
    : engine_(&engine), path_(path), format_(io::platform_file(path).format) {
  // What SimGrid would run with but take wrong, abort on or never end with is refused before it
  // loads: platform_file checks the file's numbers, <config> options and profiles.
  std::optional<TemporaryFile> converted;
  if (format_ != io::PlatformFormat::simgrid4) converted.emplace(io::converted_to_simgrid4(path, format_));
  load_recording_creations(converted ? converted->path() : path);
  if (engine.get_host_count() == 0) throw InputError("platform '" + path + "' has no host");
  keep_hosts_once();
  keep_platform_links();
  for (const auto* np : engine.get_all_netpoints())
    if (np->is_router()) ++routers_;
  summarize_zones(engine.get_netzone_root(), 0);
  prepare_host_routing();
  XBT_DEBUG("loaded %s: %zu hosts, %zu links, %zu zones", path.c_str(), hosts_.size(), links_.size(), zones_.size());
}

void LoadedPlatform::load_recording_creations(const std::string& file) {
  const auto route_cb = kr::NetZoneImpl::on_route_creation.connect(
      [this](bool symmetrical, kr::NetPoint* src, kr::NetPoint* dst, kr::NetPoint* gw_src, kr::NetPoint* gw_dst,
                  std::vector<simgrid::kernel::resource::StandardLinkImpl*> const& links) {
        DeclaredRoute r;
        r.src = src;
        r.dst = dst;
        r.through_gateways = gw_src != nullptr || gw_dst != nullptr;
        r.symmetrical = symmetrical;
        r.links.assign(links.begin(), links.end());
        declared_routes_.push_back(std::move(r));
      });
  record_creation_order(&hosts_, &links_);
  try {
    AbortGuard guard("SimGrid cannot load platform '" + path_ + "'");
    engine_->load_platform(file);
  } catch (const std::exception& e) {
    kr::NetZoneImpl::on_route_creation.disconnect(route_cb);
    record_creation_order(nullptr, nullptr);
    throw InputError("SimGrid cannot load platform '" + path_ + "': " + one_line(e.what()));
  }
  kr::NetZoneImpl::on_route_creation.disconnect(route_cb);
  record_creation_order(nullptr, nullptr);
}

// Hosts once each (a host may be signalled at creation and at sealing), in creation order.
void LoadedPlatform::keep_hosts_once() {
  std::set<const sg4::Host*> seen;
  std::vector<sg4::Host*> unique;
  for (auto* h : hosts_)
    if (seen.insert(h).second) unique.push_back(h);
  for (auto* h : engine_->get_all_hosts())  // hosts created without the signal (none known), by name
    if (seen.insert(h).second) unique.push_back(h);
  hosts_ = std::move(unique);
}

// Links: split-duplex links are their two directions (what routes cross); SimGrid's internal
// links (the loopback, "__...") are not the platform's.
void LoadedPlatform::keep_platform_links() {
  std::vector<sg4::Link*> all = links_;
  for (auto* l : engine_->get_all_links()) all.push_back(l);
  std::vector<sg4::Link*> unique;
  std::set<const sg4::Link*> seen;
  std::function<void(sg4::Link*)> add = [&](sg4::Link* l) {
    if (l->get_sharing_policy() == sg4::Link::SharingPolicy::SPLITDUPLEX) {
      const auto* sd = static_cast<const sg4::SplitDuplexLink*>(l);
      split_duplex_parts_.insert(sd->get_link_up()->get_impl());
      split_duplex_parts_.insert(sd->get_link_down()->get_impl());
      add(sd->get_link_up());
      add(sd->get_link_down());
      return;
    }
    if (l->get_name().rfind("__", 0) == 0) return;
    if (seen.insert(l).second) unique.push_back(l);
  };
  for (auto* l : all) add(l);
  links_ = std::move(unique);
  link_index_.reserve(links_.size());
  for (std::size_t i = 0; i < links_.size(); ++i) link_index_[links_[i]] = i;
}

// Zones, depth first.
void LoadedPlatform::summarize_zones(const sg4::NetZone* z, std::size_t depth) {
  ZoneSummary s;
  s.name = z->get_name();
  s.kind = zone_kind(z);
  s.depth = depth;
  const auto children = z->get_children();
  s.children = children.size();
  std::size_t below = 0;
  for (const auto* c : children) below += c->get_host_count();
  s.hosts = z->get_host_count() - std::min(below, z->get_host_count());
  zones_.push_back(s);
  for (const auto* c : children) summarize_zones(c, depth + 1);
}

// Hosts of routing="None" zones cannot be routed at all. Wifi stations: SimGrid needs each
// station's rate level on the wifi link (Link::set_host_wifi_rate), which its XML cannot say;
// without it every message aborts. A host property "wifi_rate" gives the level, else 0 (the
// link's first bandwidth).
void LoadedPlatform::prepare_host_routing() {
  for (const auto* h : hosts_) {
    const auto* zone = h->get_englobing_zone();
    const std::string kind = zone_kind(zone);
    if (kind == "None")
      unroutable_[h] = "host '" + h->get_name() + "' is in zone '" + zone->get_name() +
                       "' (routing None): SimGrid routes nothing there";
    if (kind != "Wifi") continue;
    int level = 0;
    if (const char* v = h->get_property("wifi_rate")) {
      char* end = nullptr;
      const long x = std::strtol(v, &end, 10);
      if (end == v || *end != '\0' || x < 0 || x > INT_MAX)
        throw InputError("host '" + h->get_name() + "': property wifi_rate must be a rate level (0, 1, ...), not '" + v + "'");
      level = static_cast<int>(x);
    }
    for (const auto* l : links_)
      if (l->get_sharing_policy() == sg4::Link::SharingPolicy::WIFI) l->set_host_wifi_rate(h, level);
  }
}

// The declared model, built on first use (most runs never need it: the paper's platform declares
// 8010 routes).
void LoadedPlatform::build_declared() const {
  if (declared_built_) return;
  declared_built_ = true;
  // The declared model: one zone that holds everything, routes between its own vertices.
  const std::string& kind = zones_.front().kind;
  const sg4::NetZone* root = engine_->get_netzone_root();
  const sg4::Engine& engine = *engine_;
  if (zones_.size() != 1) {
    why_no_model_ = std::to_string(zones_.size()) + " zones";
  } else if (!has_routes_kind(kind)) {
    why_no_model_ = "a " + kind + " zone";
  } else {
    Platform p;
    p.zone_name = root->get_name();
    p.routing = kind == "Full" ? ZoneRouting::full : kind == "Floyd" ? ZoneRouting::floyd : ZoneRouting::dijkstra;
    auto vertices = root->get_impl()->get_vertices();
    std::sort(vertices.begin(), vertices.end(),
              [](const kr::NetPoint* a, const kr::NetPoint* b) { return a->id() < b->id(); });
    std::map<const kr::NetPoint*, std::size_t> node_of;
    for (const auto* v : vertices) {
      if (v->is_host()) {
        const auto* h = engine.host_by_name(v->get_name());
        node_of[v] = p.add_host(v->get_name(), h->get_speed());
        p.nodes.back().cores = h->get_core_count();
      } else if (v->is_router()) {
        node_of[v] = p.add_router(v->get_name());
      }
    }
    std::map<const simgrid::kernel::resource::StandardLinkImpl*, std::size_t> link_of;
    for (auto* l : links_) link_of[l->get_impl()] = add_loaded_link(p, l);
    std::set<std::pair<std::size_t, std::size_t>> directed;  // graph zones: one-link routes given
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> edge_link;
    for (const auto& r : declared_routes_) {
      if (r.through_gateways || !node_of.count(r.src) || !node_of.count(r.dst)) {
        why_no_model_ = "routes through gateways";
        break;
      }
      const std::size_t a = node_of[r.src], b = node_of[r.dst];
      if (a == b) continue;  // a loopback route: nothing the ring planners use
      // A split-duplex link is one capacity per direction: an undirected edge or a symmetrical
      // route read back reversed cannot hold it (the platform mode reads SimGrid's routes instead).
      if (std::any_of(r.links.begin(), r.links.end(), [&](const auto* l) { return split_duplex_parts_.count(l) > 0; })) {
        why_no_model_ = "split-duplex links ('" + r.src->get_name() + "' - '" + r.dst->get_name() + "')";
        break;
      }
      std::vector<std::size_t> links;
      for (const auto* l : r.links) {
        const auto it = link_of.find(l);
        if (it == link_of.end()) break;
        links.push_back(it->second);
      }
      if (links.size() != r.links.size()) {
        why_no_model_ = "a route crosses a link SimGrid did not list";
        break;
      }
      if (p.routing == ZoneRouting::full) {
        ExplicitRoute er;
        er.src = a;
        er.dst = b;
        er.links = std::move(links);
        er.symmetrical = r.symmetrical;
        p.routes.push_back(std::move(er));
        continue;
      }
      if (links.size() != 1) {
        why_no_model_ = "a graph edge of " + std::to_string(links.size()) + " links ('" + r.src->get_name() +
                        "' - '" + r.dst->get_name() + "')";
        break;
      }
      const auto key = std::minmax(a, b);
      const auto known = edge_link.find(key);
      if (known == edge_link.end()) {
        edge_link[key] = links[0];
        p.add_edge(a, b, links[0]);
      } else if (known->second != links[0]) {
        why_no_model_ = "two links between '" + r.src->get_name() + "' and '" + r.dst->get_name() + "'";
        break;
      }
      directed.insert({a, b});
      if (r.symmetrical) directed.insert({b, a});
    }
    if (why_no_model_.empty() && p.graph_routed())
      for (const auto& e : p.edges)
        if (!directed.count({e.a, e.b}) || !directed.count({e.b, e.a})) {
          why_no_model_ = "a one-way route ('" + p.nodes[e.a].name + "' - '" + p.nodes[e.b].name + "')";
          break;
        }
    if (why_no_model_.empty()) declared_ = std::move(p);
  }
  std::vector<DeclaredRoute>().swap(declared_routes_);
}

bool LoadedPlatform::routes_cannot_abort() const {
  return zones_.size() == 1 && zones_.front().kind == "Full" && unroutable_.empty();
}

void LoadedPlatform::seal() {
  if (sealed_) return;
  try {
    AbortGuard guard("SimGrid cannot load platform '" + path_ + "'");
    engine_->get_netzone_root()->seal();
  } catch (const std::exception& e) {
    throw InputError("SimGrid cannot load platform '" + path_ + "': " + one_line(e.what()));
  }
  sealed_ = true;
}

std::size_t LoadedPlatform::link_index(const sg4::Link* l) const {
  const auto it = link_index_.find(l);
  if (it == link_index_.end()) throw std::logic_error("link '" + l->get_name() + "' is not one of the platform's");
  return it->second;
}

}  // namespace ringsim::platform
