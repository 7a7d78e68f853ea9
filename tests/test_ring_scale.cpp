// The greedy's prunings on hierarchical platforms: classes of twins, the memo of what
// an insertion leaves unchanged, the cache of the allocations and branch and bound must give the
// ring, T_step and T_step per size that evaluating every candidate gives, on generated clusters
// of clusters, fat trees, dragonflies (Full zones: the platform's routes, as SimGrid computes
// them for such zones) and Tiers graphs (free routing), drawn by oracles/scale_platforms.hpp; the
// bridge and block-cut trees and the widest searches against brute force.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "oracles/reached_avoiding.hpp"
#include "oracles/ring_platforms.hpp"
#include "oracles/scale_platforms.hpp"
#include "planners/ring/block_tree.hpp"
#include "planners/ring/bridge_tree.hpp"
#include "planners/ring/ring_network.hpp"
#include "planners/ring/ring_planner.hpp"
#include "trial_count.hpp"

using namespace ringsim;
using namespace ringsim::ring;

namespace {

using oracles::reached_avoiding;
using testing::bridged_blocks;
using testing::clusters_of_clusters;
using testing::dmodk_fat_tree;
using testing::dragonfly;
using testing::fat_tree;
using testing::pick_one;
using testing::small_tiers;
using testing::tied_capacities;
using testing::tiers_or_blocks;

// Pruned and unpruned greedy: the same ring, T_step, T_step at every size (bit for bit). Returns
// whether the pruned run evaluated fewer candidates exactly. `first`: how many candidates the
// pruned run evaluates first (RingOptions::first_candidates; small ones make small platforms
// go through every stage of the branch and bound).
bool same_answers(const Platform& p, const Workload& load, Refinement refinement, GreedyCriterion criterion,
                  std::size_t first = 0) {
  const RingNetwork net(p);
  RingOptions pruned, full;
  pruned.criterion = full.criterion = criterion;
  pruned.first_candidates = first;
  pruned.audit_floors = true;
  full.prune = false;
  const auto a = plan_greedy(net, load, refinement, pruned);
  const auto b = plan_greedy(net, load, refinement, full);
  REQUIRE(a.ring == b.ring);
  REQUIRE(a.tstep == b.tstep);
  REQUIRE(a.tstep_by_size.size() == b.tstep_by_size.size());
  for (std::size_t q = 0; q < a.tstep_by_size.size(); ++q) {
    CAPTURE(q);
    REQUIRE((a.tstep_by_size[q] == b.tstep_by_size[q] ||
             (std::isnan(a.tstep_by_size[q]) && std::isnan(b.tstep_by_size[q]))));
  }
  return a.evaluations < b.evaluations;
}

// Graph zones: same_answers for both criteria, with the default number of candidates evaluated
// first and with few (every stage of the branch and bound on small platforms), and with max-min
// refinement when `refined`.
void same_answers_at_every_stage(const Platform& p, const Workload& load, bool refined) {
  for (auto criterion : {GreedyCriterion::eq4, GreedyCriterion::exact})
    for (std::size_t first : {std::size_t{0}, std::size_t{4}, std::size_t{32}}) same_answers(p, load, Refinement::none, criterion, first);
  if (refined) same_answers(p, load, Refinement::maxmin, GreedyCriterion::eq4, 8);
}

double ratio_of(int trial) { return std::pow(10.0, -6.0 + (trial % 9) * 0.6); }

}  // namespace

TEST_CASE("greedy prunings on clusters of clusters: the answers of evaluating every candidate") {
  std::mt19937_64 rng(24001);
  int saved = 0;
  for (int trial = 0; trial < 60; ++trial) {
    CAPTURE(trial);
    const Platform p = clusters_of_clusters(rng, trial % 3 == 2);
    const Workload load{1e9, ratio_of(trial) * 1e9};
    for (auto criterion : {GreedyCriterion::eq4, GreedyCriterion::exact})
      saved += same_answers(p, load, Refinement::none, criterion) ? 1 : 0;
    if (trial % 6 == 0) same_answers(p, load, Refinement::maxmin, GreedyCriterion::eq4);
  }
  CHECK(saved >= 60);  // the prunings did prune: the comparison is not empty
}

TEST_CASE("greedy prunings on fat trees: the answers of evaluating every candidate") {
  std::mt19937_64 rng(24002);
  for (int trial = 0; trial < 40; ++trial) {
    CAPTURE(trial);
    const Platform p = fat_tree(rng);
    const Workload load{1e9, ratio_of(trial) * 1e9};
    for (auto criterion : {GreedyCriterion::eq4, GreedyCriterion::exact}) same_answers(p, load, Refinement::none, criterion);
  }
}

TEST_CASE("greedy on a fat tree whose insertions all tie: the same answers, reading few of the kept candidates") {
  // The memo's rows (one per ring edge) are passed over when their bound, computed with T_step's
  // own operations, cannot beat the best found: with every insertion tied that is all rows but a
  // few, where visiting every kept candidate reads (p - r) r of them at every step.
  for (const auto& shape : {std::array<std::size_t, 3>{4, 16, 4}, {8, 8, 2}, {6, 12, 3}}) {
    const std::size_t leaves = shape[0], per_leaf = shape[1], spines = shape[2];
    const Platform p = dmodk_fat_tree(leaves, per_leaf, spines);
    const RingNetwork net(p);
    for (const double ratio : {1e-4, 1e-2}) {
      CAPTURE(leaves);
      CAPTURE(ratio);
      const Workload load{1e9, ratio * 1e9};
      same_answers(p, load, Refinement::none, GreedyCriterion::eq4);
      RingOptions pruned;
      const auto a = plan_greedy(net, load, Refinement::none, pruned);
      const std::size_t n = leaves * per_leaf;
      std::size_t every = 0;  // the candidates of all steps after the pair
      for (std::size_t r = 2; r < n; ++r) every += (n - r) * r;
      CAPTURE(a.candidates);
      CAPTURE(every);
      CHECK(a.candidates * 4 < every);
    }
  }
}

TEST_CASE("greedy prunings on dragonflies: the answers of evaluating every candidate") {
  std::mt19937_64 rng(24003);
  for (int trial = 0; trial < 40; ++trial) {
    CAPTURE(trial);
    const Platform p = dragonfly(rng);
    const Workload load{1e9, ratio_of(trial) * 1e9};
    for (auto criterion : {GreedyCriterion::eq4, GreedyCriterion::exact}) same_answers(p, load, Refinement::none, criterion);
  }
}

TEST_CASE("greedy prunings on Tiers graphs: the answers of evaluating every candidate") {
  for (int trial = 0; trial < testing::trials(40, 2); ++trial) {
    CAPTURE(trial);
    const Platform p = small_tiers(12 + 6 * static_cast<std::size_t>(trial % 8), 500 + static_cast<std::uint64_t>(trial));
    const Workload load{1e9, ratio_of(trial) * 1e9};
    same_answers_at_every_stage(p, load, trial % 3 == 0);
  }
}

// The bridge tree against brute force: an edge is a bridge exactly when removing it disconnects
// its ends; a bridge joins a component to its parent, through its link; other edges stay inside
// one component; each connected part is rooted at a largest component.
TEST_CASE("the bridge tree: bridges, components and roots as brute force finds them") {
  std::mt19937_64 rng(24007);
  std::size_t bridges = 0, inner = 0;
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    const Platform p = tiers_or_blocks(trial, 900, rng);
    const BridgeTree tree(p);
    const std::size_t n = p.nodes.size();
    auto connected_without = [&](std::size_t skip, std::size_t from, std::size_t to) {
      return reached_avoiding(p, from, skip, n)[to] != 0;
    };
    for (std::size_t e = 0; e < p.edges.size(); ++e) {
      CAPTURE(e);
      const auto ca = tree.component(p.edges[e].a), cb = tree.component(p.edges[e].b);
      if (connected_without(e, p.edges[e].a, p.edges[e].b)) {
        REQUIRE(ca == cb);
        ++inner;
      } else {
        REQUIRE(ca != cb);
        const auto child = tree.parent(ca) == cb ? ca : cb;
        REQUIRE(tree.parent(child) == (child == ca ? cb : ca));
        REQUIRE(tree.link(child) == p.edges[e].link);
        ++bridges;
      }
    }
    // Same component: connected after removing any single edge (no bridge inside).
    std::vector<std::size_t> size(tree.size(), 0);
    for (std::size_t v = 0; v < n; ++v) ++size[tree.component(v)];
    for (std::uint32_t c = 0; c < tree.size(); ++c) {
      auto root = c;
      while (tree.parent(root) != BridgeTree::kNone) root = tree.parent(root);
      REQUIRE(size[root] >= size[c]);  // one connected part here: the root is a largest component
      if (tree.parent(c) != BridgeTree::kNone) REQUIRE(tree.top(c) == (tree.parent(c) == root ? c : tree.top(tree.parent(c))));
    }
  }
  CHECK(bridges > 1000);
  CHECK(inner > 1000);
}

// The block-cut tree against brute force: a node is in several blocks exactly when removing it
// disconnects its connected part (an articulation point); every edge lies in exactly one block,
// with both ends; a block's nodes other than the point it hangs from are cut from the root
// block's other nodes when that point is removed; a node's home block holds it; each connected
// part is rooted at a largest block.
TEST_CASE("the block-cut tree: blocks, articulation points and homes as brute force finds them") {
  std::mt19937_64 rng(24010);
  std::size_t joints = 0, hanging = 0;
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    const Platform p = tiers_or_blocks(trial, 1500, rng);
    const BlockTree tree(p);
    const std::size_t n = p.nodes.size();
    auto reach = [&](std::size_t from, std::size_t cut) { return reached_avoiding(p, from, p.edges.size(), cut); };
    std::vector<std::size_t> in_blocks(n, 0);
    for (std::uint32_t b = 0; b < tree.size(); ++b)
      for (auto v : tree.nodes(b)) ++in_blocks[v];
    for (std::size_t v = 0; v < n; ++v) {
      CAPTURE(v);
      // v cuts its part when two of its neighbours no longer reach each other.
      std::vector<std::size_t> nb;
      for (const auto& e : p.edges)
        if (e.a == v || e.b == v) nb.push_back(e.a == v ? e.b : e.a);
      bool cuts = false;
      if (!nb.empty()) {
        const auto seen = reach(nb[0], v);
        for (auto u : nb) cuts = cuts || !seen[u];
      }
      REQUIRE(cuts == (in_blocks[v] > 1));
      joints += cuts ? 1 : 0;
      const auto& home = tree.nodes(tree.home(v));
      REQUIRE(std::find(home.begin(), home.end(), v) != home.end());
    }
    for (const auto& e : p.edges) {  // exactly one block holds both ends
      std::size_t holders = 0;
      for (std::uint32_t b = 0; b < tree.size(); ++b) {
        const auto& x = tree.nodes(b);
        holders += std::find(x.begin(), x.end(), e.a) != x.end() && std::find(x.begin(), x.end(), e.b) != x.end() ? 1 : 0;
      }
      REQUIRE(holders == 1);
    }
    for (std::uint32_t b = 0; b < tree.size(); ++b) {
      CAPTURE(b);
      auto root = b;
      while (tree.parent(root) != BlockTree::kNone) root = tree.parent(root);
      REQUIRE(tree.nodes(root).size() >= tree.nodes(b).size());  // one connected part here
      if (tree.parent(b) == BlockTree::kNone) continue;
      const std::uint32_t a = tree.joint(b);
      const auto& pb = tree.nodes(tree.parent(b));
      REQUIRE(std::find(pb.begin(), pb.end(), a) != pb.end());
      REQUIRE(tree.home(a) == tree.parent(b));
      std::size_t other = n;  // a node of the root block other than a
      for (auto v : tree.nodes(root))
        if (v != a) other = v;
      if (other == n) continue;
      const auto seen = reach(other, a);
      for (auto v : tree.nodes(b))
        if (v != a) {
          REQUIRE(!seen[v]);
          ++hanging;
        }
    }
  }
  CHECK(joints > 1000);
  CHECK(hanging > 1000);
}

// The widest search against a plain label-setting loop of the same rule (settle the labelled
// node of best label -- bottleneck, then fewest links, then lowest latency, then lowest index --
// and relax its arcs in order, taking a label only when it comes first): every node's
// bottleneck and links, from every source of Tiers graphs and blocks joined by bridges, with
// capacities from few values (ties) and zeros.
TEST_CASE("widest searches settle as a plain label-setting loop of the same rule") {
  std::mt19937_64 rng(24009);
  std::size_t compared = 0;
  for (int trial = 0; trial < 100; ++trial) {
    CAPTURE(trial);
    const Platform p = tiers_or_blocks(trial, 1300, rng);
    const RingNetwork net(p);
    const std::vector<double> cap = tied_capacities(net, rng, 8, {1.0, 2.0, 3.0});
    const std::size_t n = net.node_count();
    WidestSearch search(net);
    for (std::size_t s = 0; s < n; ++s) {
      struct L {
        double bw = 0, lat = 0;
        std::size_t hops = 0, via = 0, link = 0;
        bool labelled = false, settled = false;
      };
      std::vector<L> l(n);
      l[s].bw = kInfinity;
      l[s].labelled = true;
      auto ahead = [&](double bw, std::size_t hops, double lat, std::size_t x, const L& o, std::size_t y) {
        if (bw != o.bw) return bw > o.bw;
        if (hops != o.hops) return hops < o.hops;
        if (lat != o.lat) return lat < o.lat;
        return x < y;
      };
      for (;;) {
        std::size_t v = n;
        for (std::size_t x = 0; x < n; ++x)
          if (l[x].labelled && !l[x].settled && (v == n || ahead(l[x].bw, l[x].hops, l[x].lat, x, l[v], v))) v = x;
        if (v == n) break;
        l[v].settled = true;
        for (const auto* a = net.arcs_begin(v); a != net.arcs_end(v); ++a) {
          const std::size_t u = a->node;
          if (!(cap[a->link] > 0) || l[u].settled) continue;
          const double bw = std::min(l[v].bw, cap[a->link]), lat = l[v].lat + p.links[a->link].latency;
          if (l[u].labelled && !ahead(bw, l[v].hops + 1, lat, u, l[u], u)) continue;
          l[u] = {bw, lat, l[v].hops + 1, v, a->link, true, false};
        }
      }
      search.run(s, cap, {});
      for (std::size_t v = 0; v < n; ++v) {
        CAPTURE(s);
        CAPTURE(v);
        REQUIRE(search.reached(v) == l[v].settled);
        if (!l[v].settled) continue;
        REQUIRE(search.bottleneck(v) == l[v].bw);
        std::vector<std::size_t> links;
        for (std::size_t x = v; x != s; x = l[x].via) links.push_back(l[x].link);
        std::reverse(links.begin(), links.end());
        REQUIRE(search.links_to(v) == links);
        ++compared;
      }
    }
  }
  CHECK(compared > 50000);
}

// BottleneckTree (the greedy's second bound): from a source, to every node, the widest path's
// bottleneck as a brute-force max-min closure finds it, the same from `from_source` and `query`;
// capacities from few values and zeros (unusable), FATPIPE links at the value given.
TEST_CASE("bottleneck trees: widest bottlenecks from a source and between pairs as brute force finds them") {
  std::mt19937_64 rng(24008);
  std::size_t compared = 0;
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    const Platform p = tiers_or_blocks(trial, 1100, rng);
    const RingNetwork net(p);
    const std::vector<double> cap = tied_capacities(net, rng, 8, {1.0, 2.0, 3.0, 5.0});
    const double fat = 4.0;
    const std::size_t n = p.nodes.size();
    std::vector<double> best(n * n, 0.0);  // max-min closure
    for (std::size_t v = 0; v < n; ++v) best[v * n + v] = kInfinity;
    for (const auto& e : p.edges) {
      const double c = net.fatpipe(e.link) ? fat : cap[e.link];
      if (!(c > 0)) continue;
      best[e.a * n + e.b] = std::max(best[e.a * n + e.b], c);
      best[e.b * n + e.a] = std::max(best[e.b * n + e.a], c);
    }
    for (std::size_t m = 0; m < n; ++m)
      for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = 0; b < n; ++b) best[a * n + b] = std::max(best[a * n + b], std::min(best[a * n + m], best[m * n + b]));
    BottleneckTree tree(net);
    // Built once on other capacities first: build() then reorders only the edges that changed
    // (all of them now and then, a few usually).
    std::vector<double> other = cap;
    for (auto& c : other)
      if (trial % 4 == 0 || rng() % 10 == 0) c = pick_one(rng, {0.0, 1.0, 2.0, 3.0, 5.0});
    tree.build(other, fat);
    tree.build(cap, fat);
    std::vector<double> out;
    for (std::size_t s = 0; s < n; ++s) {
      tree.from_source(s, out);
      for (std::size_t v = 0; v < n; ++v) {
        CAPTURE(s);
        CAPTURE(v);
        REQUIRE(out[v] == best[s * n + v]);
        REQUIRE(tree.query(s, v) == best[s * n + v]);
        ++compared;
      }
    }
  }
  CHECK(compared > 100000);
}

// A widest search with targets does not enter the parts hanging at an articulation point that
// hold neither the source nor a target (RingNetwork::blocks): every target must get the label and
// the path of a search that enters everything. Capacities from three values (ties, which the
// search breaks by hops, latency and settling order) or zero; sources anywhere, routers included.
TEST_CASE("widest searches skip what hangs at articulation points: each target's bottleneck and path as a search of every node") {
  std::mt19937_64 rng(24005);
  std::size_t below = 0, blocks = 0, checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    CAPTURE(trial);
    const Platform p = tiers_or_blocks(trial, 700, rng);
    const RingNetwork net(p);
    const BlockTree& tree = net.blocks();
    for (std::size_t v = 0; v < net.node_count(); ++v) {
      const auto b = tree.home(v);
      below += tree.parent(b) != BlockTree::kNone ? 1 : 0;
      blocks += tree.parent(b) != BlockTree::kNone && tree.nodes(b).size() > 2 ? 1 : 0;
    }
    const std::vector<double> cap = tied_capacities(net, rng, 10, {1.0, 2.0, 3.0});
    WidestSearch some(net), every(net);
    for (int q = 0; q < 10; ++q) {
      const std::size_t source = rng() % net.node_count();
      std::vector<std::size_t> targets;
      for (std::size_t n = 1 + rng() % 3; targets.size() < n;) targets.push_back(rng() % net.node_count());
      some.run(source, cap, targets);
      every.run(source, cap, {});
      for (auto t : targets) {
        CAPTURE(t);
        REQUIRE(some.reached(t) == every.reached(t));
        if (!every.reached(t)) continue;
        REQUIRE(some.bottleneck(t) == every.bottleneck(t));
        REQUIRE(some.links_to(t) == every.links_to(t));
        ++checked;
      }
    }
  }
  CHECK(below > 1000);  // the graphs have parts hanging at articulation points to skip
  CHECK(blocks > 100);  // and some of them hold cycles
  CHECK(checked > 3000);
}

TEST_CASE("greedy prunings on blocks joined by bridges: the answers of evaluating every candidate") {
  std::mt19937_64 rng(24006);
  for (int trial = 0; trial < testing::trials(300, 2); ++trial) {
    CAPTURE(trial);
    const Platform p = bridged_blocks(rng);
    const Workload load{1e9, ratio_of(trial) * 1e9};
    same_answers_at_every_stage(p, load, trial % 5 == 0);
  }
}

// The platform routing mode hands the planners every host pair's route in one flat table
// (HostRouteTable) instead of explicit routes: the same network, the same answers.
TEST_CASE("a route table gives the answers of the same routes given one by one") {
  std::mt19937_64 rng(24004);
  for (int trial = 0; trial < 30; ++trial) {
    CAPTURE(trial);
    const Platform p = trial % 3 == 0 ? clusters_of_clusters(rng, trial % 2 == 1) : trial % 3 == 1 ? fat_tree(rng) : dragonfly(rng);
    const auto hosts = p.host_indices();
    Platform t = p;
    t.routes.clear();
    const std::size_t n = hosts.size();
    t.host_routes.start.assign(n * n + 1, 0);
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = 0; b < n; ++b) {
        if (a != b) {
          const auto path = route_between(p, adjacency(p), hosts[a], hosts[b]);
          REQUIRE(path);
          for (auto l : path->links) t.host_routes.links.push_back(static_cast<std::uint32_t>(l));
        }
        t.host_routes.start[a * n + b + 1] = t.host_routes.links.size();
      }
    validate(t);
    const RingNetwork x(p), y(t);
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = 0; b < n; ++b)
        if (a != b) {
          REQUIRE(x.route(a, b).to_vector() == y.route(a, b).to_vector());
          REQUIRE(x.pool_capacity(a) == y.pool_capacity(a));
          REQUIRE(x.pair_shared_bandwidth(a, b) == y.pair_shared_bandwidth(a, b));
        }
    const Workload load{1e9, ratio_of(trial) * 1e9};
    const auto u = plan_greedy(x, load, Refinement::none, RingOptions{});
    const auto v = plan_greedy(y, load, Refinement::none, RingOptions{});
    REQUIRE(u.ring == v.ring);
    REQUIRE(u.tstep == v.tstep);
    // Expanded back into explicit routes, the table is the routes again.
    expand_host_routes(t);
    validate(t);
    const RingNetwork z(t);
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = 0; b < n; ++b)
        if (a != b) REQUIRE(x.route(a, b).to_vector() == z.route(a, b).to_vector());
  }
}
