#include "oracles/scale_platforms.hpp"

#include <algorithm>
#include <string>

#include "model/tiers_generator.hpp"
#include "oracles/ring_platforms.hpp"

namespace ringsim::testing {
namespace {

// The routes of a two-level fat tree of `per_leaf` nodes a leaf: a node's own link; between leaves,
// the source leaf's link up to the spine the destination's index selects (b mod spines), then that
// spine's link down to the destination's leaf, down[leaf][spine] (the spine the source's index
// selects when `down_by_source`, as SimGrid's d-mod-k comes down by the source's port); the
// destination's own link.
void add_fat_tree_routes(Platform& p, const std::vector<std::size_t>& own, const std::vector<std::vector<std::size_t>>& up,
                         const std::vector<std::vector<std::size_t>>& down, std::size_t per_leaf, bool down_by_source) {
  const std::size_t spines = up.front().size();
  add_route_per_pair(p, [&](std::size_t a, std::size_t b) {
    const std::size_t la = a / per_leaf, lb = b / per_leaf;
    if (la == lb) return std::vector<std::size_t>{own[a], own[b]};
    return std::vector<std::size_t>{own[a], up[la][b % spines], down[lb][(down_by_source ? a : b) % spines], own[b]};
  });
}

}  // namespace

Platform clusters_of_clusters(std::mt19937_64& rng, bool asymmetric) {
  Platform p;
  p.routing = ZoneRouting::full;
  const int sites = 1 + static_cast<int>(rng() % 3);
  struct Node {
    std::size_t up, down, limiter, cluster, site;
  };
  std::vector<Node> nodes;
  std::vector<std::size_t> backbone, cluster_up, site_up;
  std::vector<std::size_t> cluster_site;
  const auto fat = [&](double prob) {
    return std::uniform_real_distribution<double>(0, 1)(rng) < prob ? SharingPolicy::fatpipe : SharingPolicy::shared;
  };
  const bool duplex = rng() % 3 == 0, limiter = rng() % 4 == 0;
  for (int s = 0; s < sites; ++s) {
    site_up.push_back(p.add_link("site" + std::to_string(s), pick_one(rng, {1e7, 2e7, 1e8}), 1e-3, fat(0.3)));
    const int clusters = 1 + static_cast<int>(rng() % 3);
    for (int c = 0; c < clusters; ++c) {
      const std::size_t cid = backbone.size();
      const double speed = pick_one(rng, {1e8, 2e8, 4e8});
      const double bw = pick_one(rng, {1e6, 2e6, 1e7, 1.25e8});
      backbone.push_back(p.add_link("bb" + std::to_string(cid), pick_one(rng, {1e7, 1e8, 1e9}), 1e-4, fat(0.5)));
      cluster_up.push_back(p.add_link("cup" + std::to_string(cid), pick_one(rng, {5e6, 1e7, 1e8}), 1e-4, fat(0.2)));
      cluster_site.push_back(static_cast<std::size_t>(s));
      const int n = 2 + static_cast<int>(rng() % 6);
      for (int i = 0; i < n; ++i) {
        const std::string name = "c" + std::to_string(cid) + "-" + std::to_string(i);
        p.add_host(name, rng() % 7 == 0 ? pick_one(rng, {1.5e8, 3e8}) : speed);
        Node node{};
        node.cluster = cid;
        node.site = static_cast<std::size_t>(s);
        node.up = p.add_link(name + (duplex ? "_UP" : ""), bw, 1e-5);
        node.down = duplex ? p.add_link(name + "_DOWN", bw, 1e-5) : node.up;
        node.limiter = limiter ? p.add_link(name + "_limiter", 2 * bw, 0.0) : static_cast<std::size_t>(-1);
        nodes.push_back(node);
      }
    }
  }
  std::vector<std::size_t> wan(static_cast<std::size_t>(sites * sites));
  for (auto& w : wan) w = p.add_link("wan" + std::to_string(&w - wan.data()), pick_one(rng, {5e6, 1e7, 5e7}), 1e-2);
  add_route_per_pair(p, [&](std::size_t a, std::size_t b) {
    const Node &x = nodes[a], &y = nodes[b];
    std::vector<std::size_t> links;
    if (limiter) links.push_back(x.limiter);
    links.push_back(x.up);
    links.push_back(backbone[x.cluster]);
    if (x.cluster != y.cluster) {
      links.push_back(cluster_up[x.cluster]);
      if (x.site != y.site) {
        links.push_back(site_up[x.site]);
        const std::size_t lo = std::min(x.site, y.site), hi = std::max(x.site, y.site);
        links.push_back(asymmetric ? wan[x.site * static_cast<std::size_t>(sites) + y.site]
                                   : wan[lo * static_cast<std::size_t>(sites) + hi]);
        links.push_back(site_up[y.site]);
      }
      links.push_back(cluster_up[y.cluster]);
      links.push_back(backbone[y.cluster]);
    }
    links.push_back(y.down);
    if (limiter) links.push_back(y.limiter);
    return links;
  });
  return p;
}

Platform fat_tree(std::mt19937_64& rng) {
  Platform p;
  p.routing = ZoneRouting::full;
  const std::size_t leaves = 2 + rng() % 4, per_leaf = 2 + rng() % 5, spines = 1 + rng() % 3;
  const double speed = pick_one(rng, {1e8, 1e9});
  std::vector<std::size_t> own;
  std::vector<std::vector<std::size_t>> up(leaves);
  for (std::size_t l = 0; l < leaves; ++l)
    for (std::size_t s = 0; s < spines; ++s)
      up[l].push_back(p.add_link("up" + std::to_string(l) + "-" + std::to_string(s), pick_one(rng, {1e7, 2e7, 1e8}), 1e-4,
                                 rng() % 5 == 0 ? SharingPolicy::fatpipe : SharingPolicy::shared));
  for (std::size_t n = 0; n < leaves * per_leaf; ++n) {
    p.add_host("n" + std::to_string(n), rng() % 9 == 0 ? 2 * speed : speed);
    own.push_back(p.add_link("own" + std::to_string(n), pick_one(rng, {1e7, 1.25e8}), 1e-5));
  }
  add_fat_tree_routes(p, own, up, up, per_leaf, false);
  return p;
}

Platform dmodk_fat_tree(std::size_t leaves, std::size_t per_leaf, std::size_t spines) {
  Platform p;
  p.routing = ZoneRouting::full;
  std::vector<std::vector<std::size_t>> up(leaves), down(leaves);
  for (std::size_t l = 0; l < leaves; ++l)
    for (std::size_t s = 0; s < spines; ++s) {
      up[l].push_back(p.add_link("up" + std::to_string(l) + "-" + std::to_string(s), 1.25e8, 1e-6));
      down[l].push_back(p.add_link("down" + std::to_string(l) + "-" + std::to_string(s), 1.25e8, 1e-6));
    }
  std::vector<std::size_t> own;
  for (std::size_t n = 0; n < leaves * per_leaf; ++n) {
    p.add_host("n" + std::to_string(n), 1e9);
    own.push_back(p.add_link("own" + std::to_string(n), 1.25e8, 1e-6));
  }
  add_fat_tree_routes(p, own, up, down, per_leaf, true);
  return p;
}

Platform dragonfly(std::mt19937_64& rng) {
  Platform p;
  p.routing = ZoneRouting::full;
  const std::size_t groups = 2 + rng() % 3, routers = 2 + rng() % 2, per_router = 1 + rng() % 3;
  const double speed = pick_one(rng, {1e8, 5e8});
  const double local_bw = pick_one(rng, {1e7, 5e7}), global_bw = pick_one(rng, {5e6, 1e7, 5e7});
  auto rid = [&](std::size_t g, std::size_t r) { return g * routers + r; };
  std::vector<std::vector<std::size_t>> local(groups * routers, std::vector<std::size_t>(groups * routers, 0));
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t a = 0; a < routers; ++a)
      for (std::size_t b = a + 1; b < routers; ++b)
        local[rid(g, a)][rid(g, b)] = local[rid(g, b)][rid(g, a)] =
            p.add_link("loc" + std::to_string(g) + "-" + std::to_string(a) + "-" + std::to_string(b), local_bw, 1e-5);
  std::vector<std::vector<std::size_t>> global(groups, std::vector<std::size_t>(groups, 0));
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t h = g + 1; h < groups; ++h)
      global[g][h] = global[h][g] = p.add_link("glob" + std::to_string(g) + "-" + std::to_string(h), global_bw, 1e-4);
  auto gateway = [&](std::size_t g, std::size_t h) { return (g + h) % routers; };  // router of g holding g-h
  std::vector<std::size_t> own, router_of;
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t r = 0; r < routers; ++r)
      for (std::size_t n = 0; n < per_router; ++n) {
        const std::string name = "d" + std::to_string(g) + "-" + std::to_string(r) + "-" + std::to_string(n);
        p.add_host(name, rng() % 11 == 0 ? 3 * speed : speed);
        own.push_back(p.add_link(name, pick_one(rng, {1e7, 1e8}), 1e-6));
        router_of.push_back(rid(g, r));
      }
  add_route_per_pair(p, [&](std::size_t a, std::size_t b) {
    std::vector<std::size_t> links{own[a]};
    std::size_t at = router_of[a];
    const std::size_t to = router_of[b];
    const std::size_t ga = at / routers, gb = to / routers;
    if (ga != gb) {
      const std::size_t out = rid(ga, gateway(ga, gb)), in = rid(gb, gateway(ga, gb));
      if (at != out) links.push_back(local[at][out]);
      links.push_back(global[ga][gb]);
      at = in;
    }
    if (at != to) links.push_back(local[at][to]);
    links.push_back(own[b]);
    return links;
  });
  return p;
}

Platform small_tiers(std::size_t hosts, std::uint64_t seed) {
  return tiers_platform_with_hosts(hosts, seed, TiersShape{4, 4, 2, 4});
}

Platform bridged_blocks(std::mt19937_64& rng) {
  Platform p;
  p.routing = ZoneRouting::dijkstra;
  auto link = [&] {
    const auto sharing = rng() % 10 == 0 ? SharingPolicy::fatpipe : SharingPolicy::shared;
    return p.add_link("l" + std::to_string(p.links.size()), pick_one(rng, {1e6, 2e6, 5e6}),
                      1e-4 * static_cast<double>(1 + rng() % 3), sharing);
  };
  auto host = [&] { return p.add_host("h" + std::to_string(p.nodes.size()), pick_one(rng, {1e8, 2e8, 3e8})); };
  const int count = 2 + static_cast<int>(rng() % 10);
  std::vector<std::vector<std::size_t>> blocks;
  for (int b = 0; b < count; ++b) {
    const int size = 1 + static_cast<int>(rng() % 5);
    std::vector<std::size_t> nodes;
    for (int v = 0; v < size; ++v)
      nodes.push_back(rng() % 4 == 0 ? host() : p.add_router("r" + std::to_string(p.nodes.size())));
    if (size == 2) {
      p.add_edge(nodes[0], nodes[1], link());  // a bridge: two blocks of one node
    } else if (size >= 3) {
      for (int v = 0; v < size; ++v) p.add_edge(nodes[v], nodes[(v + 1) % size], link());
      if (size >= 4 && rng() % 2 == 0) p.add_edge(nodes[0], nodes[2], link());
    }
    if (b > 0) {
      const auto& other = blocks[rng() % blocks.size()];
      p.add_edge(nodes[rng() % nodes.size()], other[rng() % other.size()], link());
    }
    blocks.push_back(nodes);
  }
  for (const auto& nodes : blocks)
    for (std::size_t n = rng() % 4; n > 0; --n) p.add_edge(host(), nodes[rng() % nodes.size()], link());
  if (p.host_count() < 2) p.add_edge(host(), blocks[0][0], link());
  if (p.host_count() < 2) p.add_edge(host(), blocks[0][0], link());
  validate(p);
  return p;
}

Platform tiers_or_blocks(int trial, std::uint64_t seed, std::mt19937_64& rng) {
  return trial % 2 == 0 ? small_tiers(12 + 4 * static_cast<std::size_t>(trial % 5), seed + static_cast<std::uint64_t>(trial))
                        : bridged_blocks(rng);
}

std::vector<double> tied_capacities(const ring::RingNetwork& net, std::mt19937_64& rng, unsigned zero_one_in,
                                    std::initializer_list<double> values) {
  std::vector<double> cap(net.link_count());
  for (auto& c : cap) c = rng() % zero_one_in == 0 ? 0.0 : pick_one(rng, values);
  return cap;
}

}  // namespace ringsim::testing
