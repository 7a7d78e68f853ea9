// Lemma 4's schedule computed by runs of items (lemma4_runs.hpp: lemma4_blocks_by_runs, which
// schedule_asap and stream_asap use for Lemma 4's rule) against the item-by-item executor
// (AsapRules::by_runs off), on thousands of seeded rings: shuffled and drifted targets, loads piled
// on a few processors (long forwarding chains), light and not light, circulations off the optimum,
// unit and integer costs, rings of 2 and 3, nothing to move. Integer costs keep every time an exact
// double, so there the blocks must be the very same, in the same order, held whole and streamed;
// with real costs (computed by runs from kRealCostsByRunsFrom items, forced here on small flows)
// each item leaves at the same time to rounding and the schedule replays. With integer costs the
// blocks are also as few as the format allows (require_fewest_blocks), and two small instances show
// where blocks beyond 2n come from: a forwarder's changes of pace, and a two-way sink's turns.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "instances.hpp"
#include "model/replay.hpp"
#include "planners/redistribution/asap_schedule.hpp"
#include "planners/redistribution/block_census.hpp"
#include "planners/redistribution/lemma4_runs.hpp"
#include "planners/redistribution/ring_math.hpp"
#include "planners/redistribution/system2_circulation.hpp"
#include "trial_count.hpp"

using namespace ringsim;

namespace {

enum class LoadFamily { random, shuffled, drifted, piled, still };

RingInstance family_instance(std::mt19937_64& rng, LoadFamily f, std::size_t n, bool integer_costs, int max_cost,
                             bool unit_costs) {
  testing::InstanceShape shape;
  shape.n = n;
  shape.homogeneous = unit_costs;
  shape.integer_costs = integer_costs;
  shape.max_cost = max_cost;
  shape.max_load = 3 + static_cast<Count>(rng() % 40);
  RingInstance inst = testing::random_instance(rng, shape);
  switch (f) {
    case LoadFamily::random:
      break;
    case LoadFamily::shuffled:
      inst.targets = inst.loads;
      std::shuffle(inst.targets.begin(), inst.targets.end(), rng);
      break;
    case LoadFamily::drifted: {  // targets for speeds drifting by up to +-20% each, as the benchmark's
      std::uniform_real_distribution<double> drift(0.8, 1.2);
      Count total = 0, given = 0;
      double weight = 0.0;
      std::vector<double> w(n);
      for (std::size_t i = 0; i < n; ++i) {
        total += inst.loads[i];
        w[i] = static_cast<double>(inst.loads[i]) * drift(rng);
        weight += w[i];
      }
      for (std::size_t i = 0; i < n; ++i) {
        inst.targets[i] = std::max<Count>(1, static_cast<Count>(static_cast<double>(total) * w[i] / weight));
        given += inst.targets[i];
      }
      for (std::size_t i = 0; given != total; i = (i + 1) % n) {
        if (given < total) ++inst.targets[i], ++given;
        else if (inst.targets[i] > 1) --inst.targets[i], --given;
      }
      break;
    }
    case LoadFamily::piled: {  // most items on one to three processors: long chains of forwarders
      Count spare = 0;
      for (Count& l : inst.loads) spare += l - 1, l = 1;
      std::uniform_int_distribution<std::size_t> pick(0, n - 1);
      for (int piles = 1 + static_cast<int>(rng() % 3); piles > 0; --piles) {
        const Count part = piles == 1 ? spare : std::uniform_int_distribution<Count>(0, spare)(rng);
        inst.loads[pick(rng)] += part;
        spare -= part;
      }
      break;
    }
    case LoadFamily::still:
      inst.targets = inst.loads;
      break;
  }
  return inst;
}

redistribution::AsapRules lemma4(redistribution::HandOut hand_out, bool by_runs) {
  redistribution::AsapRules rules(redistribution::PortPolicy::next_then_prev);
  rules.hand_out = hand_out;
  rules.by_runs = by_runs;
  return rules;
}

std::vector<Transfer> collect(const RingInstance& inst, const redistribution::EdgeFlows& flows, const redistribution::AsapRules& rules, double& time) {
  std::vector<Transfer> out;
  time = redistribution::stream_asap(inst, flows.send_next, flows.send_prev, rules, [&out](const Transfer& t) { out.push_back(t); });
  return out;
}

void require_identical(const std::vector<Transfer>& a, const std::vector<Transfer>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    INFO("block " << k);
    REQUIRE(a[k].from == b[k].from);
    REQUIRE(a[k].to == b[k].to);
    REQUIRE(a[k].dir == b[k].dir);
    REQUIRE(a[k].items == b[k].items);
    REQUIRE(a[k].start == b[k].start);
    REQUIRE(a[k].end == b[k].end);
    REQUIRE(a[k].period == b[k].period);
  }
}

// Each sender's departures each way, item by item.
std::map<std::pair<std::size_t, int>, std::vector<double>> departures(const RingInstance& inst,
                                                                      const std::vector<Transfer>& blocks) {
  std::map<std::pair<std::size_t, int>, std::vector<double>> out;
  for (const Transfer& t : blocks) {
    const double c = item_cost(inst, t.from, t.dir);
    auto& v = out[{t.from, t.dir == Direction::next ? 0 : 1}];
    for (Count m = 0; m < t.items; ++m) v.push_back(departure(t, m, c));
  }
  for (auto& [key, v] : out) std::sort(v.begin(), v.end());
  return out;
}


// No block of a flow (one sender, one direction) could take the first item of the flow's next
// block: when no other block uses the sender's or the receiver's port between them, the next item
// is neither back to back with the block nor on its pace (a block of one item takes any later
// item as its pace). Each block is then as long as the format allows (one pace, no other block on
// its ports), and cut so, a flow's items need that many blocks: the count is the schedule's.
void require_fewest_blocks(const RingInstance& inst, const std::vector<Transfer>& blocks) {
  std::map<std::pair<std::size_t, int>, std::vector<const Transfer*>> flows;
  for (const Transfer& t : blocks) flows[{t.from, t.dir == Direction::next ? 0 : 1}].push_back(&t);
  auto port_used_between = [&](const Transfer& a, const Transfer& b) {
    for (const Transfer& o : blocks)
      if ((o.from == a.from || o.to == a.to) && o.start >= a.end && o.start < b.start) return true;
    return false;
  };
  for (auto& [flow, v] : flows) {
    std::sort(v.begin(), v.end(), [](const Transfer* a, const Transfer* b) { return a->start < b->start; });
    for (std::size_t k = 0; k + 1 < v.size(); ++k) {
      const Transfer &a = *v[k], &b = *v[k + 1];
      if (port_used_between(a, b)) continue;
      const double c = item_cost(inst, a.from, a.dir);
      INFO("P" << a.from << " -> P" << a.to << ": blocks at " << a.start << " and " << b.start);
      REQUIRE(a.items > 1);
      REQUIRE(b.start != (a.period == 0.0 ? a.end : departure(a, a.items, c)));
    }
  }
}
}  // namespace

TEST_CASE("Lemma 4's schedule by runs: the item-by-item executor's very blocks, in its order, on thousands of rings") {
  std::mt19937_64 rng(20260424);
  const LoadFamily families[] = {LoadFamily::random, LoadFamily::shuffled, LoadFamily::drifted, LoadFamily::piled, LoadFamily::still};
  int compared = 0, by_runs = 0, exact = 0, rounded = 0, blocks = 0;
  long bit_different = 0, fewer_blocks = 0;  // real costs: departures not the executor's very doubles
  double worst = 0.0;
  const int trials = testing::trials(3000);
  for (int trial = 0; trial < trials; ++trial) {
    const LoadFamily family = families[trial % 5];
    const std::size_t n = trial % 13 == 0 ? 2 + static_cast<std::size_t>(trial % 2) : 2 + static_cast<std::size_t>(rng() % 48);
    const bool unit = trial % 7 == 0;
    const bool integer = unit || trial % 4 != 3;
    const RingInstance inst = family_instance(rng, family, n, integer, trial % 3 == 0 ? 2 : 4, unit);
    const auto F = redistribution::prefix_imbalances(redistribution::imbalances(inst));
    const auto opt = redistribution::optimal_integer_circulation(inst);
    for (Count x : {opt.x, opt.x_min - 1, opt.x_max + 1, opt.x + 2 + trial % 5}) {
      const auto flows = redistribution::flows_for_circulation(F, x);
      INFO("trial " << trial << " n " << n << " x " << x << " family " << static_cast<int>(family));
      double t_items = 0.0, t_runs = 0.0;
      std::vector<Transfer> items, runs;
      try {
        items = redistribution::schedule_asap(inst, flows.send_next, flows.send_prev, lemma4(redistribution::HandOut::in_opening_order, false));
      } catch (const std::logic_error&) {  // some items never available: by runs must say the same
        REQUIRE_THROWS_AS(redistribution::schedule_asap(inst, flows.send_next, flows.send_prev, lemma4(redistribution::HandOut::in_opening_order, true)),
                          std::logic_error);
        continue;
      }
      ++compared;
      const auto forced = redistribution::lemma4_blocks_by_runs(inst, flows, true, 0);  // by runs even with small real-cost flows
      by_runs += forced.has_value();
      runs = integer || !forced ? redistribution::schedule_asap(inst, flows.send_next, flows.send_prev, lemma4(redistribution::HandOut::in_opening_order, true))
                                : forced->blocks;
      const auto streamed_items = collect(inst, flows, lemma4(redistribution::HandOut::when_final, false), t_items);
      auto streamed_runs = collect(inst, flows, lemma4(redistribution::HandOut::when_final, true), t_runs);
      if (!integer && forced) {
        streamed_runs = redistribution::lemma4_blocks_by_runs(inst, flows, false, 0)->blocks;
        t_runs = forced->makespan;
      }
      blocks += static_cast<int>(runs.size());
      if (integer) {
        require_identical(runs, items);                   // the plan's order: as opened
        require_fewest_blocks(inst, runs);
        REQUIRE(redistribution::block_census(inst, runs).could_merge == 0);
        require_identical(streamed_runs, streamed_items);  // the stream's: as each becomes final
        REQUIRE(t_runs == t_items);
        ++exact;
      } else {
        RedistributionPlan plan;
        plan.transfers = runs;
        plan.send_next = flows.send_next;
        plan.send_prev = flows.send_prev;
        plan.time = redistribution::makespan(runs);
        const auto report = replay(inst, plan);
        INFO(report.error);
        REQUIRE(report.ok);
        const auto a = departures(inst, runs), b = departures(inst, items);
        REQUIRE(a.size() == b.size());
        for (const auto& [key, v] : a) {
          const auto& w = b.at(key);
          REQUIRE(v.size() == w.size());
          for (std::size_t k = 0; k < v.size(); ++k) {
            const double err = std::abs(v[k] - w[k]) / std::max(1.0, w[k]);
            worst = std::max(worst, err);
            REQUIRE(err < 1e-9);
            bit_different += v[k] != w[k];
          }
        }
        fewer_blocks += runs.size() < items.size();
        REQUIRE(std::abs(t_runs - t_items) <= 1e-9 * std::max(1.0, t_items));
        REQUIRE(streamed_runs.size() == runs.size());
        ++rounded;
      }
    }
  }
  MESSAGE(compared << " schedules compared (" << by_runs << " computed by runs): " << exact << " block for block, "
                   << rounded << " with real costs (worst item time " << worst << " relative); " << blocks << " blocks");
  MESSAGE("with real costs, by runs: " << bit_different << " departures differ from the executor's in their last bits, "
                                       << fewer_blocks << " schedules in fewer blocks");
  CHECK(by_runs > compared / 2);
  CHECK(exact >= 2 * trials);
  // Why real-cost flows below kRealCostsByRunsFrom stay item by item (lemma4_runs.hpp): by runs,
  // times are formulas, not the executor's running sums, and paced blocks join where it splits.
  CHECK(bit_different > 0);
  CHECK(fewer_blocks > 0);
}

TEST_CASE("Lemma 4's schedule by runs on larger shuffled and drifted rings: the same blocks as item by item") {
  std::mt19937_64 rng(17);
  int compared = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = 100 + static_cast<std::size_t>(rng() % 400);
    const RingInstance inst =
        family_instance(rng, trial % 2 == 0 ? LoadFamily::shuffled : LoadFamily::drifted, n, true, 1 + trial % 4, trial % 5 == 0);
    const auto flows = redistribution::flows_for_circulation(redistribution::prefix_imbalances(redistribution::imbalances(inst)), redistribution::optimal_integer_circulation(inst).x);
    INFO("trial " << trial);
    REQUIRE(redistribution::lemma4_blocks_by_runs(inst, flows, true).has_value());
    require_identical(redistribution::schedule_asap(inst, flows.send_next, flows.send_prev, lemma4(redistribution::HandOut::in_opening_order, true)),
                      redistribution::schedule_asap(inst, flows.send_next, flows.send_prev, lemma4(redistribution::HandOut::in_opening_order, false)));
    double ta = 0.0, tb = 0.0;
    require_identical(collect(inst, flows, lemma4(redistribution::HandOut::when_final, true), ta),
                      collect(inst, flows, lemma4(redistribution::HandOut::when_final, false), tb));
    REQUIRE(ta == tb);
    ++compared;
  }
  CHECK(compared == 40);
}

// Where the blocks beyond 2n come from: a forwarder sends its own items back to
// back, then catches up with what arrives, at the pace of the slowest link those items crossed;
// along a chain whose links get faster, the hops of its second half send at more and more paces
// (up to L / 2), one block each. A block has one pace, so no cut of these very times does better:
// L hops need about L^2 / 8 blocks.
TEST_CASE("Lemma 4's schedule by runs: a chain of ever faster links needs a block per pace, far more than 2n") {
  const std::size_t L = 40;  // P_0 .. P_(L-1) send clockwise to P_L; P_(L+1) closes the ring
  const std::size_t n = L + 2;
  RingInstance inst;
  inst.bidirectional = true;
  inst.loads.assign(n, 1);
  inst.targets.assign(n, 1);
  inst.cost_next.assign(n, 1.0);
  inst.cost_prev.assign(n, 1.0);
  std::vector<Count> next(n, 0), prev(n, 0);
  for (std::size_t k = 0; k < L; ++k) {
    inst.loads[k] = 10;
    inst.targets[L] += 9;
    inst.cost_next[k] = static_cast<double>(L - k);
    next[k] = static_cast<Count>(k + 1) * 9;
  }
  const auto runs = redistribution::schedule_asap(inst, next, prev, lemma4(redistribution::HandOut::in_opening_order, true));
  require_identical(runs, redistribution::schedule_asap(inst, next, prev, lemma4(redistribution::HandOut::in_opening_order, false)));
  require_fewest_blocks(inst, runs);
  RedistributionPlan plan;
  plan.transfers = runs;
  plan.send_next = next;
  plan.send_prev = prev;
  plan.time = redistribution::makespan(runs);
  REQUIRE(replay(inst, plan).ok);
  std::vector<int> per_sender(n, 0);
  for (const Transfer& t : runs) ++per_sender[t.from];
  CHECK(runs.size() == 228);
  CHECK(runs.size() > 5 * n);
  CHECK(per_sender[L - 1] == 19);  // the last hop: its own pace and 18 of its upstream links'
  const redistribution::BlockCensus census = redistribution::block_census(inst, runs);
  CHECK(census.blocks == 228);
  CHECK(census.flows == L);
  CHECK(census.most_in_one_flow == 19);
  CHECK(census.into_two_way == 0);
  CHECK(census.could_merge == 0);
}

// The other source of extra blocks: a processor receiving from both sides takes one item from
// each in turn when both senders forward items that reach them slowly. One block per item: the
// receiver takes one block at a time (what replay checks and the simulation's receiver relies on,
// taking a block's items before the next block's), so each sender's items, though at one steady
// pace, cannot be one block overlapping the other's.
TEST_CASE("Lemma 4's schedule by runs: two senders alternating into a two-way sink take a block per turn") {
  RingInstance inst;
  inst.bidirectional = true;
  inst.loads = {7, 1, 1, 1, 7};
  inst.targets = {1, 1, 13, 1, 1};
  inst.cost_next = {3, 1, 1, 1, 1};  // P_0 -> P_1 slow, P_1 -> P_2 fast
  inst.cost_prev = {1, 1, 1, 1, 3};  // P_4 -> P_3 slow, P_3 -> P_2 fast
  const std::vector<Count> next = {6, 6, 0, 0, 0}, prev = {0, 0, 0, 6, 6};
  const auto runs = redistribution::schedule_asap(inst, next, prev, lemma4(redistribution::HandOut::in_opening_order, true));
  require_identical(runs, redistribution::schedule_asap(inst, next, prev, lemma4(redistribution::HandOut::in_opening_order, false)));
  require_fewest_blocks(inst, runs);
  std::vector<Transfer> into_sink, merged;
  for (const Transfer& t : runs)
    (t.to == 2 ? into_sink : merged).push_back(t);
  REQUIRE(into_sink.size() == 12);  // 6 items from each side, in turn
  const redistribution::BlockCensus census = redistribution::block_census(inst, runs);
  CHECK(census.two_way_receivers == 1);
  CHECK(census.into_two_way == 12);
  CHECK(census.two_way_turns == 12);
  CHECK(census.could_merge == 0);
  for (std::size_t k = 0; k < into_sink.size(); ++k) {
    CHECK(into_sink[k].items == 1);
    CHECK(into_sink[k].from == (k % 2 == 0 ? 1u : 3u));
  }
  // Each side's six items do leave at one pace (every 3): as two overlapping paced blocks they
  // break the one-port rule as blocks state it.
  for (std::size_t from : {1u, 3u}) {
    std::vector<double> starts;
    for (const Transfer& t : into_sink)
      if (t.from == from) starts.push_back(t.start);
    Transfer whole = *std::find_if(into_sink.begin(), into_sink.end(), [&](const Transfer& t) { return t.from == from; });
    whole.items = static_cast<Count>(starts.size());
    whole.period = starts[1] - starts[0];
    const double c = item_cost(inst, from, whole.dir);
    for (std::size_t m = 0; m < starts.size(); ++m) CHECK(starts[m] == departure(whole, static_cast<Count>(m), c));
    whole.end = departure(whole, whole.items - 1, c) + c;
    merged.push_back(whole);
  }
  RedistributionPlan plan;
  plan.transfers = merged;
  plan.send_next = next;
  plan.send_prev = prev;
  plan.time = redistribution::makespan(merged);
  const auto report = replay(inst, plan);
  CHECK_FALSE(report.ok);
  CHECK(report.error.find("one-port violated: P2 receives") != std::string::npos);
}

TEST_CASE("Block census: a block split in two where one would do is counted, and only there") {
  RingInstance inst;
  inst.bidirectional = true;
  inst.loads = {9, 1, 1, 1};
  inst.targets = {1, 3, 3, 5};
  inst.cost_next = {2, 1, 1, 1};
  inst.cost_prev = {1, 1, 1, 1};
  const std::vector<Count> next = {8, 6, 4, 0}, prev = {0, 0, 0, 0};
  const auto blocks = redistribution::schedule_asap(inst, next, prev, lemma4(redistribution::HandOut::in_opening_order, false));
  REQUIRE(redistribution::block_census(inst, blocks).could_merge == 0);
  // P_0's back-to-back block cut after its third item: the two halves could be one.
  std::vector<Transfer> split;
  for (const Transfer& t : blocks) {
    if (t.from == 0 && t.items > 3 && t.period == 0.0) {
      Transfer a = t, b = t;
      a.items = 3;
      a.end = a.start + 3 * inst.cost_next[0];
      b.items = t.items - 3;
      b.start = a.end;
      split.push_back(a);
      split.push_back(b);
    } else {
      split.push_back(t);
    }
  }
  REQUIRE(split.size() == blocks.size() + 1);
  const redistribution::BlockCensus census = redistribution::block_census(inst, split);
  CHECK(census.could_merge == 1);
  CHECK(census.blocks == blocks.size() + 1);
  CHECK(census.most_in_one_flow >= 2);
}
