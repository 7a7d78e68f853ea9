#include "model/storage_cluster.hpp"

#include <cmath>

#include "model/errors.hpp"

namespace ringsim {

std::vector<std::size_t> attach_storage_cluster(
    Platform& p, const StorageClusterSpec& spec, std::size_t gateway, const std::vector<std::size_t>& receivers,
    const std::function<std::vector<std::size_t>(std::size_t receiver)>& gateway_route) {
  if (spec.nodes < 1) throw InputError("the storage cluster needs at least one node");
  if (!(spec.node_bandwidth > 0) || !(spec.backbone_bandwidth > 0) || !std::isfinite(spec.node_bandwidth) ||
      !std::isfinite(spec.backbone_bandwidth))
    throw InputError("storage bandwidths must be positive and finite");
  if (!(spec.node_latency >= 0) || !(spec.backbone_latency >= 0) || !std::isfinite(spec.node_latency) ||
      !std::isfinite(spec.backbone_latency))
    throw InputError("storage latencies must be >= 0 and finite");
  // All names are checked before anything is added: an error leaves the platform as it was.
  std::vector<std::string> node_names, link_names{"storage-backbone"};
  for (std::size_t i = 0; i < spec.nodes; ++i) {
    node_names.push_back(storage_host_name(i));
    link_names.push_back(storage_host_name(i) + "-link");
  }
  if (p.graph_routed()) node_names.push_back("storage-switch");
  for (const auto& n : node_names)
    if (p.find_node(n)) throw InputError("the platform already has a node named '" + n + "'");
  for (const auto& n : link_names)
    if (p.find_link(n)) throw InputError("the platform already has a link named '" + n + "'");
  const std::size_t backbone = p.add_link(link_names[0], spec.backbone_bandwidth, spec.backbone_latency);
  std::vector<std::size_t> hosts, node_links;
  for (std::size_t i = 0; i < spec.nodes; ++i) {
    hosts.push_back(p.add_host(node_names[i], 1e9));
    node_links.push_back(p.add_link(link_names[i + 1], spec.node_bandwidth, spec.node_latency));
  }
  if (p.graph_routed()) {
    const std::size_t sw = p.add_router("storage-switch");
    p.add_edge(sw, gateway, backbone);
    for (std::size_t i = 0; i < spec.nodes; ++i) p.add_edge(hosts[i], sw, node_links[i]);
    return hosts;
  }
  for (std::size_t r : receivers) {
    const std::vector<std::size_t> tail = r == gateway ? std::vector<std::size_t>{} : gateway_route(r);
    for (std::size_t i = 0; i < spec.nodes; ++i) {
      ExplicitRoute route;
      route.src = hosts[i];
      route.dst = r;
      route.links = {node_links[i], backbone};
      route.links.insert(route.links.end(), tail.begin(), tail.end());
      p.routes.push_back(std::move(route));
    }
  }
  return hosts;
}

}  // namespace ringsim
