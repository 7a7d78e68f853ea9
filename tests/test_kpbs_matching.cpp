// Hopcroft-Karp with thresholds and warm starts, and the bottleneck perfect matching of OGGP,
// against exhaustive search over permutations on small random bipartite multigraphs.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/max_cardinality_matching.hpp>

#include "planners/kpbs/bipartite_matching.hpp"
#include "trial_count.hpp"

using namespace ringsim::kpbs;

namespace {

// Heaviest live edge between each pair (0: none).
std::vector<std::vector<Weight>> heaviest(const BipartiteMatcher& m, std::size_t n, std::size_t edges) {
  std::vector<std::vector<Weight>> w(n, std::vector<Weight>(n, 0));
  for (std::size_t e = 0; e < edges; ++e) {
    const auto& ed = m.edge(e);
    w[ed.left][ed.right] = std::max(w[ed.left][ed.right], ed.weight);
  }
  return w;
}

// Every matching extends to a permutation: the largest matching over edges >= t is the best
// permutation's count of pairs joined by such an edge.
std::size_t brute_max_matching(const std::vector<std::vector<Weight>>& w, Weight t) {
  std::vector<std::size_t> p(w.size());
  std::iota(p.begin(), p.end(), 0);
  std::size_t best = 0;
  do {
    std::size_t c = 0;
    for (std::size_t i = 0; i < w.size(); ++i) c += w[i][p[i]] >= t && w[i][p[i]] > 0;
    best = std::max(best, c);
  } while (std::next_permutation(p.begin(), p.end()));
  return best;
}

Weight brute_bottleneck(const std::vector<std::vector<Weight>>& w) {
  std::vector<std::size_t> p(w.size());
  std::iota(p.begin(), p.end(), 0);
  Weight best = 0;
  do {
    Weight s = std::numeric_limits<Weight>::max();
    for (std::size_t i = 0; i < w.size(); ++i) s = std::min(s, w[i][p[i]]);
    best = std::max(best, s);
  } while (std::next_permutation(p.begin(), p.end()));
  return best;
}

// Maximum matching size over live edges of weight >= t by Boost's Edmonds algorithm: an oracle
// that shares nothing with the matcher.
std::size_t boost_max_matching(const BipartiteMatcher& m, std::size_t n, std::size_t edges, Weight t) {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  Graph g(2 * n);
  for (std::size_t e = 0; e < edges; ++e)
    if (m.edge(e).weight >= t && m.edge(e).weight > 0) boost::add_edge(m.edge(e).left, n + m.edge(e).right, g);
  std::vector<boost::graph_traits<Graph>::vertex_descriptor> mate(2 * n);
  boost::edmonds_maximum_cardinality_matching(g, &mate[0]);
  return boost::matching_size(g, &mate[0]);
}

void require_valid(const BipartiteMatcher& m, Weight threshold) {
  std::vector<bool> right_used(m.right_nodes(), false);
  std::size_t size = 0;
  for (std::size_t u = 0; u < m.left_nodes(); ++u) {
    const std::size_t e = m.mate_of_left()[u];
    if (e == BipartiteMatcher::none) continue;
    REQUIRE(m.edge(e).left == u);
    REQUIRE(m.edge(e).weight >= threshold);
    REQUIRE_FALSE(right_used[m.edge(e).right]);
    right_used[m.edge(e).right] = true;
    ++size;
  }
  REQUIRE(size == m.size());
}

}  // namespace

TEST_CASE("maximum matchings with thresholds and warm starts agree with exhaustive search") {
  std::mt19937_64 rng(2004);
  for (int trial = 0; trial < 1500; ++trial) {
    const std::size_t n = 1 + rng() % 6;
    std::vector<WeightedEdge> edges;
    const int density = 1 + static_cast<int>(rng() % 4);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        for (int copies = static_cast<int>(rng() % 2) + 1; copies > 0; --copies)
          if (static_cast<int>(rng() % 4) < density) edges.push_back({i, j, static_cast<Weight>(1 + rng() % 6)});
    const std::size_t m = edges.size();
    BipartiteMatcher matcher(n, n, edges);
    for (int round = 0; round < 4 && matcher.live_edges() > 0; ++round) {
      const Weight t = 1 + static_cast<Weight>(rng() % 4);
      const auto w = heaviest(matcher, n, m);
      REQUIRE(matcher.maximize(t) == brute_max_matching(w, t));
      require_valid(matcher, t);
      REQUIRE(matcher.maximize(1) == brute_max_matching(w, 1));
      require_valid(matcher, 1);
      // Bottleneck: the best smallest weight over perfect matchings.
      const Weight expected = brute_bottleneck(w);
      const bool perfect = matcher.bottleneck_perfect();
      REQUIRE(perfect == (expected > 0));
      if (perfect) {
        require_valid(matcher, 1);
        REQUIRE(matcher.perfect());
        REQUIRE(matcher.smallest_matched_weight() == expected);
      }
      // Peel a little, as GGP does, then match again from what is left of the matching.
      for (std::size_t e = 0; e < m; ++e)
        if (matcher.edge(e).weight > 0 && rng() % 3 == 0) matcher.decrease(e, 1 + static_cast<Weight>(rng() % matcher.edge(e).weight));
    }
  }
}

TEST_CASE("larger graphs (Hopcroft-Karp phases): maximum and bottleneck matchings agree with Boost") {
  std::mt19937_64 rng(1999);
  for (int trial = 0; trial < ringsim::testing::trials(120); ++trial) {
    const std::size_t n = 17 + rng() % 40;
    const double density = trial % 3 == 0 ? 0.08 : trial % 3 == 1 ? 0.3 : 0.9;
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<WeightedEdge> edges;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        if (unit(rng) < density) edges.push_back({i, j, static_cast<Weight>(1 + rng() % 50)});
    const std::size_t m = edges.size();
    BipartiteMatcher matcher(n, n, edges);
    for (int round = 0; round < 5 && matcher.live_edges() > 0; ++round) {
      const Weight t = 1 + static_cast<Weight>(rng() % 30);
      REQUIRE(matcher.maximize(t) == boost_max_matching(matcher, n, m, t));
      require_valid(matcher, t);
      REQUIRE(matcher.maximize(1) == boost_max_matching(matcher, n, m, 1));
      // The bottleneck value is the largest live weight t that keeps a perfect matching.
      std::set<Weight> weights;
      for (std::size_t e = 0; e < m; ++e)
        if (matcher.edge(e).weight > 0) weights.insert(matcher.edge(e).weight);
      Weight expected = 0;
      for (Weight w : weights)
        if (boost_max_matching(matcher, n, m, w) == n) expected = w;
      const bool perfect = matcher.bottleneck_perfect();
      REQUIRE(perfect == (expected > 0));
      if (perfect) {
        require_valid(matcher, 1);
        REQUIRE(matcher.smallest_matched_weight() == expected);
      }
      // Unmatch a lot at once: many free nodes, so that the Hopcroft-Karp phases run.
      for (std::size_t e = 0; e < m; ++e)
        if (matcher.edge(e).weight > 0 && rng() % 4 == 0) matcher.decrease(e, matcher.edge(e).weight);
    }
  }
}
