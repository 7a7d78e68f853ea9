// Small platforms built in code for the ring construction tests, and the conversion of a plan to
// the oracle's plain RingAnswer.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "model/platform_graph.hpp"
#include "oracles/ring_bruteforce.hpp"
#include "planners/ring/ring_plan.hpp"

namespace ringsim::testing {

struct RandomPlatformShape {
  std::size_t hosts = 6;
  std::size_t routers = 4;
  std::size_t extra_edges = 3;       // beyond a random spanning tree
  double fatpipe_probability = 0.0;  // per link
  bool discrete_bandwidths = true;   // from {1, 2, 5, 10, 100} MB/s (ties), else uniform in [1, 100] MB/s
  bool hosts_are_leaves = false;     // hosts hang off routers by one link (Tiers LANs)
};

// A connected graph-routed (Dijkstra) platform: hosts "h<i>" (speed 20..200 Mflop/s), routers
// "r<i>", links "l<i>".
Platform random_graph_platform(std::mt19937_64& rng, const RandomPlatformShape& shape);

// n hosts, every pair joined by its own link (all FATPIPE when fatpipe, else SHARED).
Platform complete_graph_platform(std::mt19937_64& rng, std::size_t n, bool fatpipe);

// A cluster as a Full zone: host i -> private link "l<i>" (SHARED) -> backbone "bb" (FATPIPE when
// fatpipe_backbone) -> private link of the other host; symmetrical routes.
Platform cluster_platform(std::mt19937_64& rng, std::size_t n, bool fatpipe_backbone);

// The routes of a Full zone built in code: every ordered pair of distinct hosts (the a-th and the
// b-th of host_indices()) gets the links `links(a, b)`; then the platform is validated.
void add_route_per_pair(Platform& p, const std::function<std::vector<std::size_t>(std::size_t, std::size_t)>& links);

oracles::RingAnswer to_answer(const ring::RingNetwork& net, const ring::RingPlan& plan);

}  // namespace ringsim::testing
