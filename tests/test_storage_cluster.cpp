// The storage cluster joined to a platform through a backbone (src/model/storage_cluster.hpp):
// what it adds to graph-routed and Full platforms, the routes from the storage nodes, and the
// refusals (name clashes, bad values).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "model/errors.hpp"
#include "model/platform_graph.hpp"
#include "model/storage_cluster.hpp"

using namespace ringsim;

namespace {

// A tree (unique paths): h0 - r0 - r1 - h1, r1 - h2, r0 - h3.
Platform tree_platform() {
  Platform p;
  p.routing = ZoneRouting::dijkstra;
  const auto h0 = p.add_host("h0", 1e9), r0 = p.add_router("r0"), r1 = p.add_router("r1");
  const auto h1 = p.add_host("h1", 2e9), h2 = p.add_host("h2", 3e9), h3 = p.add_host("h3", 4e9);
  p.add_edge(h0, r0, p.add_link("l-h0", 100, 1e-4));
  p.add_edge(r0, r1, p.add_link("l-core", 1000, 1e-3));
  p.add_edge(r1, h1, p.add_link("l-h1", 100, 1e-4));
  p.add_edge(r1, h2, p.add_link("l-h2", 50, 2e-4));
  p.add_edge(r0, h3, p.add_link("l-h3", 10, 3e-4));
  return p;
}

// A ring of four hosts with a chord: several paths between most pairs.
Platform cyclic_platform() {
  Platform p;
  p.routing = ZoneRouting::floyd;
  std::vector<std::size_t> h;
  for (int i = 0; i < 4; ++i) h.push_back(p.add_host("n" + std::to_string(i), 1e9));
  for (std::size_t i = 0; i < 4; ++i) p.add_edge(h[i], h[(i + 1) % 4], p.add_link("ring" + std::to_string(i), 10, 0));
  p.add_edge(h[0], h[2], p.add_link("chord", 5, 0));
  return p;
}

// Three hosts with explicit symmetrical routes between them.
Platform full_platform() {
  Platform p;
  p.routing = ZoneRouting::full;
  const auto a = p.add_host("a", 1e9), b = p.add_host("b", 1e9), c = p.add_host("c", 1e9);
  const auto la = p.add_link("la", 100, 0), lb = p.add_link("lb", 100, 0), lc = p.add_link("lc", 100, 0);
  const auto lab = p.add_link("lab", 10, 0);
  p.routes.push_back({a, b, {la, lab, lb}, true});
  p.routes.push_back({a, c, {la, lc}, true});
  p.routes.push_back({b, c, {lb, lc}, false});
  p.routes.push_back({c, b, {lc, lb}, false});
  return p;
}

StorageClusterSpec spec3() {
  StorageClusterSpec s;
  s.nodes = 3;
  s.node_bandwidth = 125;
  s.node_latency = 2e-3;
  s.backbone_bandwidth = 700;
  s.backbone_latency = 5e-3;
  return s;
}

std::vector<std::size_t> no_gateway_route(std::size_t) { return {}; }

bool throws_input_error(Platform p, const StorageClusterSpec& s, std::size_t gateway,
                        const std::vector<std::size_t>& receivers = {}) {
  try {
    attach_storage_cluster(p, s, gateway, receivers, no_gateway_route);
  } catch (const InputError&) {
    return true;
  }
  return false;
}

// The added nodes and links, by name, with the spec's values.
void check_added_parts(const Platform& before, const Platform& p, const StorageClusterSpec& s,
                       const std::vector<std::size_t>& hosts) {
  REQUIRE(hosts.size() == s.nodes);
  for (std::size_t i = 0; i < s.nodes; ++i) {
    const std::string name = "storage-" + std::to_string(i);
    const auto node = p.find_node(name);
    REQUIRE(node);
    CHECK(*node == hosts[i]);
    CHECK(p.nodes[*node].is_host);
    CHECK(p.nodes[*node].speed == 1e9);
    const auto link = p.find_link(name + "-link");
    REQUIRE(link);
    CHECK(p.links[*link].bandwidth == s.node_bandwidth);
    CHECK(p.links[*link].latency == s.node_latency);
  }
  CHECK_FALSE(p.find_node("storage-" + std::to_string(s.nodes)));
  const auto backbone = p.find_link("storage-backbone");
  REQUIRE(backbone);
  CHECK(p.links[*backbone].bandwidth == s.backbone_bandwidth);
  CHECK(p.links[*backbone].latency == s.backbone_latency);
  CHECK(p.host_count() == before.host_count() + s.nodes);
  CHECK(p.links.size() == before.links.size() + s.nodes + 1);
  // What was there is untouched and keeps its indices.
  for (std::size_t v = 0; v < before.nodes.size(); ++v) CHECK(p.nodes[v] == before.nodes[v]);
  for (std::size_t l = 0; l < before.links.size(); ++l) CHECK(p.links[l] == before.links[l]);
}

// Graph platforms: storage-i -- switch over storage-i-link, switch -- gateway over the backbone,
// and the route from every storage node to every original host starts with its link then the
// backbone and continues along the gateway's own route.
void check_graph_attach(const Platform& before, std::size_t gateway, bool unique_paths) {
  Platform p = before;
  const auto s = spec3();
  const auto hosts = attach_storage_cluster(p, s, gateway, before.host_indices(), no_gateway_route);
  check_added_parts(before, p, s, hosts);
  const auto sw = p.find_node("storage-switch");
  REQUIRE(sw);
  CHECK_FALSE(p.nodes[*sw].is_host);
  CHECK(p.router_count() == before.router_count() + 1);
  const auto backbone = *p.find_link("storage-backbone");
  REQUIRE(p.edges.size() == before.edges.size() + s.nodes + 1);
  for (std::size_t e = 0; e < before.edges.size(); ++e) CHECK(p.edges[e] == before.edges[e]);
  auto has_edge = [&](std::size_t a, std::size_t b, std::size_t link) {
    for (const auto& e : p.edges)
      if (((e.a == a && e.b == b) || (e.a == b && e.b == a)) && e.link == link) return true;
    return false;
  };
  CHECK(has_edge(*sw, gateway, backbone));
  for (std::size_t i = 0; i < s.nodes; ++i) CHECK(has_edge(hosts[i], *sw, *p.find_link(storage_host_name(i) + "-link")));
  CHECK_NOTHROW(validate(p));
  CHECK(hosts_connected(p));

  const auto adj_before = adjacency(before);
  const auto adj = adjacency(p);
  for (std::size_t i = 0; i < s.nodes; ++i) {
    const auto node_link = *p.find_link(storage_host_name(i) + "-link");
    for (std::size_t h : before.host_indices()) {
      CAPTURE(i);
      CAPTURE(h);
      const auto route = route_between(p, adj, hosts[i], h);
      REQUIRE(route);
      REQUIRE(route->links.size() >= 2);
      CHECK(route->links[0] == node_link);
      CHECK(route->links[1] == backbone);
      const auto tail = h == gateway ? std::vector<std::size_t>{} : route_between(before, adj_before, gateway, h)->links;
      CHECK(route->links.size() == 2 + tail.size());
      if (unique_paths) CHECK(std::vector<std::size_t>(route->links.begin() + 2, route->links.end()) == tail);
    }
    // Storage nodes reach each other through the switch only.
    for (std::size_t j = 0; j < s.nodes; ++j) {
      if (j == i) continue;
      const auto route = route_between(p, adj, hosts[i], hosts[j]);
      REQUIRE(route);
      CHECK(route->links ==
            std::vector<std::size_t>{node_link, *p.find_link(storage_host_name(j) + "-link")});
    }
  }
  // Routes between the original hosts do not change (the storage subtree is a leaf).
  for (std::size_t a : before.host_indices())
    for (std::size_t b : before.host_indices())
      if (a != b) CHECK(route_between(p, adj, a, b)->links == route_between(before, adj_before, a, b)->links);
}

}  // namespace

TEST_CASE("storage cluster: graph-routed platforms get a leaf subtree behind the gateway") {
  const Platform tree = tree_platform();
  for (std::size_t gateway = 0; gateway < tree.nodes.size(); ++gateway) {
    CAPTURE(gateway);
    check_graph_attach(tree, gateway, true);
  }
  const Platform cyclic = cyclic_platform();
  for (std::size_t gateway = 0; gateway < cyclic.nodes.size(); ++gateway) {
    CAPTURE(gateway);
    check_graph_attach(cyclic, gateway, false);
  }
}

TEST_CASE("storage cluster: Full platforms get one explicit route per storage node and receiver") {
  const Platform before = full_platform();
  const auto adj_before = adjacency(before);
  for (std::size_t gateway = 0; gateway < 3; ++gateway)
    for (const std::vector<std::size_t>& receivers :
         {std::vector<std::size_t>{0, 1, 2}, std::vector<std::size_t>{1, 2}, std::vector<std::size_t>{2}}) {
      CAPTURE(gateway);
      CAPTURE(receivers.size());
      Platform p = before;
      const auto s = spec3();
      std::size_t calls = 0;
      const auto hosts = attach_storage_cluster(p, s, gateway, receivers, [&](std::size_t r) {
        ++calls;
        const auto route = route_between(before, adj_before, gateway, r);
        REQUIRE(route);
        return route->links;
      });
      check_added_parts(before, p, s, hosts);
      CHECK_FALSE(p.find_node("storage-switch"));  // no switch node in a Full zone
      CHECK(p.edges.empty());
      REQUIRE(p.routes.size() == before.routes.size() + s.nodes * receivers.size());
      for (std::size_t r = 0; r < before.routes.size(); ++r) CHECK(p.routes[r] == before.routes[r]);
      const auto backbone = *p.find_link("storage-backbone");
      const auto adj = adjacency(p);
      for (std::size_t i = 0; i < s.nodes; ++i) {
        const auto node_link = *p.find_link(storage_host_name(i) + "-link");
        for (std::size_t r = 0; r < 3; ++r) {
          CAPTURE(i);
          CAPTURE(r);
          std::size_t explicit_routes = 0;
          for (const auto& route : p.routes)
            if (route.src == hosts[i] && route.dst == r) ++explicit_routes;
          const bool is_receiver = std::find(receivers.begin(), receivers.end(), r) != receivers.end();
          CHECK(explicit_routes == (is_receiver ? 1u : 0u));
          if (!is_receiver) continue;
          std::vector<std::size_t> expected{node_link, backbone};
          if (r != gateway) {
            const auto tail = route_between(before, adj_before, gateway, r)->links;
            expected.insert(expected.end(), tail.begin(), tail.end());
          }
          const auto route = route_between(p, adj, hosts[i], r);
          REQUIRE(route);
          CHECK(route->links == expected);
        }
      }
      CHECK(calls <= receivers.size());
    }
}

TEST_CASE("storage cluster: name clashes and bad values are InputError") {
  const auto s = spec3();
  const std::vector<std::size_t> receivers{0, 1, 2};
  // Clean platforms accept the spec (the refusals below are about the clash or the value).
  CHECK_FALSE(throws_input_error(tree_platform(), s, 1));
  CHECK_FALSE(throws_input_error(full_platform(), s, 0, receivers));

  for (const bool full : {false, true}) {
    CAPTURE(full);
    const Platform base = full ? full_platform() : tree_platform();
    const std::size_t gateway = full ? 0 : 1;
    const auto recv = full ? receivers : std::vector<std::size_t>{};
    {
      Platform p = base;
      p.add_host("storage-0", 1e9);
      CHECK(throws_input_error(p, s, gateway, recv));
    }
    {
      Platform p = base;
      p.add_host("storage-2", 1e9);
      CHECK(throws_input_error(p, s, gateway, recv));
    }
    if (!full) {  // hosts and routers share one name space
      Platform p = base;
      p.add_router("storage-1");
      CHECK(throws_input_error(p, s, gateway, recv));
      Platform q = base;
      q.add_router("storage-switch");
      CHECK(throws_input_error(q, s, gateway, recv));
    }
    {
      Platform p = base;
      p.add_link("storage-backbone", 10, 0);
      CHECK(throws_input_error(p, s, gateway, recv));
    }
    {
      Platform p = base;
      p.add_link("storage-1-link", 10, 0);
      CHECK(throws_input_error(p, s, gateway, recv));
    }
    // A name that is only a prefix of ours is no clash.
    {
      Platform p = base;
      p.add_host("storage-00", 1e9);
      p.add_link("storage-backbone-2", 10, 0);
      CHECK_FALSE(throws_input_error(p, s, gateway, recv));
    }
    for (double bad : {0.0, -1.0, -1e9, std::numeric_limits<double>::quiet_NaN()}) {
      CAPTURE(bad);
      StorageClusterSpec t = s;
      t.node_bandwidth = bad;
      CHECK(throws_input_error(base, t, gateway, recv));
      t = s;
      t.backbone_bandwidth = bad;
      CHECK(throws_input_error(base, t, gateway, recv));
    }
    for (double bad : {-1e-9, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
      CAPTURE(bad);
      StorageClusterSpec t = s;
      t.node_latency = bad;
      CHECK(throws_input_error(base, t, gateway, recv));
      t = s;
      t.backbone_latency = bad;
      CHECK(throws_input_error(base, t, gateway, recv));
    }
    {  // Zero latencies are fine; no node at all is not.
      StorageClusterSpec t = s;
      t.node_latency = 0;
      t.backbone_latency = 0;
      CHECK_FALSE(throws_input_error(base, t, gateway, recv));
      t.nodes = 0;
      CHECK(throws_input_error(base, t, gateway, recv));
    }
  }
}
