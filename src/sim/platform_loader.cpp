#include "sim/platform_loader.hpp"

#include <string>
#include <vector>

#include <simgrid/Exception.hpp>
#include <simgrid/kernel/ProfileBuilder.hpp>
#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include "model/errors.hpp"

XBT_LOG_NEW_DEFAULT_CATEGORY(ringsim_platform_loader, "ringsim: building SimGrid platforms");

namespace sg4 = simgrid::s4u;

namespace ringsim::sim {
namespace {

sg4::NetZone* create_zone(const Platform& p) {
  switch (p.routing) {
    case ZoneRouting::full: return sg4::create_full_zone(p.zone_name);
    case ZoneRouting::floyd: return sg4::create_floyd_zone(p.zone_name);
    case ZoneRouting::dijkstra: return sg4::create_dijkstra_zone(p.zone_name, false);
    case ZoneRouting::dijkstra_cache: return sg4::create_dijkstra_zone(p.zone_name, true);
  }
  throw InputError("unknown zone routing");
}

simgrid::kernel::profile::Profile* profile(const std::string& path) {
  return simgrid::kernel::profile::ProfileBuilder::from_file(path);
}

}  // namespace

void load_platform_file(sg4::Engine& engine, const std::string& path) {
  try {
    engine.load_platform(path);
    engine.get_netzone_root()->seal();
  } catch (const simgrid::ParseError& e) {
    throw InputError(std::string("SimGrid cannot load the platform: ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string("SimGrid cannot load the platform: ") + e.what());
  }
  XBT_DEBUG("loaded %s: %zu hosts", path.c_str(), engine.get_host_count());
}

void build_platform(const Platform& p) {
  auto* zone = create_zone(p);
  std::vector<simgrid::kernel::routing::NetPoint*> netpoints(p.nodes.size(), nullptr);
  for (std::size_t i = 0; i < p.nodes.size(); ++i) {
    const auto& n = p.nodes[i];
    if (n.is_host) {
      auto* host = zone->create_host(n.name, n.speed)->set_core_count(n.cores);
      if (!n.speed_file.empty()) host->set_speed_profile(profile(n.speed_file));
      if (!n.state_file.empty()) host->set_state_profile(profile(n.state_file));
      netpoints[i] = host->seal()->get_netpoint();
    } else {
      netpoints[i] = zone->create_router(n.name);
    }
  }
  std::vector<sg4::Link*> links;
  links.reserve(p.links.size());
  for (const auto& l : p.links) {
    auto* link = zone->create_link(l.name, l.bandwidth)->set_latency(l.latency);
    link->set_sharing_policy(l.sharing == SharingPolicy::fatpipe ? sg4::Link::SharingPolicy::FATPIPE
                                                                 : sg4::Link::SharingPolicy::SHARED);
    if (!l.bandwidth_file.empty()) link->set_bandwidth_profile(profile(l.bandwidth_file));
    if (!l.latency_file.empty()) link->set_latency_profile(profile(l.latency_file));
    if (!l.state_file.empty()) link->set_state_profile(profile(l.state_file));
    links.push_back(link->seal());
  }
  for (const auto& e : p.edges)
    zone->add_route(netpoints[e.a], netpoints[e.b], nullptr, nullptr, {sg4::LinkInRoute(links[e.link])}, true);
  for (const auto& r : p.routes) {
    std::vector<sg4::LinkInRoute> route;
    route.reserve(r.links.size());
    for (auto l : r.links) route.emplace_back(links[l]);
    zone->add_route(netpoints[r.src], netpoints[r.dst], nullptr, nullptr, route, r.symmetrical);
  }
  zone->seal();
  XBT_DEBUG("built zone %s: %zu nodes, %zu links", p.zone_name.c_str(), p.nodes.size(), p.links.size());
}

void extend_platform(sg4::Engine& engine, const Platform& before, const Platform& after, bool routes_as_bypass) {
  auto* root = engine.get_netzone_root();
  std::vector<simgrid::kernel::routing::NetPoint*> netpoints(after.nodes.size(), nullptr);
  for (std::size_t i = 0; i < after.nodes.size(); ++i) {
    const auto& n = after.nodes[i];
    netpoints[i] = engine.netpoint_by_name_or_null(n.name);
    if (netpoints[i]) continue;
    if (i < before.nodes.size()) throw std::logic_error("extend_platform: node '" + n.name + "' is not loaded");
    if (n.is_host)
      netpoints[i] = root->create_host(n.name, n.speed)->set_core_count(n.cores)->seal()->get_netpoint();
    else
      netpoints[i] = root->create_router(n.name);
  }
  std::vector<sg4::Link*> links(after.links.size(), nullptr);
  for (std::size_t i = 0; i < after.links.size(); ++i) {
    const auto& l = after.links[i];
    links[i] = engine.link_by_name_or_null(l.name);
    if (links[i]) continue;
    auto* link = root->create_link(l.name, l.bandwidth)->set_latency(l.latency);
    link->set_sharing_policy(l.sharing == SharingPolicy::fatpipe ? sg4::Link::SharingPolicy::FATPIPE
                                                                 : sg4::Link::SharingPolicy::SHARED);
    links[i] = link->seal();
  }
  for (std::size_t e = before.edges.size(); e < after.edges.size(); ++e) {
    const auto& edge = after.edges[e];
    root->add_route(netpoints[edge.a], netpoints[edge.b], nullptr, nullptr, {sg4::LinkInRoute(links[edge.link])}, true);
  }
  const bool bypass = routes_as_bypass;
  for (std::size_t k = before.routes.size(); k < after.routes.size(); ++k) {
    const auto& r = after.routes[k];
    std::vector<sg4::LinkInRoute> route;
    for (auto l : r.links) route.emplace_back(links[l]);
    if (!bypass) {
      root->add_route(netpoints[r.src], netpoints[r.dst], nullptr, nullptr, route, r.symmetrical);
      continue;
    }
    root->add_bypass_route(netpoints[r.src], netpoints[r.dst], nullptr, nullptr, route);
    if (r.symmetrical) {
      std::vector<sg4::LinkInRoute> back(route.rbegin(), route.rend());
      root->add_bypass_route(netpoints[r.dst], netpoints[r.src], nullptr, nullptr, back);
    }
  }
}

void set_network_model(bool linear, int argc, char** argv) {
  for (int k = 1; k < argc; ++k)
    if (std::string(argv[k]).rfind("--cfg=network/model", 0) == 0) return;  // the user's choice wins
  if (linear) {
    sg4::Engine::set_config("network/model:CM02");
    sg4::Engine::set_config("network/TCP-gamma:0");
    sg4::Engine::set_config("network/crosstraffic:0");
  } else {
    sg4::Engine::set_config("network/model:LV08");
  }
}

}  // namespace ringsim::sim
