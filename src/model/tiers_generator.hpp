// Tiers-style topologies (Calvert, Doar and Zegura, "Modeling Internet topology", 1997; the
// generator's command line is `tiers NW NM NL SW SM SL RW RM RL RMW RLM`) and their conversion
// into SimGrid platforms the way the authors' group did in 2005 (SimGrid's
// tools/platform_generation/tiers_simgrid.pl): LAN nodes become hosts with probability 0.7,
// host speeds and link (bandwidth, latency) pairs are drawn from measured values.
//
// Structure generated (that of the reference .tiers files): one WAN, NM MANs per WAN, NL LANs per
// MAN; each WAN and each MAN is a minimum spanning tree over distinct random grid points, plus
// redundancy edges (a node with fewer than R edges gets one to its nearest non-neighbour, until
// it has R); each LAN is a star around its first node; each MAN is attached by its node nearest
// to a random WAN node, to RMW WAN nodes; each LAN by its centre to RLM nodes of its MAN.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "model/platform_graph.hpp"

namespace ringsim {

enum class TiersLevel { wan = 0, man = 1, lan = 2 };

struct TiersParameters {
  int nw = 1, nm = 1, nl = 1;  // WANs, MANs per WAN, LANs per MAN
  int sw = 1, sm = 1, sl = 1;  // nodes per WAN, MAN, LAN
  int rw = 1, rm = 1, rl = 1;  // intranetwork redundancy
  int rmw = 1, rlm = 1;        // internetwork redundancy: MAN to WAN, LAN to MAN
  int grid = 100;              // grid size (square, in cells)
  int wan_unit = 40, man_unit = 8, lan_unit = 2;  // cell size per level

  std::size_t node_count() const;
};

// Throws InputError naming the first parameter out of range (NW must be 1, as in Tiers 1.1).
void validate(const TiersParameters& p);

struct TiersNode {
  long x = 0;
  long y = 0;
  TiersLevel level = TiersLevel::lan;
};

// An undirected edge. state: 1 spanning tree, 2 redundant, 3 internetwork, 4 redundant
// internetwork. bandwidth_class: 10 (WAN, WAN-MAN), 100 (MAN, MAN-LAN), 1000 (LAN).
struct TiersEdge {
  std::size_t from = 0;
  std::size_t to = 0;
  long delay = 0;
  int bandwidth_class = 0;
  int state = 1;
};

struct TiersGraph {
  std::optional<TiersParameters> parameters;  // known for generated graphs and complete headers
  std::vector<TiersNode> nodes;
  std::vector<TiersEdge> edges;  // each undirected edge once
};

// Same parameters and seed: the same graph, on every platform (std::mt19937_64 and our own
// uniform draws).
TiersGraph generate_tiers_graph(const TiersParameters& params, std::uint64_t seed);

// Measured values: host speeds (MFlops) and, per Tiers bandwidth class, (bandwidth MB/s,
// latency ms) pairs.
struct LinkMeasurement {
  double bandwidth_MBps = 0.0;
  double latency_ms = 0.0;
};
struct MeasuredValues {
  std::vector<double> machine_mflops;
  std::map<int, std::vector<LinkMeasurement>> link_classes;
};

// The values of platforms/measured_platform_values.json, embedded so that the program needs no
// data file.
const MeasuredValues& embedded_measured_values();

struct TiersConversion {
  std::uint64_t seed = 1;
  double host_probability = 0.7;          // each LAN node is a host with this probability...
  std::optional<std::size_t> host_count;  // ...or exactly this many LAN nodes, chosen uniformly
  bool prune_routers = false;             // drop routers that lead nowhere (prune_dead_end_routers)
  ZoneRouting routing = ZoneRouting::dijkstra;
};

// Hosts "h<id>", routers "r<id>", links "l<a>-<b>" (Tiers node ids, a < b); one link per edge.
// Host speed: a machine drawn uniformly (MFlops x 1e6 flop/s); link: a pair drawn uniformly
// from its bandwidth class (MB/s x 1e6 B/s, ms x 1e-3 s). Throws InputError when no host is
// chosen, when more hosts are asked than there are LAN nodes, or when a class has no values.
Platform tiers_to_platform(const TiersGraph& graph, const MeasuredValues& values, const TiersConversion& conv);

// A generated Tiers platform of exactly `hosts` hosts for scale tests and benchmarks: one WAN of
// `wan_nodes` nodes, MANs of `man_nodes` nodes each with `lans_per_man` LANs of `lan_nodes` nodes,
// as many MANs as give 1.25 LAN nodes per host (so that the exact host count can be drawn among
// them), redundancy 2 inside the WAN and the MANs, 2 MAN-WAN and 1 LAN-MAN attachments, the
// embedded measured values, routers leading nowhere pruned; validated.
struct TiersShape {
  int wan_nodes = 10, man_nodes = 10, lans_per_man = 5, lan_nodes = 10;
};
Platform tiers_platform_with_hosts(std::size_t hosts, std::uint64_t seed, const TiersShape& shape);

// Uniform draws from std::mt19937_64 whose results do not depend on the standard library.
std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t n);  // in [0, n), n >= 1
double uniform_unit(std::mt19937_64& rng);                             // in [0, 1), 53 bits

}  // namespace ringsim
