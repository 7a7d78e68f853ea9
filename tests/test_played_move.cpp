// A point's column move as the executor plays it on shared routes (planners/points/played_move.hpp),
// the lower bound policies weigh a move with on them (planners/points/shared_move_bound.hpp), and
// the all-gather's ends (planners/points/all_gather.hpp): by hand; the plan's own time where no
// link is shared, on planners' plans for random rings; against a time-stepped integration of the
// executor on random shared routes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "planners/points/all_gather.hpp"
#include "planners/points/played_move.hpp"
#include "planners/points/shared_move_bound.hpp"
#include "planners/redistribution/bounds.hpp"
#include "planners/redistribution/ring_math.hpp"
#include "planners/redistribution/load_balance.hpp"
#include "planners/redistribution/redistribution_planner.hpp"
#include "trial_count.hpp"

using namespace ringsim;
using points::NeighbourRoutes;

namespace {

constexpr double kNoRateBound = std::numeric_limits<double>::infinity();

// Each directed ring edge on a link of its own whose latency and bandwidth make one column cost
// cost_next[i] (cost_prev[i]): nothing is shared.
NeighbourRoutes private_edge_routes(const RingInstance& inst, double latency_share, double bytes) {
  NeighbourRoutes r;
  r.bytes = bytes;
  const std::size_t n = inst.size();
  auto edge = [&](double cost, std::vector<std::vector<std::size_t>>& links, std::vector<double>& latency) {
    links.push_back({r.capacity.size()});
    latency.push_back(cost * latency_share);
    r.capacity.push_back(bytes / (cost * (1.0 - latency_share)));
    r.shared.push_back(true);
  };
  for (std::size_t i = 0; i < n; ++i) {
    edge(inst.cost_next[i], r.next_links, r.next_latency);
    edge(inst.cost_prev[i], r.prev_links, r.prev_latency);
  }
  r.next_rate.assign(n, kNoRateBound);
  r.prev_rate.assign(n, kNoRateBound);
  return r;
}

// A block as a plan lists it (its end unused here).
Transfer move_block(std::size_t from, std::size_t to, Direction dir, Count items, double start, double period = 0.0) {
  return Transfer{from, to, dir, items, start, 0.0, period};
}

// The executor integrated in steps of dt, written from its description (redistribution_point.cpp):
// senders and receivers walk their blocks in planned order; a column's transfer runs once both sides
// are at it, the sender holds a column and its planned departure has come; after its latency it
// flows at its max-min share.
double stepped_move(const RedistributionPlan& plan, std::vector<Count> held, const NeighbourRoutes& r, double dt) {
  const std::size_t n = held.size();
  std::vector<std::vector<const Transfer*>> out(n), in(n);
  for (const Transfer& t : plan.transfers) {
    out[t.from].push_back(&t);
    in[t.to].push_back(&t);
  }
  auto by_start = [](const Transfer* a, const Transfer* b) { return a->start < b->start; };
  for (std::size_t i = 0; i < n; ++i) {
    std::stable_sort(out[i].begin(), out[i].end(), by_start);
    std::stable_sort(in[i].begin(), in[i].end(), by_start);
  }
  // Position (block, item) of each sender and receiver, and each sender's transfer under way.
  std::vector<std::size_t> ob(n, 0), ib(n, 0);
  std::vector<Count> oi(n, 0), ii(n, 0);
  std::vector<bool> taken(n, false), running(n, false);
  std::vector<double> started(n, 0.0), left(n, 0.0);
  double end = 0.0;
  for (double t = 0.0; t < 1e6; t += dt) {
    bool pending = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (ob[i] == out[i].size()) continue;
      pending = true;
      const Transfer& b = *out[i][ob[i]];
      const double due = oi[i] == 0 ? b.start : b.period != 0.0 ? b.start + static_cast<double>(oi[i]) * b.period : 0.0;
      if (!taken[i] && t + 1e-12 >= due && held[i] > 0) {
        --held[i];
        taken[i] = true;
      }
      const std::size_t j = b.to;
      if (taken[i] && !running[i] && ib[j] < in[j].size() && in[j][ib[j]]->from == i && in[j][ib[j]]->dir == b.dir) {
        bool receiver_busy = false;
        for (std::size_t k = 0; k < n; ++k)
          receiver_busy = receiver_busy || (running[k] && out[k][ob[k]]->to == j);
        if (!receiver_busy) {
          running[i] = true;
          started[i] = t;
          left[i] = r.bytes;
        }
      }
    }
    if (!pending) return end;
    std::vector<std::size_t> flowing;
    std::vector<points::RouteShare> shares;
    for (std::size_t i = 0; i < n; ++i) {
      if (!running[i]) continue;
      const Transfer& b = *out[i][ob[i]];
      const bool next = b.dir == Direction::next;
      if (t + 1e-12 >= started[i] + (next ? r.next_latency[i] : r.prev_latency[i])) {
        flowing.push_back(i);
        shares.push_back({next ? &r.next_links[i] : &r.prev_links[i], kNoRateBound,
                          points::sharing_penalty(next ? r.next_latency[i] : r.prev_latency[i])});
      }
    }
    const std::vector<double> rate = points::max_min_rates(r, shares);
    for (std::size_t a = 0; a < flowing.size(); ++a) {
      const std::size_t i = flowing[a];
      left[i] -= rate[a] * dt;
      if (left[i] > 0.0) continue;
      end = std::max(end, t + dt + left[i] / rate[a]);
      const Transfer& b = *out[i][ob[i]];
      running[i] = taken[i] = false;
      ++held[b.to];
      if (++oi[i] == b.items) oi[i] = 0, ++ob[i];
      if (++ii[b.to] == in[b.to][ib[b.to]]->items) ii[b.to] = 0, ++ib[b.to];
    }
  }
  return kNoRateBound;
}

RingInstance random_move_instance(std::mt19937_64& rng, std::size_t n, Count per_member) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  RingInstance inst;
  inst.bidirectional = true;
  std::vector<double> speeds;
  for (std::size_t i = 0; i < n; ++i) {
    inst.loads.push_back(1 + static_cast<Count>(unit(rng) * static_cast<double>(2 * per_member)));
    speeds.push_back(0.2 + unit(rng));
    inst.cost_next.push_back(0.5 + unit(rng));
    inst.cost_prev.push_back(unit(rng) < 0.5 ? inst.cost_next.back() : 0.5 + unit(rng));
  }
  Count total = 0;
  for (Count l : inst.loads) total += l;
  inst.targets = redistribution::balanced_targets(speeds, total);
  return inst;
}

// Adds `count` links that the transfers may also cross: each SHARED with probability 0.8 (else
// FATPIPE), of capacity `least` + U(0, 1), on each route with probability `crossing`.
void add_common_links(NeighbourRoutes& r, std::mt19937_64& rng, int count, double least, double crossing) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int extra = 0; extra < count; ++extra) {
    const std::size_t l = r.capacity.size();
    r.capacity.push_back(least + unit(rng));
    r.shared.push_back(unit(rng) < 0.8);
    for (auto* links : {&r.next_links, &r.prev_links})
      for (auto& path : *links)
        if (unit(rng) < crossing) path.push_back(l);
  }
}

}  // namespace

TEST_CASE("played move: one block alone, two blocks on one shared link, a forwarded column") {
  NeighbourRoutes r;
  r.bytes = 10.0;
  r.capacity = {10.0, 10.0, 5.0};
  r.shared = {true, true, true};
  // Ring of 4: 0 -> 1 over link 0, 2 -> 3 over link 1, both also over link 2 when `shared`.
  r.next_links = {{0}, {}, {1}, {}};
  r.prev_links = {{}, {}, {}, {}};
  r.next_latency = {0.5, 0.0, 0.5, 0.0};
  r.prev_latency = {0.0, 0.0, 0.0, 0.0};
  RedistributionPlan plan;
  plan.transfers = {move_block(0, 1, Direction::next, 3, 0.0)};
  // Three columns back to back, each 0.5 s of latency and 10 bytes at 10 B/s.
  CHECK(points::played_move_time(plan, {3, 1, 1, 1}, r) == doctest::Approx(4.5));
  plan.transfers.push_back(move_block(2, 3, Direction::next, 2, 1.0));
  CHECK(points::played_move_time(plan, {3, 1, 2, 1}, r) == doctest::Approx(4.5));
  // Both routes also cross link 2, 5 B/s, and no latency: a column of each, 0's from 0 and 2's
  // from 1. 0's flows alone at 5 B/s until 1 (5 bytes), then both at 2.5 B/s: 0's ends at 3, and
  // 2's, with 5 bytes left, alone again: 4. The plan, each on its edge alone, says 2 and 3.
  r.next_links = {{0, 2}, {}, {1, 2}, {}};
  r.next_latency = {0.0, 0.0, 0.0, 0.0};
  plan.transfers = {move_block(0, 1, Direction::next, 1, 0.0), move_block(2, 3, Direction::next, 1, 1.0)};
  CHECK(points::played_move_time(plan, {3, 1, 2, 1}, r) == doctest::Approx(4.0));
  CHECK(points::played_move_time(plan, {3, 1, 2, 1}, r) ==
        doctest::Approx(stepped_move(plan, {3, 1, 2, 1}, r, 1e-4)).epsilon(1e-3));
  // Member 1 holds nothing: it forwards the column from 0 once it has arrived.
  r.next_links = {{0}, {1}, {}, {}};
  r.next_latency = {0.5, 0.5, 0.0, 0.0};
  plan.transfers = {move_block(0, 1, Direction::next, 1, 0.0), move_block(1, 2, Direction::next, 1, 0.0)};
  CHECK(points::played_move_time(plan, {2, 0, 1, 1}, r) == doctest::Approx(3.0));
  // An empty block, which the executor's replay check refuses, is refused here too.
  plan.transfers = {move_block(0, 1, Direction::next, 0, 0.0)};
  CHECK_THROWS_AS(points::played_move_time(plan, {2, 0, 1, 1}, r), std::logic_error);
}

TEST_CASE("played move: the plan's own time when no link is shared") {
  std::mt19937_64 rng(11282026);
  const int trials = testing::trials(1500);
  for (int k = 0; k < trials; ++k) {
    const std::size_t n = 2 + static_cast<std::size_t>(k % 9);
    const RingInstance inst = random_move_instance(rng, n, 1 + k % 25);
    if (inst.loads == inst.targets) continue;
    for (const char* planner : {"auto", "bi-heuristic", "uni-heterogeneous"}) {
      RingInstance one = inst;
      if (std::string(planner) == "uni-heterogeneous") one.bidirectional = false, one.cost_prev.clear();
      const RedistributionPlan plan = redistribution::plan_redistribution(one, planner);
      NeighbourRoutes r = private_edge_routes(inst, 0.3 * static_cast<double>(k % 4) / 3.0, 1e6);
      INFO("trial " << k << " algorithm " << planner);
      REQUIRE(points::played_move_time(plan, inst.loads, r) == doctest::Approx(plan.time).epsilon(1e-9));
    }
  }
}

TEST_CASE("played move: against a time-stepped executor on shared links") {
  std::mt19937_64 rng(28112026);
  const int trials = testing::trials(120);
  for (int k = 0; k < trials; ++k) {
    const std::size_t n = 2 + static_cast<std::size_t>(k % 5);
    const RingInstance inst = random_move_instance(rng, n, 1 + k % 4);
    if (inst.loads == inst.targets) continue;
    const RedistributionPlan plan = redistribution::plan_redistribution(inst, "auto");
    NeighbourRoutes r = private_edge_routes(inst, 0.2, 1.0);
    // One or two links every transfer may also cross, SHARED or FATPIPE.
    add_common_links(r, rng, 1 + k % 2, 0.5, 0.6);
    const double dt = 2e-4;
    Count items = 0;
    for (const Transfer& t : plan.transfers) items += t.items;
    INFO("trial " << k);
    const double played = points::played_move_time(plan, inst.loads, r);
    REQUIRE(played >= plan.time * (1 - 1e-9));
    REQUIRE(std::abs(played - stepped_move(plan, inst.loads, r, dt)) <= 4 * dt * static_cast<double>(items + 1));
  }
}

TEST_CASE("all-gather ends: by hand, uniform costs, and never past the slowest round's bound") {
  CHECK(points::all_gather_ends({}).empty());
  CHECK(points::all_gather_ends({3.0}) == std::vector<double>{0.0});
  // Three members, the edge 2 -> 0 dear: 0 and 2 wait on it each round, 1 does not in the first.
  CHECK(points::all_gather_ends({1.0, 1.0, 5.0}) == std::vector<double>{10.0, 6.0, 10.0});
  CHECK(points::all_gather_ends({2.0, 2.0, 2.0, 2.0}) == std::vector<double>{6.0, 6.0, 6.0, 6.0});
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int k = 0; k < 500; ++k) {
    std::vector<double> cost(2 + static_cast<std::size_t>(k % 12));
    for (double& c : cost) c = unit(rng);
    const std::vector<double> g = points::all_gather_ends(cost);
    const double dearest = *std::max_element(cost.begin(), cost.end());
    double cheapest = *std::min_element(cost.begin(), cost.end());
    for (double x : g) {
      REQUIRE(x <= static_cast<double>(cost.size() - 1) * dearest * (1 + 1e-12));
      REQUIRE(x >= static_cast<double>(cost.size() - 1) * cheapest * (1 - 1e-12));
    }
    // The members at both ends of the dearest edge wait on it every round.
    const std::size_t d = static_cast<std::size_t>(std::max_element(cost.begin(), cost.end()) - cost.begin());
    REQUIRE(g[d] == doctest::Approx(static_cast<double>(cost.size() - 1) * dearest));
    REQUIRE(g[(d + 1) % cost.size()] == doctest::Approx(static_cast<double>(cost.size() - 1) * dearest));
  }
}

TEST_CASE("all-gather on shared routes: the rounds' recurrence where nothing is shared, slower where it is") {
  std::mt19937_64 rng(6);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int k = 0; k < testing::trials(400); ++k) {
    const std::size_t n = 2 + static_cast<std::size_t>(k % 10);
    RingInstance inst;
    for (std::size_t i = 0; i < n; ++i) {
      inst.cost_next.push_back(0.1 + unit(rng));
      inst.cost_prev.push_back(0.1 + unit(rng));
    }
    inst.loads.assign(n, 1);
    NeighbourRoutes r = private_edge_routes(inst, 0.5 * unit(rng), 1.0);
    INFO("trial " << k);
    const std::vector<double> alone = points::shared_all_gather_ends(r, 1.0);
    const std::vector<double> recurrence = points::all_gather_ends(inst.cost_next);
    for (std::size_t i = 0; i < n; ++i) REQUIRE(alone[i] == doctest::Approx(recurrence[i]).epsilon(1e-9));
    // One more link every report crosses: the rounds take longer, never shorter.
    r.capacity.push_back(0.5);
    r.shared.push_back(true);
    for (auto& path : r.next_links) path.push_back(r.capacity.size() - 1);
    const std::vector<double> shared = points::shared_all_gather_ends(r, 1.0);
    for (std::size_t i = 0; i < n; ++i) REQUIRE(shared[i] > recurrence[i]);
  }
  // Two members, reports of 1 byte without latency over one 1 B/s link: each round both reports
  // share it, 2 s a round, one round.
  NeighbourRoutes two;
  two.capacity = {1.0};
  two.shared = {true};
  two.next_links = {{0}, {0}};
  two.prev_links = {{}, {}};
  two.next_latency = {0.0, 0.0};
  two.prev_latency = {0.0, 0.0};
  CHECK(points::shared_all_gather_ends(two, 1.0) == std::vector<double>{2.0, 2.0});
}

TEST_CASE("shared move bound: by hand, a site's uplink carries every column that leaves the site") {
  // Members 0 and 1 on one site, 2 and 3 on the other; the routes between the sites cross one
  // SHARED uplink of 1 column per second, each ring edge having a private link besides.
  RingInstance inst;
  inst.bidirectional = true;
  inst.loads = {11, 11, 1, 1};
  inst.targets = {6, 6, 6, 6};
  inst.cost_next.assign(4, 0.1);
  inst.cost_prev.assign(4, 0.1);
  NeighbourRoutes r = private_edge_routes(inst, 0.0, 1.0);
  const std::size_t uplink = r.capacity.size();
  r.capacity.push_back(1.0);
  r.shared.push_back(true);
  r.next_links[1].push_back(uplink);  // 1 -> 2
  r.prev_links[2].push_back(uplink);  // 2 -> 1
  r.next_links[3].push_back(uplink);  // 3 -> 0
  r.prev_links[0].push_back(uplink);  // 0 -> 3
  // Ten columns leave the site whichever way they go round: 10 s on the uplink.
  CHECK(points::shared_move_lower_bound(inst, r) == doctest::Approx(10.0));
  const RedistributionPlan plan = redistribution::plan_redistribution(inst, "auto");
  CHECK(points::played_move_time(plan, inst.loads, r) >= 10.0);
  // Without the uplink, the one-port bound alone.
  CHECK(points::shared_move_lower_bound(inst, NeighbourRoutes{}) ==
        doctest::Approx(redistribution::slides_bidirectional_lower_bound(inst).value()));
}

TEST_CASE("shared move bound: below every planner's move as played, its circulation the best of all") {
  std::mt19937_64 rng(2122026);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const int trials = testing::trials(600);
  int raised = 0;
  for (int k = 0; k < trials; ++k) {
    const std::size_t n = 2 + static_cast<std::size_t>(k % 7);
    const RingInstance inst = random_move_instance(rng, n, 1 + k % 5);
    if (inst.loads == inst.targets) continue;
    NeighbourRoutes r = private_edge_routes(inst, 0.3 * unit(rng), 1.0);
    add_common_links(r, rng, 1 + k % 3, 0.3, 0.5);
    INFO("trial " << k);
    const double bound = points::shared_move_lower_bound(inst, r);
    const double one_port = redistribution::slides_bidirectional_lower_bound(inst).value();
    REQUIRE(bound >= one_port);
    raised += bound > one_port * (1 + 1e-9);
    // The bisection's circulation against every circulation in a range beyond the breakpoints.
    const auto prefix = redistribution::prefix_imbalances(redistribution::imbalances(inst));
    const Count lo = *std::min_element(prefix.begin(), prefix.end()) - 3;
    const Count hi = *std::max_element(prefix.begin(), prefix.end()) + 3;
    double best = std::numeric_limits<double>::infinity();
    for (Count c = lo; c <= hi; ++c) best = std::min(best, points::busiest_link_time(prefix, c, r));
    REQUIRE(bound == doctest::Approx(std::max(one_port, best)).epsilon(1e-12));
    for (const char* planner : {"auto", "bi-heuristic", "uni-heterogeneous"}) {
      RingInstance asked = inst;
      asked.bidirectional = std::string(planner) != "uni-heterogeneous";
      if (!asked.bidirectional) asked.cost_prev.clear();
      const RedistributionPlan plan = redistribution::plan_redistribution(asked, planner);
      REQUIRE(points::played_move_time(plan, inst.loads, r) >= bound * (1 - 1e-9));
    }
  }
  CHECK(raised > trials / 10);  // the shared links raise the bound in many trials, not none
}
