// The platform as the ring planners (planners/ring/) see it, read from a platform SimGrid loaded,
// in one of the two routing modes of docs/design.md:
// - free (the SharedRing report's assumption, Section 2: messages may take any path): the graph of
//   a platform of one Floyd/Dijkstra zone, as declared; the planners search widest paths on it;
// - platform: the routes SimGrid uses between the candidate hosts (Host::route_to, asked through
//   the route prober), as the explicit routes of a Full zone; the planners choose hosts, order and
//   bandwidth shares only. Works on every zone kind (clusters, fat trees, nested zones, Vivaldi's
//   latency-only routes).
// Either way the candidates are hosts that reach each other both ways.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include <simgrid/forward.h>

#include "model/platform_graph.hpp"
#include "platform/platform_reader.hpp"

namespace ringsim::platform {

struct RingPlatform {
  RingRouting routing = RingRouting::free;  // free or platform, never automatic
  Platform model;                           // valid (model/platform_graph.hpp's validate)
  std::size_t platform_hosts = 0;           // hosts SimGrid loaded
  std::size_t candidates = 0;               // hosts of the model the planners may choose
  std::vector<std::string> left_out;        // why hosts are not candidates, one line per reason
  std::size_t routes_asked = 0;             // questions asked of SimGrid
};

// Limit of the platform mode without --candidates: it holds every ordered pair's route.
constexpr std::size_t kPlatformModeMaxHosts = 4096;

// `candidates` 0: every host that can take part; N: the N fastest of them (ties: file order).
// InputError when `free` is asked of a platform whose graph is not known, or when the platform
// mode would hold more than kPlatformModeMaxHosts hosts' routes.
// `excluded`: hosts that may not be ring members (they still forward in the free mode).
RingPlatform read_ring_platform(const LoadedPlatform& lp, RingRouting requested, std::size_t candidates,
                                const std::set<std::string>& excluded = {});

}  // namespace ringsim::platform
