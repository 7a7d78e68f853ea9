// The platform graph: paths, connectivity, validation, pruning.
#include <doctest/doctest.h>

#include <string>

#include "model/errors.hpp"
#include "model/platform_graph.hpp"

using namespace ringsim;

namespace {

// h0 - r1 - h2 over narrow links (10 B/s), and h0 - r3 - r4 - h2 over wide ones (100 B/s).
Platform two_path_platform() {
  Platform p;
  const auto h0 = p.add_host("h0", 1e9), r1 = p.add_router("r1"), h2 = p.add_host("h2", 2e9);
  const auto r3 = p.add_router("r3"), r4 = p.add_router("r4");
  p.add_edge(h0, r1, p.add_link("narrow0", 10, 1e-3));
  p.add_edge(r1, h2, p.add_link("narrow1", 10, 1e-3));
  p.add_edge(h0, r3, p.add_link("wide0", 100, 1e-3));
  p.add_edge(r3, r4, p.add_link("wide1", 100, 1e-3));
  p.add_edge(r4, h2, p.add_link("wide2", 100, 1e-3));
  return p;
}

std::string validation_error(const Platform& p) {
  try {
    validate(p);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("platform: min-hop and widest paths") {
  const auto p = two_path_platform();
  const auto adj = adjacency(p);
  const auto hop = min_hop_path(p, adj, 0, 2);
  REQUIRE(hop);
  CHECK(hop->links == std::vector<std::size_t>{0, 1});
  CHECK(hop->nodes == std::vector<std::size_t>{0, 1, 2});
  CHECK(hop->bandwidth == 10);
  CHECK(hop->latency == doctest::Approx(2e-3));
  const auto wide = widest_path(p, adj, 0, 2);
  REQUIRE(wide);
  CHECK(wide->links == std::vector<std::size_t>{2, 3, 4});
  CHECK(wide->bandwidth == 100);
  // With most of the wide path taken, the narrow one becomes the widest.
  std::vector<double> capacity{10, 10, 100, 5, 100};
  const auto residual = widest_path(p, adj, 0, 2, &capacity);
  REQUIRE(residual);
  CHECK(residual->links == std::vector<std::size_t>{0, 1});
  CHECK(residual->bandwidth == 10);
  // Links without capacity are not used at all.
  capacity = {0, 10, 0, 100, 100};
  CHECK_FALSE(widest_path(p, adj, 0, 2, &capacity));
  CHECK(route_between(p, adj, 2, 0)->links.size() == 2);
}

TEST_CASE("platform: validation names the problem") {
  auto p = two_path_platform();
  CHECK(validation_error(p).empty());
  CHECK(hosts_connected(p));

  auto zero = p;
  zero.links[1].bandwidth = 0;
  CHECK(validation_error(zero) == "link 'narrow1' has zero bandwidth");

  auto dup = p;
  dup.nodes[1].name = "h0";
  CHECK(validation_error(dup) == "duplicate host or router name 'h0'");

  auto slow = p;
  slow.nodes[0].speed = 0;
  CHECK(validation_error(slow).find("host 'h0' has speed") == 0);

  auto cut = p;
  cut.edges.erase(cut.edges.begin() + 1);  // r1 - h2
  cut.edges.erase(cut.edges.begin() + 3);  // r4 - h2
  CHECK_FALSE(hosts_connected(cut));
  CHECK(validation_error(cut) == "hosts 'h0' and 'h2' are not connected");

  auto loop = p;
  loop.add_edge(1, 1, 0);
  CHECK(validation_error(loop) == "route from 'r1' to itself");

  Platform empty;
  empty.add_router("r");
  CHECK(validation_error(empty) == "the platform has no host");
}

TEST_CASE("platform: explicit routes in a Full zone") {
  Platform p;
  p.routing = ZoneRouting::full;
  const auto a = p.add_host("a", 1), b = p.add_host("b", 1), c = p.add_host("c", 1);
  const auto l0 = p.add_link("l0", 5, 0.1), l1 = p.add_link("l1", 7, 0.2);
  p.routes.push_back({a, b, {l0, l1}, true});
  p.routes.push_back({a, c, {l0}, false});
  p.routes.push_back({c, a, {l0}, false});
  CHECK(validation_error(p) == "hosts 'b' and 'c' are not connected");
  p.routes.push_back({b, c, {l1}, true});
  CHECK(validation_error(p).empty());
  const auto adj = adjacency(p);
  const auto back = route_between(p, adj, b, a);  // the reverse of a symmetrical route
  REQUIRE(back);
  CHECK(back->links == std::vector<std::size_t>{l1, l0});
  CHECK(back->bandwidth == 5);
  CHECK(back->latency == doctest::Approx(0.3));
  p.routes.push_back({b, a, {l0}, false});
  CHECK(validation_error(p).find("duplicate route 'b' -> 'a'") == 0);
}

TEST_CASE("platform: pruning removes dead-end routers and keeps cycles") {
  auto p = two_path_platform();
  const auto r5 = p.add_router("r5"), r6 = p.add_router("r6");
  p.add_edge(1, r5, p.add_link("spur0", 1, 0));
  p.add_edge(r5, r6, p.add_link("spur1", 1, 0));
  CHECK(prune_dead_end_routers(p) == 2);
  CHECK(p.nodes.size() == 5);
  CHECK(p.links.size() == 5);
  CHECK(p.edges.size() == 5);
  CHECK_FALSE(p.find_node("r5"));
  CHECK(validation_error(p).empty());
  CHECK(prune_dead_end_routers(p) == 0);
}
