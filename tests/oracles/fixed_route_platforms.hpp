// Seeded random platforms in "platform" routing mode (Full zones: the paths are the platform's
// routes), routed as SimGrid routes real hierarchical platforms, for the fixed-route ring tests:
//  - clusters: each host a private SHARED link (one link for both directions) or split-duplex
//    links (a -> b crosses up_a then down_b), an optional SHARED or FATPIPE backbone;
//  - two or three clusters joined by WAN links through their gateways (a -> b: a's private link,
//    a's backbone, the WAN link(s), b's backbone, b's private link), the WAN links one per
//    direction or shared by both, as a mesh, a star around a core router or a chain;
//  - Vivaldi-like zones mixed with clusters: SimGrid routes them through no link (latency only);
//    the model lists no route without a link, so, as the simulation layer builds it
//    (platform/ring_platform.cpp), each such route crosses one FATPIPE link kLatencyOnlyLink of
//    kLatencyOnlyBandwidth (1e20 B/s), added once and shared by every latency-only route;
//  - asymmetric routes (a -> b and b -> a through different links) and arbitrary Full zones.
#pragma once

#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "model/platform_graph.hpp"
#include "planners/ring/ring_plan.hpp"

namespace ringsim::testing {

inline constexpr std::size_t kNoRouteLink = static_cast<std::size_t>(-1);

struct FixedRouteInstance {
  int id = 0;
  std::string kind;  // what was drawn: zones, their links, the WAN topology, detours
  Platform platform;
  ring::Workload load;
  bool all_fatpipe = false;                  // nothing is shared
  std::size_t latency_only = kNoRouteLink;   // the kLatencyOnlyLink link, if some route crosses no real link
  bool has_latency_only() const { return latency_only != kNoRouteLink; }
};

// Instance `id` drawn from `rng`: 3 to 7 hosts (by id / 4), every fourth one all FATPIPE, the
// platform's kind by id % 9 (1, 2 or 3 cluster zones; a Vivaldi zone among clusters; a Vivaldi
// zone alone; an arbitrary Full zone), W = 1 Gflop and H/W from 1e-5 to 0.1 byte per flop.
FixedRouteInstance make_fixed_route_instance(std::mt19937_64& rng, int id);

// The 540 seeded instances the test cases share, made once.
const std::vector<FixedRouteInstance>& fixed_route_instances();

// The instance in full (hosts, links, routes), for a failure's report.
std::string describe(const FixedRouteInstance& inst);

}  // namespace ringsim::testing
