#include "platform/platform_loader.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/s4u.hpp>

#include "model/errors.hpp"

namespace sg4 = simgrid::s4u;

namespace ringsim::platform {

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

}  // namespace ringsim::platform
