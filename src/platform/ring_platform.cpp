#include "platform/ring_platform.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>

#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include "model/errors.hpp"
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

RingPlatform platform_mode(const LoadedPlatform& lp, std::size_t candidates, const std::set<std::string>& excluded) {
  RingPlatform out;
  out.routing = RingRouting::platform;
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

  // Every ordered pair's route, as SimGrid computes it.
  const std::size_t n = hosts.size();
  auto routes = probe_routes(ordered_pairs(hosts), true);
  out.routes_asked += routes.size();
  // Reachability taken as transitive above may not be (hand-written Full routes): keep a clique.
  auto routed = [&](std::size_t a, std::size_t b) { return routes[ordered_pair_index(a, b, n)].routed; };
  const std::vector<bool> in = keep_mutually_routed(n, routed);
  const auto dropped = static_cast<std::size_t>(std::count(in.begin(), in.end(), false));
  if (dropped > 0)
    out.left_out.push_back(std::to_string(dropped) + " hosts without routes to some others both ways");

  Platform& p = out.model;
  p.zone_name = "routes-of-" + lp.engine().get_netzone_root()->get_name();
  p.routing = ZoneRouting::full;
  std::vector<std::size_t> node(n, 0);
  for (std::size_t a = 0; a < n; ++a)
    if (in[a]) {
      node[a] = p.add_host(hosts[a]->get_name(), hosts[a]->get_speed());
      p.nodes.back().cores = hosts[a]->get_core_count();
    }
  // The links the routes cross, in the platform's order.
  constexpr std::size_t unused = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> model_link(lp.links().size(), unused);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b)
      if (a != b && in[a] && in[b])
        for (auto* l : routes[ordered_pair_index(a, b, n)].links) model_link[lp.link_index(l)] = 0;
  for (std::size_t i = 0; i < model_link.size(); ++i)
    if (model_link[i] != unused) {
      model_link[i] = add_loaded_link(p, lp.links()[i]);
    }
  // A route that crosses no link (a Vivaldi zone's: latency only) has no bandwidth limit: the
  // planners see one path = one list of links, so it crosses one FATPIPE link of unbounded
  // bandwidth (kLatencyOnlyBandwidth) that limits nothing.
  std::size_t latency_only = unused;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b) {
      if (a == b || !in[a] || !in[b]) continue;
      auto& r = routes[ordered_pair_index(a, b, n)];
      ExplicitRoute er;
      er.src = node[a];
      er.dst = node[b];
      for (auto* l : r.links) er.links.push_back(model_link[lp.link_index(l)]);
      if (er.links.empty()) {
        if (latency_only == unused)
          latency_only = p.add_link(kLatencyOnlyLink, kLatencyOnlyBandwidth, 0.0, SharingPolicy::fatpipe);
        er.links.push_back(latency_only);
      }
      p.routes.push_back(std::move(er));
      r.links.clear();
      r.links.shrink_to_fit();
    }
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
