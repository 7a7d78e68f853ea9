// k from routes (src/planners/kpbs/route_concurrency.hpp): the KPBS paper's formula on its
// two-cluster platform, and on small random networks: no matching of at most k pairs overloads a
// link (brute force over all matchings), k is what the documented per-link definition gives, and
// when k stops short of the node count either a matching of k + 1 pairs would overload a link or
// the (conservative) per-link bound is what stops it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <vector>

#include "planners/kpbs/route_concurrency.hpp"

using namespace ringsim;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

using Routes = std::vector<std::vector<kpbs::PairRoute>>;

// The KPBS paper's Figure 1: sender i on link i (b1), receiver j on link v1 + j (b2), backbone v1 + v2.
struct TwoClusters {
  Routes routes;
  std::vector<double> capacity;
};

TwoClusters two_clusters(std::size_t v1, std::size_t v2, double b1, double b2, double bb,
                         const std::vector<std::vector<bool>>& used) {
  TwoClusters t;
  t.capacity.assign(v1, b1);
  t.capacity.insert(t.capacity.end(), v2, b2);
  t.capacity.push_back(bb);
  const double rate = std::min({b1, b2, bb});
  t.routes.assign(v1, std::vector<kpbs::PairRoute>(v2));
  for (std::size_t i = 0; i < v1; ++i)
    for (std::size_t j = 0; j < v2; ++j) {
      auto& r = t.routes[i][j];
      r.used = used[i][j];
      r.links = {i, v1 + v2, v1 + j};
      r.rate = rate;
    }
  return t;
}

// Every sender and every receiver keeps at least one used pair (the KPBS paper's v1, v2 count nodes
// that take part).
std::vector<std::vector<bool>> random_usage(std::mt19937_64& rng, std::size_t v1, std::size_t v2, bool all) {
  std::vector<std::vector<bool>> used(v1, std::vector<bool>(v2, all));
  if (all) return used;
  std::bernoulli_distribution coin(0.4);
  for (auto& row : used)
    for (std::size_t j = 0; j < v2; ++j) row[j] = coin(rng);
  for (std::size_t i = 0; i < v1; ++i) used[i][std::uniform_int_distribution<std::size_t>(0, v2 - 1)(rng)] = true;
  for (std::size_t j = 0; j < v2; ++j) used[std::uniform_int_distribution<std::size_t>(0, v1 - 1)(rng)][j] = true;
  return used;
}

// All matchings of used pairs (no sender or receiver twice), each as a list of (i, j).
void for_each_matching(const Routes& routes, const std::function<void(const std::vector<std::pair<std::size_t, std::size_t>>&)>& f) {
  const std::size_t n = routes.size(), m = n ? routes[0].size() : 0;
  std::vector<std::pair<std::size_t, std::size_t>> current;
  std::vector<bool> taken(m, false);
  std::function<void(std::size_t)> go = [&](std::size_t i) {
    if (i == n) {
      f(current);
      return;
    }
    go(i + 1);  // sender i idle
    for (std::size_t j = 0; j < m; ++j)
      if (!taken[j] && routes[i][j].used) {
        taken[j] = true;
        current.emplace_back(i, j);
        go(i + 1);
        current.pop_back();
        taken[j] = false;
      }
  };
  go(0);
}

// The most loaded finite link of a matching, as load / capacity (0 when nothing finite is crossed).
double worst_load(const Routes& routes, const std::vector<double>& capacity,
                  const std::vector<std::pair<std::size_t, std::size_t>>& matching) {
  std::vector<double> load(capacity.size(), 0.0);
  for (const auto& [i, j] : matching)
    for (std::size_t l : routes[i][j].links) load[l] += routes[i][j].rate;
  double worst = 0.0;
  for (std::size_t l = 0; l < capacity.size(); ++l)
    if (std::isfinite(capacity[l])) worst = std::max(worst, load[l] / capacity[l]);
  return worst;
}

// The header's definition, computed link by link from scratch on integer capacities (so the
// floors are exact): min(used senders, used receivers), lowered on every finite link where
// min(#senders crossing, #receivers crossing) transfers at the fastest crossing rate would
// overload it, to max(1, floor(capacity / fastest)). Also reports whether such a link gives
// exactly `k`.
struct Documented {
  std::size_t k = 1;
  std::size_t nodes = 0;  // min(used senders, used receivers)
  std::vector<std::size_t> bound;  // per link; max() when the link does not limit
};

Documented documented(const Routes& routes, const std::vector<double>& capacity) {
  Documented d;
  std::set<std::size_t> s_all, r_all;
  for (std::size_t i = 0; i < routes.size(); ++i)
    for (std::size_t j = 0; j < routes[i].size(); ++j)
      if (routes[i][j].used) {
        s_all.insert(i);
        r_all.insert(j);
      }
  d.nodes = std::min(s_all.size(), r_all.size());
  d.k = std::max<std::size_t>(1, d.nodes);
  d.bound.assign(capacity.size(), std::numeric_limits<std::size_t>::max());
  for (std::size_t l = 0; l < capacity.size(); ++l) {
    if (!std::isfinite(capacity[l])) continue;
    std::set<std::size_t> s, r;
    double fastest = 0;
    for (std::size_t i = 0; i < routes.size(); ++i)
      for (std::size_t j = 0; j < routes[i].size(); ++j) {
        const auto& pr = routes[i][j];
        if (!pr.used || std::find(pr.links.begin(), pr.links.end(), l) == pr.links.end()) continue;
        s.insert(i);
        r.insert(j);
        fastest = std::max(fastest, pr.rate);
      }
    if (fastest <= 0) continue;
    const auto at_once = static_cast<long long>(std::min(s.size(), r.size()));
    const auto cap = static_cast<long long>(capacity[l]), rate = static_cast<long long>(fastest);
    REQUIRE(static_cast<double>(cap) == capacity[l]);
    REQUIRE(static_cast<double>(rate) == fastest);
    if (at_once * rate <= cap) continue;
    d.bound[l] = static_cast<std::size_t>(std::max(1LL, cap / rate));
    d.k = std::min(d.k, d.bound[l]);
  }
  return d;
}

}  // namespace

TEST_CASE("route concurrency: the KPBS paper's two-cluster platform gives min(v1, v2, floor(bb / min(b1, b2, bb)))") {
  std::mt19937_64 rng(1234567);
  std::uniform_int_distribution<std::size_t> nodes(1, 12);
  std::uniform_int_distribution<int> mode_of(0, 4);
  std::uniform_int_distribution<long long> integer_bw(1, 1000);
  std::uniform_real_distribution<double> real_bw(1e5, 1e9), factor(1.0, 3.0);
  std::uniform_int_distribution<long long> multiple(1, 16);
  std::size_t limited_by_backbone = 0, multiples = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    const std::size_t v1 = nodes(rng), v2 = nodes(rng);
    const auto used = random_usage(rng, v1, v2, trial % 2 == 0);
    double b1 = 0, b2 = 0, bb = 0;
    std::size_t expected = 0;
    const int mode = mode_of(rng);
    if (mode == 0) {  // integers: the floor is exact in integer arithmetic
      const long long i1 = integer_bw(rng), i2 = integer_bw(rng), ib = integer_bw(rng);
      b1 = static_cast<double>(i1);
      b2 = static_cast<double>(i2);
      bb = static_cast<double>(ib);
      expected = std::min({v1, v2, static_cast<std::size_t>(ib / std::min({i1, i2, ib}))});
    } else if (mode == 1 || mode == 2) {  // bb an exact multiple of the slowest node link (reals)
      const long long m = multiple(rng);
      const double slow = real_bw(rng), fast = slow * factor(rng);
      b1 = mode == 1 ? slow : fast;
      b2 = mode == 1 ? fast : slow;
      bb = static_cast<double>(m) * slow;
      expected = std::min({v1, v2, static_cast<std::size_t>(m)});
      ++multiples;
    } else if (mode == 3) {  // random reals (never within 1e-12 of an integer quotient in practice)
      b1 = real_bw(rng);
      b2 = real_bw(rng);
      bb = real_bw(rng) * factor(rng) * 2;
      const long double q = static_cast<long double>(bb) / std::min({b1, b2, bb});
      expected = std::min({v1, v2, static_cast<std::size_t>(std::floor(q))});
    } else {  // a fat-pipe backbone never limits
      b1 = real_bw(rng);
      b2 = real_bw(rng);
      bb = inf;
      expected = std::min(v1, v2);
    }
    const auto t = two_clusters(v1, v2, b1, b2, bb, used);
    const std::size_t k = kpbs::interference_free_concurrency(t.routes, t.capacity);
    CAPTURE(v1);
    CAPTURE(v2);
    CAPTURE(b1);
    CAPTURE(b2);
    CAPTURE(bb);
    CHECK(k == expected);
    if (expected < std::min(v1, v2)) ++limited_by_backbone;
  }
  CHECK(limited_by_backbone > 500);
  CHECK(multiples > 1000);
}

TEST_CASE("route concurrency: the KPBS paper's Figure 1 and exact multiples") {
  const std::vector<std::vector<bool>> all4(4, std::vector<bool>(4, true));
  // Figure 1: k = 4, every left node at full speed fits in the backbone.
  auto t = two_clusters(4, 4, 10, 10, 100, all4);
  CHECK(kpbs::interference_free_concurrency(t.routes, t.capacity) == 4);
  // bb = 4 b1 exactly, with b1 a real that does not divide evenly in binary.
  for (double b : {0.1, 1.0 / 3.0, 1.25e7, 7.3e6, 1e-3}) {
    for (long long m = 1; m <= 6; ++m) {
      const std::vector<std::vector<bool>> all8(8, std::vector<bool>(8, true));
      t = two_clusters(8, 8, b, 2 * b, static_cast<double>(m) * b, all8);
      CAPTURE(b);
      CAPTURE(m);
      CHECK(kpbs::interference_free_concurrency(t.routes, t.capacity) == static_cast<std::size_t>(m));
    }
  }
  // A backbone slower than the node links: one transfer at a time.
  t = two_clusters(4, 4, 10, 10, 5, all4);
  CHECK(kpbs::interference_free_concurrency(t.routes, t.capacity) == 1);
}

TEST_CASE("route concurrency: nothing used gives 1") {
  CHECK(kpbs::interference_free_concurrency({}, {}) == 1);
  const std::vector<std::vector<bool>> none(3, std::vector<bool>(2, false));
  const auto t = two_clusters(3, 2, 10, 10, 1, none);
  CHECK(kpbs::interference_free_concurrency(t.routes, t.capacity) == 1);
}

TEST_CASE("route concurrency: random networks, no matching of k pairs overloads a link, k is the documented bound") {
  std::mt19937_64 rng(987654321);
  std::uniform_int_distribution<std::size_t> side(2, 4);
  std::uniform_int_distribution<int> cap_of(1, 20);
  std::bernoulli_distribution fat(0.2), in_route(0.35), pair_used(0.7);
  constexpr std::size_t pool = 6;
  std::size_t checked_matchings = 0, below_nodes = 0, proven_by_overload = 0, only_by_bound = 0, limited = 0;
  const int trials = 5000;
  for (int trial = 0; trial < trials; ++trial) {
    std::vector<double> capacity(pool);
    for (auto& c : capacity) c = fat(rng) ? inf : static_cast<double>(cap_of(rng));
    const std::size_t n = side(rng), m = side(rng);
    Routes routes(n, std::vector<kpbs::PairRoute>(m));
    for (auto& row : routes)
      for (auto& r : row) {
        r.used = pair_used(rng);
        for (std::size_t l = 0; l < pool; ++l)
          if (in_route(rng)) r.links.push_back(l);
        if (r.links.empty()) r.links.push_back(std::uniform_int_distribution<std::size_t>(0, pool - 1)(rng));
        std::shuffle(r.links.begin(), r.links.end(), rng);
        r.rate = inf;  // the pair alone: its bottleneck
        for (std::size_t l : r.links) r.rate = std::min(r.rate, capacity[l]);
      }
    const std::size_t k = kpbs::interference_free_concurrency(routes, capacity);
    const Documented d = documented(routes, capacity);
    CAPTURE(trial);
    REQUIRE(k >= 1);
    CHECK(k == d.k);
    CHECK(k <= std::max<std::size_t>(1, d.nodes));

    bool overload_at_k_plus_1 = false;
    for_each_matching(routes, [&](const std::vector<std::pair<std::size_t, std::size_t>>& matching) {
      if (matching.size() <= k) {
        ++checked_matchings;
        CHECK(worst_load(routes, capacity, matching) <= 1.0 + 1e-9);
      } else if (matching.size() == k + 1 && worst_load(routes, capacity, matching) > 1.0 + 1e-9) {
        overload_at_k_plus_1 = true;
      }
    });
    if (k < d.nodes) {
      ++below_nodes;
      bool bound_stops = false;
      for (std::size_t b : d.bound) bound_stops = bound_stops || b == k;
      CHECK((overload_at_k_plus_1 || bound_stops));
      if (overload_at_k_plus_1)
        ++proven_by_overload;
      else
        ++only_by_bound;
    }
    if (k < std::max<std::size_t>(1, d.nodes)) ++limited;
  }
  MESSAGE(trials << " networks, " << checked_matchings << " matchings of at most k pairs checked; k < min(senders, "
                 << "receivers) in " << below_nodes << ": a matching of k + 1 pairs overloads a link in "
                 << proven_by_overload << ", only the conservative per-link bound stops k + 1 in " << only_by_bound);
  CHECK(limited > 500);
  CHECK(proven_by_overload > 100);
}
