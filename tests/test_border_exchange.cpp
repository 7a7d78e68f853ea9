// The border exchange under link sharing (planners/points/border_exchange.hpp): max-min rates
// checked by their defining property, the exchange's end by hand, against the edge formula where
// nothing is shared, and against a fine time-stepped integration of the same rates.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "planners/points/border_exchange.hpp"
#include "planners/points/hindsight_plan.hpp"
#include "trial_count.hpp"

using namespace ringsim;
using points::NeighbourRoutes;
using points::RouteShare;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Weighted max-min fairness from its definition, as SimGrid's lmm has it: feasible (a SHARED link's
// rates sum to at most its capacity, a FATPIPE link's each at most its capacity), and every
// transfer has a bottleneck: its own bound, or a saturated link (a SHARED link full, a FATPIPE link
// with a transfer at its capacity) on which no transfer has a larger rate times penalty (CM02
// shares in inverse proportion to the penalties; lmm freezes every transfer of a saturated link).
bool is_max_min_fair(const NeighbourRoutes& r, const std::vector<RouteShare>& t, const std::vector<double>& rate) {
  const double tol = 1e-9;
  std::vector<double> load(r.capacity.size(), 0.0);
  for (std::size_t k = 0; k < t.size(); ++k)
    for (std::size_t l : *t[k].links) load[l] = r.shared[l] ? load[l] + rate[k] : std::max(load[l], rate[k]);
  for (std::size_t l = 0; l < load.size(); ++l)
    if (load[l] > r.capacity[l] * (1 + tol)) return false;
  for (std::size_t k = 0; k < t.size(); ++k) {
    if (rate[k] > t[k].bound * (1 + tol)) return false;
    bool bottleneck = rate[k] >= t[k].bound * (1 - tol);
    for (std::size_t l : *t[k].links) {
      if (load[l] < r.capacity[l] * (1 - tol)) continue;
      bool largest = true;
      for (std::size_t o = 0; o < t.size(); ++o)
        if (std::find(t[o].links->begin(), t[o].links->end(), l) != t[o].links->end() &&
            rate[o] * t[o].penalty > rate[k] * t[k].penalty * (1 + tol))
          largest = false;
      bottleneck = bottleneck || largest;
    }
    if (!bottleneck) return false;
  }
  return true;
}

// A ring of n members on `links` random links (capacity 1 to 10, some FATPIPE), each transfer
// crossing 1 to 3 of them, with a latency and now and then a rate of its own.
NeighbourRoutes random_routes(std::mt19937_64& rng, std::size_t n, std::size_t links) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  NeighbourRoutes r;
  for (std::size_t l = 0; l < links; ++l) {
    r.capacity.push_back(1.0 + 9.0 * unit(rng));
    r.shared.push_back(unit(rng) < 0.8);
  }
  auto route = [&] {
    std::vector<std::size_t> path;
    for (int hop = 0, hops = 1 + static_cast<int>(unit(rng) * 3); hop < hops; ++hop)
      path.push_back(static_cast<std::size_t>(unit(rng) * static_cast<double>(links)) % links);
    std::sort(path.begin(), path.end());
    path.erase(std::unique(path.begin(), path.end()), path.end());
    return path;
  };
  for (std::size_t i = 0; i < n; ++i) {
    r.next_links.push_back(route());
    r.prev_links.push_back(route());
    r.next_latency.push_back(0.1 * unit(rng));
    r.prev_latency.push_back(0.1 * unit(rng));
    r.next_rate.push_back(unit(rng) < 0.2 ? 1.0 + 4.0 * unit(rng) : kInf);
    r.prev_rate.push_back(unit(rng) < 0.2 ? 1.0 + 4.0 * unit(rng) : kInf);
  }
  r.bytes = 0.5 + 2.0 * unit(rng);
  return r;
}

// The same exchange integrated in small steps of dt: at each step the transfers whose latency has
// passed share the links by max_min_rates (checked above by its property).
double stepped_exchange_end(const NeighbourRoutes& r, const std::vector<double>& done, double dt) {
  const std::size_t n = done.size();
  std::vector<double> release, left(2 * n, r.bytes);
  std::vector<RouteShare> all;
  for (std::size_t i = 0; i < n; ++i) {
    release.push_back(std::max(done[i], done[(i + 1) % n]) + r.next_latency[i]);
    all.push_back({&r.next_links[i], r.next_rate[i], points::sharing_penalty(r.next_latency[i])});
    release.push_back(std::max(done[i], done[(i + n - 1) % n]) + r.prev_latency[i]);
    all.push_back({&r.prev_links[i], r.prev_rate[i], points::sharing_penalty(r.prev_latency[i])});
  }
  double end = *std::max_element(done.begin(), done.end());
  for (double t = 0.0;; t += dt) {
    std::vector<std::size_t> active;
    std::vector<RouteShare> transfers;
    bool pending = false;
    for (std::size_t k = 0; k < all.size(); ++k) {
      if (left[k] <= 0.0) continue;
      pending = true;
      if (release[k] <= t) {
        active.push_back(k);
        transfers.push_back(all[k]);
      }
    }
    if (!pending) return end;
    const std::vector<double> rate = points::max_min_rates(r, transfers);
    for (std::size_t a = 0; a < active.size(); ++a) {
      left[active[a]] -= rate[a] * dt;
      if (left[active[a]] <= 0.0) end = std::max(end, t + dt + left[active[a]] / rate[a]);
    }
  }
}

}  // namespace

TEST_CASE("max-min rates: by hand, and fair by definition on random links") {
  NeighbourRoutes r;
  r.capacity = {10.0, 4.0, 3.0};
  r.shared = {true, true, false};
  const std::vector<std::size_t> first{0}, both{0, 1}, fat{2};
  CHECK(points::max_min_rates(r, {{&first, kInf}, {&first, kInf}}) == std::vector<double>{5.0, 5.0});
  // The second transfer is held at 4 by link 1; the first takes the rest of link 0.
  const std::vector<double> two = points::max_min_rates(r, {{&first, kInf}, {&both, kInf}});
  CHECK(two[0] == doctest::Approx(6.0));
  CHECK(two[1] == doctest::Approx(4.0));
  // A FATPIPE link bounds each transfer alone; a rate of its own too.
  CHECK(points::max_min_rates(r, {{&fat, kInf}, {&fat, kInf}, {&first, 2.0}}) == std::vector<double>{3.0, 3.0, 2.0});
  // On a FATPIPE link, penalties 1 and 4: the first at the capacity, the second frozen with it at a
  // quarter (SimGrid 3.32: routes of 10 ms and 40 ms through a 1 MBps FATPIPE link, 1 MB each, end
  // at 1.01 s and 1.7675 s: 0.25 MBps until the first ends); alone, each at the capacity.
  const std::vector<double> fat_weighted = points::max_min_rates(r, {{&fat, kInf, 1.0}, {&fat, kInf, 4.0}});
  CHECK(fat_weighted[0] == doctest::Approx(3.0));
  CHECK(fat_weighted[1] == doctest::Approx(0.75));
  CHECK(points::max_min_rates(r, {{&fat, kInf, 4.0}}) == std::vector<double>{3.0});
  // The transfer of least penalty held below the capacity elsewhere (link 1, 4 B/s, shared with a
  // transfer of penalty 1): the FATPIPE link then saturates with the next least penalty.
  const std::vector<std::size_t> fat_and_1{2, 1}, only_1{1};
  const std::vector<double> held = points::max_min_rates(r, {{&fat_and_1, kInf, 1.0}, {&only_1, kInf, 1.0}, {&fat, kInf, 2.0}});
  CHECK(held[0] == doctest::Approx(2.0));
  CHECK(held[1] == doctest::Approx(2.0));
  CHECK(held[2] == doctest::Approx(3.0));
  // Penalties 1 and 4 (routes of latency 1 and 4): link 0 split 8 to 2; a bound frees the rest.
  const std::vector<double> weighted = points::max_min_rates(r, {{&first, kInf, 1.0}, {&first, kInf, 4.0}});
  CHECK(weighted[0] == doctest::Approx(8.0));
  CHECK(weighted[1] == doctest::Approx(2.0));
  const std::vector<double> capped = points::max_min_rates(r, {{&first, 5.0, 1.0}, {&first, kInf, 4.0}});
  CHECK(capped[0] == doctest::Approx(5.0));
  CHECK(capped[1] == doctest::Approx(5.0));
  std::mt19937_64 rng(20261128);
  for (int k = 0; k < 2000; ++k) {
    const NeighbourRoutes routes = random_routes(rng, 2 + static_cast<std::size_t>(k % 6), 1 + static_cast<std::size_t>(k % 5));
    std::vector<RouteShare> transfers;
    for (std::size_t i = 0; i < routes.next_links.size(); ++i) {
      if (rng() % 3 != 0)
        transfers.push_back({&routes.next_links[i], routes.next_rate[i], points::sharing_penalty(routes.next_latency[i])});
      if (rng() % 3 != 0)
        transfers.push_back({&routes.prev_links[i], routes.prev_rate[i], points::sharing_penalty(routes.prev_latency[i])});
    }
    REQUIRE(is_max_min_fair(routes, transfers, points::max_min_rates(routes, transfers)));
  }
}

TEST_CASE("shared border exchange: by hand, the edge formula without sharing, a stepped integration") {
  // Two members on one link of 1 B/s, columns of 2 B, no latency: each sends its two columns to the
  // other, and the four transfers start together and share the link: 8 s.
  NeighbourRoutes r;
  r.capacity = {1.0};
  r.shared = {true};
  r.next_links = r.prev_links = {{0}, {0}};
  r.next_latency = r.prev_latency = {0.0, 0.0};
  r.next_rate = r.prev_rate = {kInf, kInf};
  r.bytes = 2.0;
  CHECK(points::shared_exchange_end(r, {0.0, 0.0}) == doctest::Approx(8.0));  // four transfers of 2 B
  // A ring of 3 on one link: 0 -> 1 and 1 -> 0 start at 0 (members 0 and 1 done), the four others
  // at 1 (member 2 done). From 0 to 1 two transfers at 1/2 B/s: 1.5 B left each; then six at 1/6
  // until the two finish (9 s more, at 10), while the four others sent 1.5 B; then four at 1/4
  // (2 s more): the end at 12.
  r.next_links = r.prev_links = {{0}, {0}, {0}};
  r.next_latency = r.prev_latency = {0.0, 0.0, 0.0};
  r.next_rate = r.prev_rate = {kInf, kInf, kInf};
  // Member 0 sends to 1 (next) and to 2 (prev); 1 to 2 and 0; 2 to 0 and 1.
  CHECK(points::shared_exchange_end(r, {0.0, 0.0, 1.0}) == doctest::Approx(12.0));

  // Nothing shared: each transfer alone on its own link, the edge formula of exchange_end.
  std::mt19937_64 rng(20261129);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int k = 0; k < 1000; ++k) {
    const std::size_t n = 2 + static_cast<std::size_t>(k % 7);
    NeighbourRoutes own;
    points::RunModel m;
    own.bytes = 1.0 + unit(rng);
    for (std::size_t i = 0; i < n; ++i) {
      for (bool next : {true, false}) {
        own.capacity.push_back(1.0 + 9.0 * unit(rng));
        own.shared.push_back(true);
        const double latency = 0.2 * unit(rng);
        (next ? own.next_links : own.prev_links).push_back({own.capacity.size() - 1});
        (next ? own.next_latency : own.prev_latency).push_back(latency);
        (next ? own.next_rate : own.prev_rate).push_back(kInf);
        (next ? m.cost_next : m.cost_prev).push_back(latency + own.bytes / own.capacity.back());
      }
    }
    std::vector<double> done;
    for (std::size_t i = 0; i < n; ++i) done.push_back(unit(rng));
    REQUIRE(points::shared_exchange_end(own, done) == doctest::Approx(points::exchange_end(m, done)).epsilon(1e-12));
  }
  // Shared links: the event-driven end against small steps (an error of about a step per event).
  for (int k = 0; k < testing::trials(200); ++k) {
    const std::size_t n = 2 + static_cast<std::size_t>(k % 5);
    const NeighbourRoutes routes = random_routes(rng, n, 1 + static_cast<std::size_t>(k % 4));
    std::vector<double> done;
    for (std::size_t i = 0; i < n; ++i) done.push_back(unit(rng) < 0.3 ? 0.5 : unit(rng));
    const double exact = points::shared_exchange_end(routes, done);
    REQUIRE(exact >= *std::max_element(done.begin(), done.end()));
    REQUIRE(std::abs(exact - stepped_exchange_end(routes, done, 1e-4)) <= 4e-4 * static_cast<double>(n) + 1e-9);
  }
}
