#include "oracles/ring_platforms.hpp"

#include <algorithm>

#include "planners/ring/ring_network.hpp"

namespace ringsim::testing {
namespace {

double draw_speed(std::mt19937_64& rng) { return std::uniform_real_distribution<double>(20e6, 200e6)(rng); }

double draw_bandwidth(std::mt19937_64& rng, bool discrete) {
  static const double values[] = {1e6, 2e6, 5e6, 10e6, 100e6};
  if (discrete) return values[std::uniform_int_distribution<int>(0, 4)(rng)];
  return std::uniform_real_distribution<double>(1e6, 100e6)(rng);
}

}  // namespace

void add_route_per_pair(Platform& p, const std::function<std::vector<std::size_t>(std::size_t, std::size_t)>& links) {
  const auto hosts = p.host_indices();
  for (std::size_t a = 0; a < hosts.size(); ++a)
    for (std::size_t b = 0; b < hosts.size(); ++b) {
      if (a == b) continue;
      ExplicitRoute r;
      r.src = hosts[a];
      r.dst = hosts[b];
      r.links = links(a, b);
      p.routes.push_back(std::move(r));
    }
  validate(p);
}

Platform random_graph_platform(std::mt19937_64& rng, const RandomPlatformShape& shape) {
  Platform p;
  p.routing = ZoneRouting::dijkstra;
  for (std::size_t h = 0; h < shape.hosts; ++h) p.add_host("h" + std::to_string(h), draw_speed(rng));
  for (std::size_t r = 0; r < shape.routers; ++r) p.add_router("r" + std::to_string(r));
  auto add_link = [&](std::size_t a, std::size_t b) {
    const bool fat = std::uniform_real_distribution<double>(0, 1)(rng) < shape.fatpipe_probability;
    const auto l = p.add_link("l" + std::to_string(p.links.size()), draw_bandwidth(rng, shape.discrete_bandwidths),
                              1e-4, fat ? SharingPolicy::fatpipe : SharingPolicy::shared);
    p.add_edge(a, b, l);
  };
  auto has_edge = [&](std::size_t a, std::size_t b) {
    for (const auto& e : p.edges)
      if ((e.a == a && e.b == b) || (e.a == b && e.b == a)) return true;
    return false;
  };
  const std::size_t n = p.nodes.size();
  if (shape.hosts_are_leaves && shape.routers > 0) {
    // Routers: a random tree plus extra edges; each host hangs off a random router.
    for (std::size_t r = 1; r < shape.routers; ++r)
      add_link(shape.hosts + r, shape.hosts + std::uniform_int_distribution<std::size_t>(0, r - 1)(rng));
    for (std::size_t h = 0; h < shape.hosts; ++h)
      add_link(h, shape.hosts + std::uniform_int_distribution<std::size_t>(0, shape.routers - 1)(rng));
    for (std::size_t x = 0, tries = 0; x < shape.extra_edges && tries < 100; ++tries) {
      const auto a = shape.hosts + std::uniform_int_distribution<std::size_t>(0, shape.routers - 1)(rng);
      const auto b = shape.hosts + std::uniform_int_distribution<std::size_t>(0, shape.routers - 1)(rng);
      if (a == b || has_edge(a, b)) continue;
      add_link(a, b);
      ++x;
    }
  } else {
    std::vector<std::size_t> order(n);
    for (std::size_t v = 0; v < n; ++v) order[v] = v;
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t v = 1; v < n; ++v) add_link(order[v], order[std::uniform_int_distribution<std::size_t>(0, v - 1)(rng)]);
    for (std::size_t x = 0, tries = 0; x < shape.extra_edges && tries < 100; ++tries) {
      const auto a = std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
      const auto b = std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
      if (a == b || has_edge(a, b)) continue;
      add_link(a, b);
      ++x;
    }
  }
  validate(p);
  return p;
}

Platform complete_graph_platform(std::mt19937_64& rng, std::size_t n, bool fatpipe) {
  Platform p;
  p.routing = ZoneRouting::dijkstra;
  for (std::size_t h = 0; h < n; ++h) p.add_host("h" + std::to_string(h), draw_speed(rng));
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b) {
      const auto l = p.add_link("l" + std::to_string(a) + "-" + std::to_string(b), draw_bandwidth(rng, false), 1e-4,
                                fatpipe ? SharingPolicy::fatpipe : SharingPolicy::shared);
      p.add_edge(a, b, l);
    }
  validate(p);
  return p;
}

Platform cluster_platform(std::mt19937_64& rng, std::size_t n, bool fatpipe_backbone) {
  Platform p;
  p.routing = ZoneRouting::full;
  for (std::size_t h = 0; h < n; ++h) {
    p.add_host("h" + std::to_string(h), draw_speed(rng));
    p.add_link("l" + std::to_string(h), draw_bandwidth(rng, true), 1e-5);
  }
  const auto bb = p.add_link("bb", 20e6, 1e-5, fatpipe_backbone ? SharingPolicy::fatpipe : SharingPolicy::shared);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b) p.routes.push_back({a, b, {a, bb, b}, true});
  validate(p);
  return p;
}

oracles::RingAnswer to_answer(const ring::RingNetwork& net, const ring::RingPlan& plan) {
  oracles::RingAnswer ans;
  for (auto h : plan.ring) ans.ring.push_back(net.host_name(h));
  auto names = [&](const ring::HostPath& path) {
    std::vector<std::string> out;
    for (auto l : path.links) out.push_back(net.link_name(l));
    return out;
  };
  for (std::size_t m = 0; m < plan.succ.size(); ++m) {
    ans.succ_links.push_back(names(plan.succ[m]));
    ans.pred_links.push_back(names(plan.pred[m]));
  }
  ans.succ_bw = plan.succ_bw;
  ans.pred_bw = plan.pred_bw;
  ans.tstep = plan.tstep;
  return ans;
}

}  // namespace ringsim::testing
