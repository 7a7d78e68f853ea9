#include "model/platform_graph.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "model/errors.hpp"

namespace ringsim {

const char* to_string(RingRouting r) {
  switch (r) {
    case RingRouting::automatic: return "auto";
    case RingRouting::free: return "free";
    case RingRouting::platform: return "platform";
  }
  return "?";
}

std::optional<RingRouting> ring_routing_from_string(const std::string& s) {
  if (s == "auto") return RingRouting::automatic;
  if (s == "free") return RingRouting::free;
  if (s == "platform") return RingRouting::platform;
  return std::nullopt;
}

const char* to_string(SharingPolicy s) { return s == SharingPolicy::fatpipe ? "FATPIPE" : "SHARED"; }

const char* to_string(ZoneRouting r) {
  switch (r) {
    case ZoneRouting::full: return "Full";
    case ZoneRouting::floyd: return "Floyd";
    case ZoneRouting::dijkstra: return "Dijkstra";
    case ZoneRouting::dijkstra_cache: return "DijkstraCache";
  }
  return "?";
}

std::optional<ZoneRouting> zone_routing_from_string(const std::string& s) {
  for (auto r : {ZoneRouting::full, ZoneRouting::floyd, ZoneRouting::dijkstra, ZoneRouting::dijkstra_cache})
    if (s == to_string(r)) return r;
  return std::nullopt;
}

std::size_t Platform::add_host(const std::string& name, double speed) {
  PlatformNode n;
  n.name = name;
  n.is_host = true;
  n.speed = speed;
  nodes.push_back(std::move(n));
  return nodes.size() - 1;
}

std::size_t Platform::add_router(const std::string& name) {
  PlatformNode n;
  n.name = name;
  nodes.push_back(std::move(n));
  return nodes.size() - 1;
}

std::size_t Platform::add_link(const std::string& name, double bandwidth, double latency, SharingPolicy sharing) {
  PlatformLink l;
  l.name = name;
  l.bandwidth = bandwidth;
  l.latency = latency;
  l.sharing = sharing;
  links.push_back(std::move(l));
  return links.size() - 1;
}

std::size_t Platform::add_edge(std::size_t a, std::size_t b, std::size_t link) {
  edges.push_back({a, b, link});
  return edges.size() - 1;
}

std::optional<std::size_t> Platform::find_node(const std::string& name) const {
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].name == name) return i;
  return std::nullopt;
}

std::optional<std::size_t> Platform::find_link(const std::string& name) const {
  for (std::size_t i = 0; i < links.size(); ++i)
    if (links[i].name == name) return i;
  return std::nullopt;
}

std::vector<std::size_t> Platform::host_indices() const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].is_host) out.push_back(i);
  return out;
}

std::size_t Platform::host_count() const {
  return static_cast<std::size_t>(std::count_if(nodes.begin(), nodes.end(), [](const auto& n) { return n.is_host; }));
}

bool operator==(const PlatformNode& x, const PlatformNode& y) {
  return std::tie(x.name, x.is_host, x.speed, x.cores, x.speed_file, x.state_file) ==
         std::tie(y.name, y.is_host, y.speed, y.cores, y.speed_file, y.state_file);
}
bool operator==(const PlatformLink& x, const PlatformLink& y) {
  return std::tie(x.name, x.bandwidth, x.latency, x.sharing, x.bandwidth_file, x.latency_file, x.state_file) ==
         std::tie(y.name, y.bandwidth, y.latency, y.sharing, y.bandwidth_file, y.latency_file, y.state_file);
}
bool operator==(const PlatformEdge& x, const PlatformEdge& y) {
  return std::tie(x.a, x.b, x.link) == std::tie(y.a, y.b, y.link);
}
bool operator==(const ExplicitRoute& x, const ExplicitRoute& y) {
  return std::tie(x.src, x.dst, x.links, x.symmetrical) == std::tie(y.src, y.dst, y.links, y.symmetrical);
}
bool operator==(const HostRouteTable& x, const HostRouteTable& y) {
  return std::tie(x.start, x.links) == std::tie(y.start, y.links);
}
bool operator==(const Platform& x, const Platform& y) {
  return std::tie(x.zone_name, x.routing, x.nodes, x.links, x.edges, x.routes, x.host_routes) ==
         std::tie(y.zone_name, y.routing, y.nodes, y.links, y.edges, y.routes, y.host_routes);
}

namespace {

std::uint64_t pair_key(std::size_t a, std::size_t b) {
  return (static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint64_t>(b);
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

void check_names(const Platform& p) {
  std::unordered_set<std::string> seen;
  for (const auto& n : p.nodes) {
    if (n.name.empty()) throw InputError("a host or router has an empty name");
    if (!seen.insert(n.name).second) throw InputError("duplicate host or router name " + quoted(n.name));
  }
  seen.clear();
  for (const auto& l : p.links) {
    if (l.name.empty()) throw InputError("a link has an empty name");
    if (!seen.insert(l.name).second) throw InputError("duplicate link name " + quoted(l.name));
  }
}

void check_values(const Platform& p) {
  for (const auto& n : p.nodes) {
    if (!n.is_host) continue;
    if (!std::isfinite(n.speed) || n.speed <= 0)
      throw InputError("host " + quoted(n.name) + " has speed " + std::to_string(n.speed) + " (must be > 0)");
    if (n.cores < 1) throw InputError("host " + quoted(n.name) + " has " + std::to_string(n.cores) + " cores");
  }
  for (const auto& l : p.links) {
    if (l.bandwidth == 0) throw InputError("link " + quoted(l.name) + " has zero bandwidth");
    if (!std::isfinite(l.bandwidth) || l.bandwidth < 0)
      throw InputError("link " + quoted(l.name) + " has a negative or infinite bandwidth");
    if (!std::isfinite(l.latency) || l.latency < 0)
      throw InputError("link " + quoted(l.name) + " has a negative or infinite latency");
  }
}

void check_edges(const Platform& p) {
  if (!p.routes.empty() || !p.host_routes.empty())
    throw InputError(std::string("explicit multi-link routes need a Full zone, not ") + to_string(p.routing));
  std::unordered_set<std::uint64_t> pairs;
  for (const auto& e : p.edges) {
    if (e.a >= p.nodes.size() || e.b >= p.nodes.size() || e.link >= p.links.size())
      throw InputError("an edge refers to a node or link that does not exist");
    if (e.a == e.b) throw InputError("route from " + quoted(p.nodes[e.a].name) + " to itself");
    if (!pairs.insert(pair_key(std::min(e.a, e.b), std::max(e.a, e.b))).second)
      throw InputError("two routes between " + quoted(p.nodes[e.a].name) + " and " + quoted(p.nodes[e.b].name));
  }
}

// The table covers every ordered host pair by construction; only its shape and links are checked.
void check_route_table(const Platform& p) {
  const auto hosts = p.host_indices();
  const std::size_t n = hosts.size();
  const auto& t = p.host_routes;
  if (!p.routes.empty()) throw InputError("a Full zone has explicit routes and a route table");
  if (t.start.size() != n * n + 1 || t.start.front() != 0 || t.start.back() != t.links.size())
    throw InputError("the route table does not hold one route per ordered pair of hosts");
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b) {
      const std::uint64_t first = t.start[a * n + b], last = t.start[a * n + b + 1];
      if (last < first) throw InputError("the route table does not hold one route per ordered pair of hosts");
      if (a == b ? last != first : last == first)
        throw InputError("route " + quoted(p.nodes[hosts[a]].name) + " -> " + quoted(p.nodes[hosts[b]].name) +
                         (a == b ? " goes nowhere" : " lists no link"));
      for (std::uint64_t x = first; x < last; ++x)
        if (t.links[x] >= p.links.size())
          throw InputError("route " + quoted(p.nodes[hosts[a]].name) + " -> " + quoted(p.nodes[hosts[b]].name) +
                           " refers to a link that does not exist");
    }
}

void check_routes(const Platform& p) {
  if (!p.edges.empty()) throw InputError("one-hop edges need a graph zone (Dijkstra or Floyd), not Full");
  if (!p.host_routes.empty()) return check_route_table(p);
  std::unordered_set<std::uint64_t> pairs;
  for (const auto& r : p.routes) {
    if (r.src >= p.nodes.size() || r.dst >= p.nodes.size())
      throw InputError("a route refers to a node that does not exist");
    const std::string what = "route " + quoted(p.nodes[r.src].name) + " -> " + quoted(p.nodes[r.dst].name);
    if (r.src == r.dst) throw InputError(what + " goes nowhere");
    // SimGrid's latency-only routes (Vivaldi) reach the planners through a link that limits nothing.
    if (r.links.empty()) throw InputError(what + " lists no link");
    for (auto l : r.links)
      if (l >= p.links.size()) throw InputError(what + " refers to a link that does not exist");
    if (!pairs.insert(pair_key(r.src, r.dst)).second) throw InputError("duplicate " + what);
    if (r.symmetrical && !pairs.insert(pair_key(r.dst, r.src)).second)
      throw InputError("duplicate route " + quoted(p.nodes[r.dst].name) + " -> " + quoted(p.nodes[r.src].name) +
                       " (given explicitly and by a symmetrical route)");
  }
}

double capacity_of(const Platform& p, const std::vector<double>* capacity, std::size_t link) {
  return capacity ? (*capacity)[link] : p.links[link].bandwidth;
}

// Dijkstra on (hops, latency) over the links whose capacity is >= min_capacity (and > 0).
std::optional<NetworkPath> shortest_path(const Platform& p, const Adjacency& adj, std::size_t src, std::size_t dst,
                                         double min_capacity, const std::vector<double>* capacity) {
  if (src >= p.nodes.size() || dst >= p.nodes.size()) return std::nullopt;
  using Key = std::tuple<std::size_t, double, std::size_t>;  // hops, latency, node
  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> hops(p.nodes.size(), none);
  std::vector<double> lat(p.nodes.size(), 0.0);
  std::vector<std::size_t> via_edge(p.nodes.size(), none);
  std::vector<bool> done(p.nodes.size(), false);
  std::priority_queue<Key, std::vector<Key>, std::greater<>> queue;
  hops[src] = 0;
  queue.emplace(0, 0.0, src);
  while (!queue.empty()) {
    const auto [h, l, v] = queue.top();
    queue.pop();
    if (done[v]) continue;
    done[v] = true;
    if (v == dst) break;
    for (const auto& nb : adj[v]) {
      const auto& e = p.edges[nb.edge];
      const double cap = capacity_of(p, capacity, e.link);
      if (cap <= 0 || cap < min_capacity || done[nb.node]) continue;
      const std::size_t h2 = h + 1;
      const double l2 = l + p.links[e.link].latency;
      if (hops[nb.node] == none || std::tie(h2, l2) < std::tie(hops[nb.node], lat[nb.node])) {
        hops[nb.node] = h2;
        lat[nb.node] = l2;
        via_edge[nb.node] = nb.edge;
        queue.emplace(h2, l2, nb.node);
      }
    }
  }
  if (hops[dst] == none) return std::nullopt;
  NetworkPath path;
  path.bandwidth = std::numeric_limits<double>::infinity();
  for (std::size_t v = dst; v != src;) {
    const auto& e = p.edges[via_edge[v]];
    path.nodes.push_back(v);
    path.links.push_back(e.link);
    path.bandwidth = std::min(path.bandwidth, capacity_of(p, capacity, e.link));
    path.latency += p.links[e.link].latency;
    v = e.a == v ? e.b : e.a;
  }
  path.nodes.push_back(src);
  std::reverse(path.nodes.begin(), path.nodes.end());
  std::reverse(path.links.begin(), path.links.end());
  return path;
}

// The largest bottleneck capacity from src to dst (0 when unreachable): max-min label setting.
double widest_bottleneck(const Platform& p, const Adjacency& adj, std::size_t src, std::size_t dst,
                         const std::vector<double>* capacity) {
  std::vector<double> best(p.nodes.size(), 0.0);
  std::vector<bool> done(p.nodes.size(), false);
  std::priority_queue<std::pair<double, std::size_t>> queue;
  best[src] = std::numeric_limits<double>::infinity();
  queue.emplace(best[src], src);
  while (!queue.empty()) {
    const auto [b, v] = queue.top();
    queue.pop();
    if (done[v]) continue;
    done[v] = true;
    if (v == dst) return b;
    for (const auto& nb : adj[v]) {
      const double cap = std::min(b, capacity_of(p, capacity, p.edges[nb.edge].link));
      if (cap > best[nb.node] && !done[nb.node]) {
        best[nb.node] = cap;
        queue.emplace(cap, nb.node);
      }
    }
  }
  return best[dst];
}

}  // namespace

Adjacency adjacency(const Platform& p) {
  Adjacency adj(p.nodes.size());
  for (std::size_t i = 0; i < p.edges.size(); ++i) {
    adj[p.edges[i].a].push_back({p.edges[i].b, i});
    adj[p.edges[i].b].push_back({p.edges[i].a, i});
  }
  return adj;
}

std::optional<NetworkPath> min_hop_path(const Platform& p, const Adjacency& adj, std::size_t src, std::size_t dst) {
  return shortest_path(p, adj, src, dst, 0.0, nullptr);
}

std::optional<NetworkPath> widest_path(const Platform& p, const Adjacency& adj, std::size_t src, std::size_t dst,
                                       const std::vector<double>* capacity) {
  if (src >= p.nodes.size() || dst >= p.nodes.size()) return std::nullopt;
  if (src == dst) return shortest_path(p, adj, src, dst, 0.0, capacity);
  const double bottleneck = widest_bottleneck(p, adj, src, dst, capacity);
  if (bottleneck <= 0) return std::nullopt;
  return shortest_path(p, adj, src, dst, bottleneck, capacity);
}

// A route given link by link (fixed routes): its bottleneck bandwidth and summed latency.
static NetworkPath explicit_path(const Platform& p, std::size_t src, std::size_t dst, std::vector<std::size_t> links) {
  NetworkPath path;
  path.links = std::move(links);
  path.nodes = {src, dst};
  path.bandwidth = std::numeric_limits<double>::infinity();
  for (auto l : path.links) {
    path.bandwidth = std::min(path.bandwidth, p.links[l].bandwidth);
    path.latency += p.links[l].latency;
  }
  return path;
}

std::optional<NetworkPath> route_between(const Platform& p, const Adjacency& adj, std::size_t src, std::size_t dst) {
  if (p.graph_routed()) return min_hop_path(p, adj, src, dst);
  if (!p.host_routes.empty()) {
    const auto hosts = p.host_indices();
    const auto a = std::find(hosts.begin(), hosts.end(), src), b = std::find(hosts.begin(), hosts.end(), dst);
    if (a == hosts.end() || b == hosts.end() || a == b) return std::nullopt;
    const std::size_t n = hosts.size(), x = static_cast<std::size_t>(a - hosts.begin()) * n +
                                             static_cast<std::size_t>(b - hosts.begin());
    const auto first = p.host_routes.links.begin();
    return explicit_path(p, src, dst,
                         std::vector<std::size_t>(first + static_cast<std::ptrdiff_t>(p.host_routes.start[x]),
                                                  first + static_cast<std::ptrdiff_t>(p.host_routes.start[x + 1])));
  }
  for (const auto& r : p.routes) {
    const bool forward = r.src == src && r.dst == dst;
    const bool backward = r.symmetrical && r.src == dst && r.dst == src;
    if (!forward && !backward) continue;
    std::vector<std::size_t> links(r.links.begin(), r.links.end());
    if (backward) std::reverse(links.begin(), links.end());
    return explicit_path(p, src, dst, std::move(links));
  }
  return std::nullopt;
}

std::vector<std::size_t> connected_components(const Platform& p, const Adjacency& adj) {
  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> comp(p.nodes.size(), none);
  std::size_t next = 0;
  for (std::size_t s = 0; s < p.nodes.size(); ++s) {
    if (comp[s] != none) continue;
    std::vector<std::size_t> stack{s};
    comp[s] = next;
    while (!stack.empty()) {
      const auto v = stack.back();
      stack.pop_back();
      for (const auto& nb : adj[v])
        if (comp[nb.node] == none) {
          comp[nb.node] = next;
          stack.push_back(nb.node);
        }
    }
    ++next;
  }
  return comp;
}

std::optional<std::pair<std::size_t, std::size_t>> first_disconnected_hosts(const Platform& p) {
  const auto hosts = p.host_indices();
  if (hosts.size() < 2) return std::nullopt;
  if (p.graph_routed()) {
    const auto comp = connected_components(p, adjacency(p));
    for (auto h : hosts)
      if (comp[h] != comp[hosts.front()]) return std::make_pair(hosts.front(), h);
    return std::nullopt;
  }
  if (!p.host_routes.empty()) return std::nullopt;  // a route per ordered pair (check_route_table)
  std::unordered_set<std::uint64_t> routed;
  for (const auto& r : p.routes) {
    routed.insert(pair_key(r.src, r.dst));
    if (r.symmetrical) routed.insert(pair_key(r.dst, r.src));
  }
  for (auto a : hosts)
    for (auto b : hosts)
      if (a != b && !routed.count(pair_key(a, b))) return std::make_pair(a, b);
  return std::nullopt;
}

void validate(const Platform& p) {
  if (p.host_count() == 0) throw InputError("the platform has no host");
  check_names(p);
  check_values(p);
  if (p.graph_routed())
    check_edges(p);
  else
    check_routes(p);
  if (const auto pair = first_disconnected_hosts(p))
    throw InputError("hosts " + quoted(p.nodes[pair->first].name) + " and " + quoted(p.nodes[pair->second].name) +
                     " are not connected");
}

void expand_host_routes(Platform& p) {
  if (p.host_routes.empty()) return;
  const auto hosts = p.host_indices();
  const std::size_t n = hosts.size();
  const auto& t = p.host_routes;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b) {
      if (a == b) continue;
      ExplicitRoute r;
      r.src = hosts[a];
      r.dst = hosts[b];
      r.links.assign(t.links.begin() + static_cast<std::ptrdiff_t>(t.start[a * n + b]),
                     t.links.begin() + static_cast<std::ptrdiff_t>(t.start[a * n + b + 1]));
      p.routes.push_back(std::move(r));
    }
  p.host_routes = HostRouteTable{};
}

std::size_t prune_dead_end_routers(Platform& p) {
  if (!p.graph_routed()) return 0;
  const auto adj = adjacency(p);
  std::vector<std::size_t> degree(p.nodes.size());
  for (std::size_t v = 0; v < p.nodes.size(); ++v) degree[v] = adj[v].size();
  std::vector<bool> removed(p.nodes.size(), false);
  std::vector<std::size_t> stack;
  for (std::size_t v = 0; v < p.nodes.size(); ++v)
    if (!p.nodes[v].is_host && degree[v] <= 1) stack.push_back(v);
  while (!stack.empty()) {
    const auto v = stack.back();
    stack.pop_back();
    if (removed[v]) continue;
    removed[v] = true;
    for (const auto& nb : adj[v]) {
      if (removed[nb.node]) continue;
      if (--degree[nb.node] <= 1 && !p.nodes[nb.node].is_host) stack.push_back(nb.node);
    }
  }
  const auto count = static_cast<std::size_t>(std::count(removed.begin(), removed.end(), true));
  if (count == 0) return 0;

  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> node_map(p.nodes.size(), none), link_map(p.links.size(), none);
  Platform out;
  out.zone_name = p.zone_name;
  out.routing = p.routing;
  for (std::size_t v = 0; v < p.nodes.size(); ++v)
    if (!removed[v]) {
      node_map[v] = out.nodes.size();
      out.nodes.push_back(p.nodes[v]);
    }
  std::vector<bool> link_used(p.links.size(), false);
  for (const auto& e : p.edges)
    if (!removed[e.a] && !removed[e.b]) link_used[e.link] = true;
  for (std::size_t l = 0; l < p.links.size(); ++l)
    if (link_used[l]) {
      link_map[l] = out.links.size();
      out.links.push_back(p.links[l]);
    }
  for (const auto& e : p.edges)
    if (!removed[e.a] && !removed[e.b]) out.add_edge(node_map[e.a], node_map[e.b], link_map[e.link]);
  p = std::move(out);
  return count;
}

}  // namespace ringsim
