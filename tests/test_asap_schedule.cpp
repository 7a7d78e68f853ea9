// The item-by-item executor (asap_schedule.hpp) under every rule the general heuristic combines:
// whatever the tie-breaking and the direction of time, it executes exactly the given counts and
// its schedules replay under the one-port model (HiPC 2004, Section 2), forwarding included.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <random>
#include <utility>
#include <vector>

#include "instances.hpp"
#include "model/replay.hpp"
#include "planners/redistribution/asap_schedule.hpp"
#include "planners/redistribution/ring_math.hpp"
#include "planners/redistribution/system2_circulation.hpp"
#include "trial_count.hpp"

using namespace ringsim;

namespace {

// Loads on one or two processors, so most items are forwarded by processors holding one item.
RingInstance concentrated_instance(std::mt19937_64& rng, std::size_t n, bool integer_costs) {
  testing::InstanceShape shape;
  shape.n = n;
  shape.homogeneous = false;
  shape.integer_costs = integer_costs;
  shape.max_load = 12;
  RingInstance inst = testing::random_instance(rng, shape);
  Count spare = 0;
  for (Count l : inst.loads) spare += l - 1;
  inst.loads.assign(n, 1);
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  const Count first = std::uniform_int_distribution<Count>(0, spare)(rng);
  inst.loads[pick(rng)] += first;
  inst.loads[pick(rng)] += spare - first;
  return inst;
}

RedistributionPlan as_plan(const redistribution::EdgeFlows& flows, std::vector<Transfer> transfers) {
  RedistributionPlan plan;
  plan.time = redistribution::makespan(transfers);
  plan.transfers = std::move(transfers);
  plan.send_next = flows.send_next;
  plan.send_prev = flows.send_prev;
  return plan;
}

}  // namespace

TEST_CASE("schedule_asap: every rule, both directions of time, executes the counts feasibly") {
  const redistribution::PortPolicy policies[] = {redistribution::PortPolicy::next_then_prev, redistribution::PortPolicy::prev_then_next, redistribution::PortPolicy::longest_first,
                                 redistribution::PortPolicy::random_then_other, redistribution::PortPolicy::random_each_item};
  const redistribution::PortContention contentions[] = {redistribution::PortContention::ring_index, redistribution::PortContention::longest_first,
                                        redistribution::PortContention::random};
  std::mt19937_64 rng(2004);
  int runs = 0;
  const int trials = testing::trials(150);
  for (int trial = 0; trial < trials; ++trial) {
    const auto inst = concentrated_instance(rng, 2 + static_cast<std::size_t>(trial % 14), trial % 2 == 0);
    const auto F = redistribution::prefix_imbalances(redistribution::imbalances(inst));
    const auto opt = redistribution::optimal_integer_circulation(inst);
    for (Count x : {opt.x - 1, opt.x, opt.x + 1}) {
      const auto flows = redistribution::flows_for_circulation(F, x);
      for (redistribution::PortPolicy p : policies)
        for (redistribution::PortContention c : contentions)
          for (bool busy : {false, true})
            for (bool late : {false, true}) {
              redistribution::AsapRules rules{p, c, busy, static_cast<std::uint64_t>(trial)};
              rules.as_late_as_possible = late;
              const auto plan = as_plan(flows, redistribution::schedule_asap(inst, flows.send_next, flows.send_prev, rules));
              const auto report = replay(inst, plan);
              INFO("trial " << trial << " x " << x << " policy " << static_cast<int>(p) << " contention "
                            << static_cast<int>(c) << " busy " << busy << " late " << late);
              REQUIRE_MESSAGE(report.ok, report.error);
              REQUIRE(plan.time >= redistribution::system2_time(inst, F, x) * (1 - 1e-9));  // System 2 bounds these flows
              // Seeded: the same rules give the same schedule.
              REQUIRE(redistribution::makespan(redistribution::schedule_asap(inst, flows.send_next, flows.send_prev, rules)) == plan.time);
              ++runs;
            }
    }
  }
  CHECK(runs == trials * 3 * 5 * 3 * 2 * 2);
}

TEST_CASE("schedule_asap: time reversal swaps as soon as possible and as late as possible") {
  // P_2 forwards to P_3, which forwards to the sink P_4; P_0 also feeds P_4 counter-clockwise.
  RingInstance inst;
  inst.bidirectional = true;
  inst.loads = {2, 2, 2, 1, 1};
  inst.targets = {1, 1, 1, 1, 4};
  inst.cost_next = {3, 1, 3, 2, 3};
  inst.cost_prev = {2, 1, 2, 3, 2};
  const redistribution::EdgeFlows flows{{0, 1, 2, 2, 0}, {1, 0, 0, 0, 0}};
  // The reversed instance: loads and targets swapped, the cost of P_i -> P_(i+1) moved to
  // P_(i+1) -> P_i and conversely, every edge's items sent the other way.
  RingInstance rev = inst;
  std::swap(rev.loads, rev.targets);
  rev.cost_next = {1, 2, 3, 2, 2};
  rev.cost_prev = {3, 3, 1, 3, 2};
  const redistribution::EdgeFlows rev_flows{{0, 0, 0, 0, 1}, {0, 0, 1, 2, 2}};

  redistribution::AsapRules late;
  late.as_late_as_possible = true;
  const auto asap = redistribution::schedule_asap(inst, flows.send_next, flows.send_prev, redistribution::PortPolicy::next_then_prev);
  const auto alap = redistribution::schedule_asap(inst, flows.send_next, flows.send_prev, late);
  CHECK(redistribution::makespan(asap) == 6.0);
  CHECK(redistribution::makespan(alap) == 7.0);
  CHECK(replay(inst, as_plan(flows, asap)).ok);
  CHECK(replay(inst, as_plan(flows, alap)).ok);
  CHECK(redistribution::makespan(redistribution::schedule_asap(rev, rev_flows.send_next, rev_flows.send_prev, redistribution::PortPolicy::next_then_prev)) == 7.0);
  CHECK(redistribution::makespan(redistribution::schedule_asap(rev, rev_flows.send_next, rev_flows.send_prev, late)) == 6.0);
}

namespace {

struct ItemDeparture {
  std::size_t from;
  Direction dir;
  double time;
};

// Every item of a schedule as (sender, direction, departure), in a canonical order.
std::vector<ItemDeparture> item_departures(const RingInstance& inst, const std::vector<Transfer>& transfers) {
  std::vector<ItemDeparture> items;
  for (const auto& t : transfers)
    for (Count m = 0; m < t.items; ++m)
      items.push_back({t.from, t.dir, departure(t, m, item_cost(inst, t.from, t.dir))});
  std::sort(items.begin(), items.end(), [](const ItemDeparture& a, const ItemDeparture& b) {
    return std::tie(a.from, a.dir, a.time) < std::tie(b.from, b.dir, b.time);
  });
  return items;
}

}  // namespace

TEST_CASE("schedule_asap: paced blocks stand for the very items sent one block each") {
  std::mt19937_64 rng(1729);
  std::size_t paced = 0, blocks = 0, unpaced_blocks = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const auto inst = concentrated_instance(rng, 2 + static_cast<std::size_t>(trial % 23), trial % 3 == 0);
    const auto F = redistribution::prefix_imbalances(redistribution::imbalances(inst));
    const auto flows = redistribution::flows_for_circulation(F, redistribution::optimal_integer_circulation(inst).x);
    for (redistribution::PortPolicy p : {redistribution::PortPolicy::next_then_prev, redistribution::PortPolicy::longest_first})
      for (bool late : {false, true}) {
        redistribution::AsapRules rules{p, redistribution::PortContention::ring_index, trial % 2 == 1};
        rules.as_late_as_possible = late;
        rules.by_runs = false;  // the executor's paced blocks against its own blocks of one item
        const auto with_pace = redistribution::schedule_asap(inst, flows.send_next, flows.send_prev, rules);
        rules.paced_blocks = false;
        const auto item_blocks = redistribution::schedule_asap(inst, flows.send_next, flows.send_prev, rules);
        INFO("trial " << trial << " policy " << static_cast<int>(p) << " late " << late);
        for (const auto& t : item_blocks) REQUIRE(t.period == 0.0);
        const auto report = replay(inst, as_plan(flows, with_pace));
        REQUIRE_MESSAGE(report.ok, report.error);
        // As soon as possible, paced items join only at their exact times; reversed time maps
        // whole blocks back, so positions agree to rounding.
        if (!late) REQUIRE(redistribution::makespan(with_pace) == redistribution::makespan(item_blocks));
        const auto a = item_departures(inst, with_pace), b = item_departures(inst, item_blocks);
        REQUIRE(a.size() == b.size());
        for (std::size_t k = 0; k < a.size(); ++k) {
          REQUIRE(a[k].from == b[k].from);
          REQUIRE(a[k].dir == b[k].dir);
          REQUIRE(a[k].time == doctest::Approx(b[k].time).epsilon(1e-12));
        }
        REQUIRE(with_pace.size() <= item_blocks.size());
        for (const auto& t : with_pace) paced += t.period != 0.0;
        blocks += with_pace.size();
        unpaced_blocks += item_blocks.size();
      }
  }
  // Concentrated loads make long forwarding chains: many runs are paced, and blocks are fewer.
  CHECK(paced > 500);
  CHECK(blocks * 2 < unpaced_blocks);
  MESSAGE("paced blocks: " << paced << ", blocks " << blocks << " against " << unpaced_blocks << " item by item");
}

namespace {

// Blocks in time order (from, direction and receiver break ties), to compare hand-outs.
std::vector<Transfer> by_start(std::vector<Transfer> v) {
  std::sort(v.begin(), v.end(), [](const Transfer& a, const Transfer& b) {
    return std::tie(a.start, a.from, a.dir, a.to) < std::tie(b.start, b.from, b.dir, b.to);
  });
  return v;
}

void require_same_blocks(const std::vector<Transfer>& a, const std::vector<Transfer>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    REQUIRE(a[k].from == b[k].from);
    REQUIRE(a[k].to == b[k].to);
    REQUIRE(a[k].dir == b[k].dir);
    REQUIRE(a[k].items == b[k].items);
    REQUIRE(a[k].start == b[k].start);
    REQUIRE(a[k].end == b[k].end);
    REQUIRE(a[k].period == b[k].period);
  }
}

}  // namespace

TEST_CASE("stream_asap hands each block out once it is final: the plan's blocks, at most 2n held at once") {
  const redistribution::PortPolicy policies[] = {redistribution::PortPolicy::next_then_prev, redistribution::PortPolicy::prev_then_next, redistribution::PortPolicy::longest_first,
                                 redistribution::PortPolicy::random_then_other, redistribution::PortPolicy::random_each_item};
  std::mt19937_64 rng(314159);
  std::size_t runs = 0, blocks = 0, peak_sum = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const std::size_t n = 2 + static_cast<std::size_t>(trial % 31);
    RingInstance inst;
    if (trial % 2 == 0) {
      inst = concentrated_instance(rng, n, trial % 4 == 0);
    } else {
      testing::InstanceShape shape;
      shape.n = n;
      shape.homogeneous = trial % 3 == 0;
      shape.integer_costs = trial % 5 != 0;
      shape.max_load = 20;
      inst = testing::random_instance(rng, shape);
    }
    const auto F = redistribution::prefix_imbalances(redistribution::imbalances(inst));
    const auto opt = redistribution::optimal_integer_circulation(inst);
    for (Count x : {opt.x, opt.x_min - 1, opt.x_max + 2}) {
      const auto flows = redistribution::flows_for_circulation(F, x);
      redistribution::AsapRules rules{policies[static_cast<std::size_t>(trial) % 5],
                      static_cast<redistribution::PortContention>(trial % 3), trial % 7 < 3,
                      static_cast<std::uint64_t>(trial)};
      rules.paced_blocks = trial % 11 != 0;
      rules.by_runs = false;  // the item-by-item executor's streaming (by runs: test_asap_by_runs.cpp)
      INFO("trial " << trial << " x " << x);
      const auto held = redistribution::schedule_asap(inst, flows.send_next, flows.send_prev, rules);
      // Streamed: the same blocks (a block handed out too early would have split in two).
      std::vector<Transfer> streamed;
      std::size_t peak = 0;
      const double t = redistribution::stream_asap(inst, flows.send_next, flows.send_prev, rules,
                                   [&streamed](const Transfer& b) { streamed.push_back(b); }, &peak);
      require_same_blocks(by_start(streamed), by_start(held));
      REQUIRE(t == redistribution::makespan(held));
      REQUIRE(peak <= 2 * n);
      // Without the early rules, a block leaves only when its sender opens another that way.
      redistribution::AsapRules late = rules;
      late.settle_early = false;
      std::vector<Transfer> reference;
      redistribution::stream_asap(inst, flows.send_next, flows.send_prev, late, [&reference](const Transfer& b) { reference.push_back(b); });
      require_same_blocks(by_start(reference), by_start(held));
      // In opening order, held to the end: the plan itself.
      rules.hand_out = redistribution::HandOut::in_opening_order;
      std::vector<Transfer> opening;
      redistribution::stream_asap(inst, flows.send_next, flows.send_prev, rules, [&opening](const Transfer& b) { opening.push_back(b); });
      require_same_blocks(opening, held);
      ++runs;
      blocks += held.size();
      peak_sum += peak;
    }
  }
  CHECK(runs == 4500);
  CHECK(peak_sum < blocks);  // blocks do leave before the end of the run
  MESSAGE(runs << " runs, " << blocks << " blocks, at most " << peak_sum << " held at once (summed over runs)");
}

TEST_CASE("BoundedHold keeps a schedule of up to its limit of blocks, and drops one of more") {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 200; ++trial) {
    const auto inst = concentrated_instance(rng, 2 + static_cast<std::size_t>(trial % 17), trial % 2 == 0);
    const auto flows = redistribution::flows_for_circulation(redistribution::prefix_imbalances(redistribution::imbalances(inst)), redistribution::optimal_integer_circulation(inst).x);
    const auto all = redistribution::schedule_asap(inst, flows.send_next, flows.send_prev, redistribution::PortPolicy::next_then_prev);
    for (std::size_t limit : {all.size(), all.size() + 1, all.size() == 0 ? std::size_t{0} : all.size() - 1}) {
      redistribution::BoundedHold held(limit);
      redistribution::stream_asap(inst, flows.send_next, flows.send_prev, redistribution::PortPolicy::next_then_prev, held.sink());
      INFO("trial " << trial << " limit " << limit << " of " << all.size());
      REQUIRE(held.complete() == (limit >= all.size()));
      REQUIRE(held.blocks.size() == (held.complete() ? all.size() : 0));
      if (held.complete()) require_same_blocks(by_start(held.blocks), by_start(all));
    }
  }
}
