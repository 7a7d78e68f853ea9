// Seeded hierarchical platforms for the greedy's prunings at scale: clusters of clusters, fat
// trees (random, and d-mod-k routed as SimGrid's FatTreeZone routes one), dragonflies (Full zones:
// the platform's routes, as SimGrid computes them for such zones), small Tiers graphs and blocks
// joined by bridges (free routing); and link capacities from few values, for the widest searches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <vector>

#include "model/platform_graph.hpp"
#include "planners/ring/ring_network.hpp"

namespace ringsim::testing {

// One of `values`, drawn from rng.
inline double pick_one(std::mt19937_64& rng, std::initializer_list<double> values) {
  return values.begin()[rng() % values.size()];
}

// Sites of clusters of nodes. A node crosses its own link (one SHARED link, or an up and a down
// link: split duplex, sometimes a limiter too), its cluster's backbone, the cluster's uplink, the
// site's uplink and a WAN link (one per direction of a site pair when `asymmetric`). Clusters
// repeat their speed and bandwidths often (twins across clusters too), and some nodes get their
// own speed (they are then nobody's twin).
Platform clusters_of_clusters(std::mt19937_64& rng, bool asymmetric);

// A two-level fat tree as SimGrid routes one: a node's link to its leaf switch, the leaf's link to
// the spine chosen by the destination's index, that spine's link down to the destination's leaf.
Platform fat_tree(std::mt19937_64& rng);

// A two-level fat tree routed as SimGrid's FatTreeZone routes one (d-mod-k): up by the cable the
// destination's index selects, down by the one the source's index selects; every link of the same
// capacity and every node of the same speed, so no two nodes are twins and, the nodes' own links
// binding, the insertions of a step tie bit for bit.
Platform dmodk_fat_tree(std::size_t leaves, std::size_t per_leaf, std::size_t spines);

// A dragonfly: groups of routers, each with nodes; routers of a group joined all to all, groups
// by one global link per pair (held by the lower router of the pair's index); minimal routes.
Platform dragonfly(std::mt19937_64& rng);

// Small Tiers graphs: MANs of 4 nodes with 2 LANs of 4.
Platform small_tiers(std::size_t hosts, std::uint64_t seed);

// Graph zones with 2-edge-connected parts below bridges, not only trees: blocks (a lone router,
// two routers joined once, or a cycle, sometimes with a chord) joined in a random tree by
// bridges; hosts hanging from a block by their own link, some inside blocks. Bandwidths from few
// values (ties), a FATPIPE link now and then.
Platform bridged_blocks(std::mt19937_64& rng);

// Even trials a small Tiers graph (seeded from `seed` + trial), odd ones blocks joined by bridges.
Platform tiers_or_blocks(int trial, std::uint64_t seed, std::mt19937_64& rng);

// Per link a capacity from few values (ties), or zero (unusable) one time in `zero_one_in`.
std::vector<double> tied_capacities(const ring::RingNetwork& net, std::mt19937_64& rng, unsigned zero_one_in,
                                    std::initializer_list<double> values);

}  // namespace ringsim::testing
