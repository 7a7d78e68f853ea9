// The platform graph as plain value types (no SimGrid here): hosts and routers, links, and either
// edges between nodes (one link per edge, routed by the shortest path: SimGrid's Dijkstra or
// Floyd zones) or explicit routes (a list of links per node pair: SimGrid's Full zone).
// Units: speed in flop/s, bandwidth in bytes/s, latency in s.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ringsim {

// SHARED: the flows crossing the link share its bandwidth; FATPIPE: each flow gets all of it
// (the KPBS paper's backbone links).
enum class SharingPolicy { shared, fatpipe };

// How SimGrid routes inside the (single) zone.
enum class ZoneRouting { full, floyd, dijkstra, dijkstra_cache };

// How the ring planners route (docs/design.md): `free` is the SharedRing report's assumption (Section 2:
// messages may take any path, widest paths on the platform graph), `platform` the routes SimGrid
// uses; `automatic`: free on a platform of one graph-routed zone, platform otherwise.
enum class RingRouting { automatic, free, platform };
const char* to_string(RingRouting r);
std::optional<RingRouting> ring_routing_from_string(const std::string& s);

const char* to_string(SharingPolicy s);
// SimGrid's spelling: "Full", "Floyd", "Dijkstra", "DijkstraCache".
const char* to_string(ZoneRouting r);
std::optional<ZoneRouting> zone_routing_from_string(const std::string& s);

struct PlatformNode {
  std::string name;
  bool is_host = false;
  double speed = 0.0;  // flop/s (hosts only)
  int cores = 1;       // hosts only
  std::string speed_file;  // optional SimGrid profile files, kept as written
  std::string state_file;
};

struct PlatformLink {
  std::string name;
  double bandwidth = 0.0;  // bytes/s
  double latency = 0.0;    // s
  SharingPolicy sharing = SharingPolicy::shared;
  std::string bandwidth_file;
  std::string latency_file;
  std::string state_file;
};

// An undirected edge: nodes a and b joined by one link (a one-hop route in both directions).
struct PlatformEdge {
  std::size_t a = 0;
  std::size_t b = 0;
  std::size_t link = 0;
};

// An explicit route from src to dst; `symmetrical` also gives dst -> src along the reversed list.
struct ExplicitRoute {
  std::size_t src = 0;
  std::size_t dst = 0;
  std::vector<std::size_t> links;
  bool symmetrical = false;
};

// SimGrid routes some pairs through no link at all (Vivaldi zones: latency only). In the model
// every route lists links, so such a route crosses this FATPIPE link, whose bandwidth limits nothing
// (a column's transfer time over it rounds to 0).
inline constexpr const char* kLatencyOnlyLink = "latency-only (no link)";
constexpr double kLatencyOnlyBandwidth = 1e20;  // bytes/s

// Every ordered pair of hosts' route in one flat table: what the platform routing mode reads from
// SimGrid (2.3 million routes for g5k.xml's 1528 hosts: one vector per route costs several times
// its links). Hosts in node order (Platform::host_indices()); the route from the a-th host to the
// b-th is links[start[a n + b] .. start[a n + b + 1]), none when a == b. Links are platform link
// indices; every route between distinct hosts lists at least one (a latency-only route crosses
// kLatencyOnlyLink).
struct HostRouteTable {
  std::vector<std::uint64_t> start;  // n n + 1 entries (empty: no table)
  std::vector<std::uint32_t> links;
  bool empty() const { return start.empty(); }
};

struct Platform {
  std::string zone_name = "AS0";
  ZoneRouting routing = ZoneRouting::dijkstra;
  std::vector<PlatformNode> nodes;
  std::vector<PlatformLink> links;
  std::vector<PlatformEdge> edges;    // graph routing (Dijkstra/Floyd)
  std::vector<ExplicitRoute> routes;  // Full routing
  HostRouteTable host_routes;         // Full routing, instead of `routes` (never both)

  bool graph_routed() const { return routing != ZoneRouting::full; }

  std::size_t add_host(const std::string& name, double speed);
  std::size_t add_router(const std::string& name);
  std::size_t add_link(const std::string& name, double bandwidth, double latency,
                       SharingPolicy sharing = SharingPolicy::shared);
  std::size_t add_edge(std::size_t a, std::size_t b, std::size_t link);

  std::optional<std::size_t> find_node(const std::string& name) const;  // linear scan
  std::optional<std::size_t> find_link(const std::string& name) const;  // linear scan
  std::vector<std::size_t> host_indices() const;                        // in node order
  std::size_t host_count() const;
  std::size_t router_count() const { return nodes.size() - host_count(); }
};

bool operator==(const PlatformNode& x, const PlatformNode& y);
bool operator==(const PlatformLink& x, const PlatformLink& y);
bool operator==(const PlatformEdge& x, const PlatformEdge& y);
bool operator==(const ExplicitRoute& x, const ExplicitRoute& y);
bool operator==(const HostRouteTable& x, const HostRouteTable& y);
bool operator==(const Platform& x, const Platform& y);
inline bool operator!=(const Platform& x, const Platform& y) { return !(x == y); }

// Throws InputError naming the first problem: no host, empty or duplicate names (hosts and
// routers share one name space, links another), speed <= 0, zero or negative bandwidth,
// negative latency, cores < 1, out-of-range indices, a self-loop, edges in a Full zone or explicit
// routes in a graph zone, a route without links, a duplicate route, or hosts that are not
// connected ("hosts 'a' and 'b' are not connected").
void validate(const Platform& p);

// The table's routes as explicit routes (one per ordered host pair, not symmetrical), the table
// emptied: for what reads `routes` (the XML writer).
void expand_host_routes(Platform& p);

// ---- graph helpers (graph-routed platforms; explicit routes are used where given) ----

struct Neighbour {
  std::size_t node = 0;
  std::size_t edge = 0;
};
// adjacency[v]: v's neighbours through each edge, ordered by edge index (deterministic).
using Adjacency = std::vector<std::vector<Neighbour>>;
Adjacency adjacency(const Platform& p);

// A path through the network: its nodes (from src to dst) and the links crossed in order.
struct NetworkPath {
  std::vector<std::size_t> nodes;
  std::vector<std::size_t> links;
  double bandwidth = 0.0;  // the smallest capacity along the path (+inf for an empty path)
  double latency = 0.0;    // sum of latencies
};

// Fewest links, ties broken towards lower node indices. nullopt when dst is unreachable.
std::optional<NetworkPath> min_hop_path(const Platform& p, const Adjacency& adj, std::size_t src, std::size_t dst);

// Largest bottleneck capacity, ties broken by fewer links then lower latency. `capacity[l]`
// replaces link l's bandwidth when given (e.g. what remains after other paths took their
// share); links with capacity <= 0 are not used.
std::optional<NetworkPath> widest_path(const Platform& p, const Adjacency& adj, std::size_t src, std::size_t dst,
                                       const std::vector<double>* capacity = nullptr);

// The route SimGrid would take between two nodes: the explicit route (or the reverse of a
// symmetrical one) in a Full zone, the min-hop path in a graph zone (SimGrid's own choice
// between equal-hop paths may differ).
std::optional<NetworkPath> route_between(const Platform& p, const Adjacency& adj, std::size_t src, std::size_t dst);

// Graph zones: connected components over the edges (component id per node).
std::vector<std::size_t> connected_components(const Platform& p, const Adjacency& adj);

// First ordered pair of hosts with no route between them, if any.
std::optional<std::pair<std::size_t, std::size_t>> first_disconnected_hosts(const Platform& p);
inline bool hosts_connected(const Platform& p) { return !first_disconnected_hosts(p).has_value(); }

// Removes routers that lead nowhere: repeatedly, routers with at most one edge (they carry no
// traffic between hosts). Graph-routed platforms only; keeps the order of what remains.
// Returns the number of routers removed.
std::size_t prune_dead_end_routers(Platform& p);

}  // namespace ringsim
