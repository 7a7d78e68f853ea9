// Lemma 4's schedule computed by runs of items (lemma4_runs.hpp: lemma4_blocks_by_runs, which
// schedule_asap and stream_asap use for Lemma 4's rule) against the item-by-item executor
// (AsapRules::by_runs off), on thousands of seeded rings: shuffled and drifted targets, loads piled
// on a few processors (long forwarding chains), light and not light, circulations off the optimum,
// unit and integer costs, rings of 2 and 3, nothing to move. Integer costs keep every time an exact
// double, so there the blocks must be the very same, in the same order, held whole and streamed;
// with real costs (computed by runs from kRealCostsByRunsFrom items, forced here on small flows)
// each item leaves at the same time to rounding and the schedule replays.
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
#include "planners/redistribution/lemma4_runs.hpp"
#include "planners/redistribution/ring_math.hpp"
#include "planners/redistribution/system2_circulation.hpp"

using namespace ringsim;

namespace {

enum class Family { random, shuffled, drifted, piled, still };

RingInstance family_instance(std::mt19937_64& rng, Family f, std::size_t n, bool integer_costs, int max_cost,
                             bool unit_costs) {
  testing::InstanceShape shape;
  shape.n = n;
  shape.homogeneous = unit_costs;
  shape.integer_costs = integer_costs;
  shape.max_cost = max_cost;
  shape.max_load = 3 + static_cast<Count>(rng() % 40);
  RingInstance inst = testing::random_instance(rng, shape);
  switch (f) {
    case Family::random:
      break;
    case Family::shuffled:
      inst.targets = inst.loads;
      std::shuffle(inst.targets.begin(), inst.targets.end(), rng);
      break;
    case Family::drifted: {  // targets for speeds drifting by up to +-20% each, as the benchmark's
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
    case Family::piled: {  // most items on one to three processors: long chains of forwarders
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
    case Family::still:
      inst.targets = inst.loads;
      break;
  }
  return inst;
}

AsapRules lemma4(HandOut hand_out, bool by_runs) {
  AsapRules rules(PortPolicy::next_then_prev);
  rules.hand_out = hand_out;
  rules.by_runs = by_runs;
  return rules;
}

std::vector<Transfer> collect(const RingInstance& inst, const EdgeFlows& flows, const AsapRules& rules, double& time) {
  std::vector<Transfer> out;
  time = stream_asap(inst, flows.send_next, flows.send_prev, rules, [&out](const Transfer& t) { out.push_back(t); });
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

}  // namespace

TEST_CASE("Lemma 4's schedule by runs: the item-by-item executor's very blocks, in its order, on thousands of rings") {
  std::mt19937_64 rng(20260424);
  const Family families[] = {Family::random, Family::shuffled, Family::drifted, Family::piled, Family::still};
  int compared = 0, by_runs = 0, exact = 0, rounded = 0, blocks = 0;
  double worst = 0.0;
  for (int trial = 0; trial < 3000; ++trial) {
    const Family family = families[trial % 5];
    const std::size_t n = trial % 13 == 0 ? 2 + static_cast<std::size_t>(trial % 2) : 2 + static_cast<std::size_t>(rng() % 48);
    const bool unit = trial % 7 == 0;
    const bool integer = unit || trial % 4 != 3;
    const RingInstance inst = family_instance(rng, family, n, integer, trial % 3 == 0 ? 2 : 4, unit);
    const auto F = prefix_imbalances(imbalances(inst));
    const auto opt = optimal_integer_circulation(inst);
    for (Count x : {opt.x, opt.x_min - 1, opt.x_max + 1, opt.x + 2 + trial % 5}) {
      const auto flows = flows_for_circulation(F, x);
      INFO("trial " << trial << " n " << n << " x " << x << " family " << static_cast<int>(family));
      double t_items = 0.0, t_runs = 0.0;
      std::vector<Transfer> items, runs;
      try {
        items = schedule_asap(inst, flows.send_next, flows.send_prev, lemma4(HandOut::in_opening_order, false));
      } catch (const std::logic_error&) {  // some items never available: by runs must say the same
        REQUIRE_THROWS_AS(schedule_asap(inst, flows.send_next, flows.send_prev, lemma4(HandOut::in_opening_order, true)),
                          std::logic_error);
        continue;
      }
      ++compared;
      const auto forced = lemma4_blocks_by_runs(inst, flows, true, 0);  // by runs even with small real-cost flows
      by_runs += forced.has_value();
      runs = integer || !forced ? schedule_asap(inst, flows.send_next, flows.send_prev, lemma4(HandOut::in_opening_order, true))
                                : forced->blocks;
      const auto streamed_items = collect(inst, flows, lemma4(HandOut::when_final, false), t_items);
      auto streamed_runs = collect(inst, flows, lemma4(HandOut::when_final, true), t_runs);
      if (!integer && forced) {
        streamed_runs = lemma4_blocks_by_runs(inst, flows, false, 0)->blocks;
        t_runs = forced->makespan;
      }
      blocks += static_cast<int>(runs.size());
      if (integer) {
        require_identical(runs, items);                   // the plan's order: as opened
        require_identical(streamed_runs, streamed_items);  // the stream's: as each becomes final
        REQUIRE(t_runs == t_items);
        ++exact;
      } else {
        RedistributionPlan plan;
        plan.transfers = runs;
        plan.send_next = flows.send_next;
        plan.send_prev = flows.send_prev;
        plan.time = makespan(runs);
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
          }
        }
        REQUIRE(std::abs(t_runs - t_items) <= 1e-9 * std::max(1.0, t_items));
        REQUIRE(streamed_runs.size() == runs.size());
        ++rounded;
      }
    }
  }
  MESSAGE(compared << " schedules compared (" << by_runs << " computed by runs): " << exact << " block for block, "
                   << rounded << " with real costs (worst item time " << worst << " relative); " << blocks << " blocks");
  CHECK(by_runs > compared / 2);
  CHECK(exact >= 6000);
}

TEST_CASE("Lemma 4's schedule by runs on larger shuffled and drifted rings: the same blocks as item by item") {
  std::mt19937_64 rng(17);
  int compared = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = 100 + static_cast<std::size_t>(rng() % 400);
    const RingInstance inst =
        family_instance(rng, trial % 2 == 0 ? Family::shuffled : Family::drifted, n, true, 1 + trial % 4, trial % 5 == 0);
    const auto flows = flows_for_circulation(prefix_imbalances(imbalances(inst)), optimal_integer_circulation(inst).x);
    INFO("trial " << trial);
    REQUIRE(lemma4_blocks_by_runs(inst, flows, true).has_value());
    require_identical(schedule_asap(inst, flows.send_next, flows.send_prev, lemma4(HandOut::in_opening_order, true)),
                      schedule_asap(inst, flows.send_next, flows.send_prev, lemma4(HandOut::in_opening_order, false)));
    double ta = 0.0, tb = 0.0;
    require_identical(collect(inst, flows, lemma4(HandOut::when_final, true), ta),
                      collect(inst, flows, lemma4(HandOut::when_final, false), tb));
    REQUIRE(ta == tb);
    ++compared;
  }
  CHECK(compared == 40);
}
