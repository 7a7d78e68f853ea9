#include "platform/ring_platform.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>

#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include "model/errors.hpp"
#include "model/huge_pages.hpp"
#include "platform/reachable_hosts.hpp"
#include "platform/route_prober.hpp"

XBT_LOG_NEW_DEFAULT_CATEGORY(ringsim_ring_platform, "ringsim: the platform as the ring planners see it");

namespace sg4 = simgrid::s4u;

namespace ringsim::platform {
namespace {

// The n fastest of `order` (indices), ties by position: stable.
template <class Speed>
std::vector<std::size_t> fastest(std::vector<std::size_t> order, std::size_t n, Speed speed) {
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return speed(a) > speed(b); });
  order.resize(std::min(n, order.size()));
  std::sort(order.begin(), order.end());
  return order;
}

// Free mode: the declared graph; hosts outside the largest connected part, or not among the
// candidates, become routers (they still forward, as their links do).
RingPlatform free_mode(const LoadedPlatform& lp, std::size_t candidates, const std::set<std::string>& excluded) {
  RingPlatform out;
  out.routing = RingRouting::free;
  out.model = *lp.declared();
  Platform& p = out.model;
  std::size_t dropped = 0;
  for (std::size_t h : p.host_indices())
    if (excluded.count(p.nodes[h].name)) {
      p.nodes[h].is_host = false;
      ++dropped;
    }
  if (dropped > 0) out.left_out.push_back(std::to_string(dropped) + " hosts that may not be ring members");
  if (p.host_count() == 0) throw InputError("no host of platform '" + lp.path() + "' may be a ring member");
  const auto comp = connected_components(p, adjacency(p));
  std::map<std::size_t, std::size_t> hosts_in;
  for (std::size_t h : p.host_indices()) ++hosts_in[comp[h]];
  std::size_t best = comp[p.host_indices().front()];
  for (std::size_t h : p.host_indices())
    if (hosts_in[comp[h]] > hosts_in[best]) best = comp[h];
  std::size_t cut = 0;
  for (std::size_t h : p.host_indices())
    if (comp[h] != best) {
      p.nodes[h].is_host = false;
      ++cut;
    }
  if (cut > 0)
    out.left_out.push_back(std::to_string(cut) + " hosts outside the largest connected part of the graph");
  const auto hosts = p.host_indices();
  if (candidates > 0 && candidates < hosts.size()) {
    const auto keep = fastest(hosts, candidates, [&](std::size_t n) { return p.nodes[n].speed; });
    for (std::size_t h : hosts)
      if (!std::binary_search(keep.begin(), keep.end(), h)) p.nodes[h].is_host = false;
    out.left_out.push_back(std::to_string(hosts.size() - keep.size()) + " hosts not among the " +
                           std::to_string(candidates) + " fastest (--candidates)");
  }
  return out;
}

// Platform mode's candidates: the hosts that may be members, within the largest set of hosts that
// reach each other, the `candidates` fastest of them when asked; what is left out is said in
// out.left_out.
std::vector<sg4::Host*> platform_mode_hosts(const LoadedPlatform& lp, std::size_t candidates,
                                            const std::set<std::string>& excluded, RingPlatform& out) {
  std::vector<sg4::Host*> allowed;
  for (auto* h : lp.hosts())
    if (!excluded.count(h->get_name())) allowed.push_back(h);
  if (allowed.size() < lp.hosts().size())
    out.left_out.push_back(std::to_string(lp.hosts().size() - allowed.size()) + " hosts that may not be ring members");
  const auto sets = reachable_sets(lp, allowed);
  out.routes_asked += sets.asked;
  if (!sets.unroutable.empty())
    out.left_out.push_back(std::to_string(sets.unroutable.size()) + " hosts SimGrid cannot route, e.g. " +
                           sets.unroutable.front().second);
  if (sets.sets.empty())
    throw InputError("no host of platform '" + lp.path() + "' can be routed by SimGrid" +
                     (sets.unroutable.empty() ? std::string() : ": " + sets.unroutable.front().second));
  std::vector<sg4::Host*> hosts = sets.sets.front();
  std::size_t others = 0;
  for (std::size_t k = 1; k < sets.sets.size(); ++k) others += sets.sets[k].size();
  if (others > 0)
    out.left_out.push_back(std::to_string(others) + " hosts outside the largest set of hosts that reach each other");
  if (candidates > 0 && candidates < hosts.size()) {
    std::vector<std::size_t> order(hosts.size());
    std::iota(order.begin(), order.end(), 0);
    std::vector<sg4::Host*> kept;
    for (std::size_t i : fastest(order, candidates, [&](std::size_t i) { return hosts[i]->get_speed(); }))
      kept.push_back(hosts[i]);
    out.left_out.push_back(std::to_string(hosts.size() - kept.size()) + " hosts not among the " +
                           std::to_string(candidates) + " fastest (--candidates)");
    hosts = std::move(kept);
  }
  if (hosts.size() > kPlatformModeMaxHosts)
    throw InputError("the platform routing mode holds every pair's route: " + std::to_string(hosts.size()) +
                     " hosts are more than " + std::to_string(kPlatformModeMaxHosts) +
                     "; restrict the ring to the fastest with --candidates N");
  return hosts;
}

// A latency-only route's placeholder among the probed routes' links; also "no model link yet".
constexpr std::uint32_t kNoPairLink = std::numeric_limits<std::uint32_t>::max();

// Every ordered pair's route, as SimGrid computes it, read straight into one flat array of
// SimGrid link indices (a latency-only route: one placeholder), then renumbered in place into
// the model's table (model/platform_graph.hpp's HostRouteTable): no route is ever a vector of its own.
// The planners read that table in no predictable order: its arrays ask for huge pages
// (model/huge_pages.hpp).
struct PairRouteLinks {
  std::vector<char> is_routed;       // per ordered pair (ordered_pair_index)
  std::vector<std::uint64_t> start;  // pair x's links: links[start[x] .. start[x + 1])
  std::vector<std::uint32_t> links;  // SimGrid link indices (LoadedPlatform::link_index) or kNoPairLink
};

PairRouteLinks read_pair_routes(const LoadedPlatform& lp, const std::vector<sg4::Host*>& hosts,
                                std::size_t& routes_asked) {
  const std::size_t n = hosts.size();
  PairRouteLinks routes;
  routes.is_routed.assign(n > 0 ? n * (n - 1) : 0, 0);
  routes.start.assign(routes.is_routed.size() + 1, 0);
  // Link to index through a direct-mapped cache in front of LoadedPlatform::link_index (a tree
  // look-up): the routes ask it once per link crossed, some 20 million times on g5k.xml.
  std::vector<std::pair<const sg4::Link*, std::uint32_t>> link_cache(std::size_t{1} << 12, {nullptr, 0});
  auto index_of = [&](const sg4::Link* l) {
    const auto bits = reinterpret_cast<std::uintptr_t>(l);
    auto& slot = link_cache[((bits >> 4) ^ (bits >> 16)) & (link_cache.size() - 1)];
    if (slot.first != l) slot = {l, static_cast<std::uint32_t>(lp.link_index(l))};
    return slot.second;
  };
  routes_asked += probe_ordered_pairs(hosts, true, [&](std::size_t x, const ProbedRoute& r) {
    routes.is_routed[x] = r.routed ? 1 : 0;
    if (r.routed) {
      for (auto* l : r.links) push_back_huge(routes.links, index_of(l));
      if (r.links.empty()) push_back_huge(routes.links, kNoPairLink);
    }
    routes.start[x + 1] = routes.links.size();
  });
  return routes;
}

// The links the kept routes cross, added to the model in the platform's order: each SimGrid link's
// model index (kNoPairLink for the others), and the index of the latency-only link.
struct ModelLinks {
  std::vector<std::uint32_t> of_loaded;
  std::uint32_t latency_only = kNoPairLink;
};

ModelLinks add_crossed_links(const LoadedPlatform& lp, const PairRouteLinks& routes, const std::vector<bool>& in,
                             Platform& p) {
  const std::size_t n = in.size();
  ModelLinks out;
  out.of_loaded.assign(lp.links().size(), kNoPairLink);
  bool latency_only_used = false;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b)
      if (a != b && in[a] && in[b]) {
        const std::size_t x = ordered_pair_index(a, b, n);
        for (std::uint64_t y = routes.start[x]; y < routes.start[x + 1]; ++y)
          if (routes.links[y] == kNoPairLink)
            latency_only_used = true;
          else
            out.of_loaded[routes.links[y]] = 0;
      }
  for (std::size_t i = 0; i < out.of_loaded.size(); ++i)
    if (out.of_loaded[i] != kNoPairLink)
      out.of_loaded[i] = static_cast<std::uint32_t>(add_loaded_link(p, lp.links()[i]));
  // A route that crosses no link (a Vivaldi zone's: latency only) has no bandwidth limit: the
  // planners see one path = one list of links, so it crosses one FATPIPE link of unbounded
  // bandwidth (kLatencyOnlyBandwidth) that limits nothing.
  if (latency_only_used)
    out.latency_only =
        static_cast<std::uint32_t>(p.add_link(kLatencyOnlyLink, kLatencyOnlyBandwidth, 0.0, SharingPolicy::fatpipe));
  return out;
}

// The kept pairs' routes as the model's HostRouteTable, renumbered to the model's links. The kept
// pairs come in the order of `start` (a-major), so the table is written in place over what it was
// read from.
void write_host_route_table(PairRouteLinks& routes, const std::vector<bool>& in, std::size_t kept,
                            const ModelLinks& model_links, HostRouteTable& t) {
  const std::size_t n = in.size(), m = kept;
  std::vector<std::uint32_t>& links = routes.links;
  reserve_huge(t.start, m * m + 1);
  t.start.assign(m * m + 1, 0);
  std::size_t w = 0, row = 0;
  for (std::size_t a = 0; a < n; ++a) {
    if (!in[a]) continue;
    std::size_t col = 0;
    for (std::size_t b = 0; b < n; ++b) {
      if (!in[b]) continue;
      if (a != b) {
        const std::size_t x = ordered_pair_index(a, b, n);
        for (std::uint64_t y = routes.start[x]; y < routes.start[x + 1]; ++y)
          links[w++] = links[y] == kNoPairLink ? model_links.latency_only : model_links.of_loaded[links[y]];
      }
      t.start[row * m + col + 1] = w;
      ++col;
    }
    ++row;
  }
  links.resize(w);
  if (m < n) reserve_huge(links, w);  // shrunk, still advised
  t.links = std::move(links);
}

// Platform mode: a Full zone of the hosts that SimGrid routes both ways between each other, with
// the routes SimGrid computes.
RingPlatform platform_mode(const LoadedPlatform& lp, std::size_t candidates, const std::set<std::string>& excluded) {
  RingPlatform out;
  out.routing = RingRouting::platform;
  const std::vector<sg4::Host*> hosts = platform_mode_hosts(lp, candidates, excluded, out);
  const std::size_t n = hosts.size();
  PairRouteLinks routes = read_pair_routes(lp, hosts, out.routes_asked);
  // Reachability taken as transitive above may not be (hand-written Full routes): keep a clique.
  auto routed = [&](std::size_t a, std::size_t b) { return routes.is_routed[ordered_pair_index(a, b, n)] != 0; };
  const std::vector<bool> in = keep_mutually_routed(n, routed);
  const auto dropped = static_cast<std::size_t>(std::count(in.begin(), in.end(), false));
  if (dropped > 0)
    out.left_out.push_back(std::to_string(dropped) + " hosts without routes to some others both ways");
  std::vector<char>().swap(routes.is_routed);

  Platform& p = out.model;
  p.zone_name = "routes-of-" + lp.engine().get_netzone_root()->get_name();
  p.routing = ZoneRouting::full;
  for (std::size_t a = 0; a < n; ++a)
    if (in[a]) {
      p.add_host(hosts[a]->get_name(), hosts[a]->get_speed());
      p.nodes.back().cores = hosts[a]->get_core_count();
    }
  const ModelLinks model_links = add_crossed_links(lp, routes, in, p);
  write_host_route_table(routes, in, n - dropped, model_links, p.host_routes);
  return out;
}

}  // namespace

RingPlatform read_ring_platform(const LoadedPlatform& lp, RingRouting requested, std::size_t candidates,
                                const std::set<std::string>& excluded) {
  RingRouting mode = requested;
  if (mode == RingRouting::automatic) mode = lp.graph_known() ? RingRouting::free : RingRouting::platform;
  if (mode == RingRouting::free && !lp.graph_known())
    throw InputError("routing 'free' needs a platform of one Floyd or Dijkstra zone read as a graph, and '" +
                     lp.path() + "' has " + lp.why_no_graph() +
                     ": use routing 'platform'");
  RingPlatform out = mode == RingRouting::free ? free_mode(lp, candidates, excluded) : platform_mode(lp, candidates, excluded);
  out.platform_hosts = lp.hosts().size();
  out.candidates = out.model.host_count();
  validate(out.model);
  XBT_DEBUG("ring platform (%s): %zu candidates of %zu hosts, %zu routes asked", to_string(out.routing),
            out.candidates, out.platform_hosts, out.routes_asked);
  return out;
}

}  // namespace ringsim::platform
