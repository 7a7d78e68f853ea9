// The storage cluster that holds the application's matrix before the run, joined to the ring's
// platform through a backbone: the KPBS paper's Figure 1 (seeds/kpbs-ggp-backbone-message-scheduling.md)
// with cluster 1 = the storage nodes, each on its own link to the cluster's switch, and cluster 2
// = the ring members, reached from the backbone's far end (the gateway) by the platform's routes.
// Plain values: it adds nodes, links and routes to a Platform; the simulation builds it.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "model/platform_graph.hpp"

namespace ringsim {

struct StorageClusterSpec {
  std::size_t nodes = 4;
  double node_bandwidth = 1.25e7;      // b1, bytes/s (100 Mbit/s)
  double node_latency = 0.0;
  double backbone_bandwidth = 1.25e8;  // bb, bytes/s (1 Gbit/s)
  double backbone_latency = 0.0;
};

inline std::string storage_host_name(std::size_t i) { return "storage-" + std::to_string(i); }

// Adds hosts storage-0.. (1 Gflop/s, they only send), their links storage-<i>-link, and the link
// storage-backbone. Graph-routed platforms also get the router storage-switch and the edges
// storage-i -- storage-switch -- gateway (a leaf subtree: it routes nothing else). Full zones get
// one explicit route per storage node and receiver: [node link, backbone] + gateway_route(receiver)
// (the links from the gateway to that receiver; empty when the receiver is the gateway).
// A Full zone then routes storage nodes to the receivers only (validate() would call the others
// disconnected): enough for the staging, which only sends that way.
// Returns the storage hosts' node indices. InputError if a name is taken or a value is not positive.
std::vector<std::size_t> attach_storage_cluster(
    Platform& p, const StorageClusterSpec& spec, std::size_t gateway, const std::vector<std::size_t>& receivers,
    const std::function<std::vector<std::size_t>(std::size_t receiver)>& gateway_route);

}  // namespace ringsim
