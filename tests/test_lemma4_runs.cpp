// The Lemma 4 schedule's time computed by runs of items (lemma4_runs.hpp) against the executor that
// plays it item by item (asap_schedule.hpp), on thousands of seeded rings and every kind of
// processor the flows of one circulation make: sources, forwarders both ways, one- and two-way
// sinks, long chains and contested ports. Integer costs keep every sum exact, so there the two
// must agree exactly; with real costs they agree to rounding.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "instances.hpp"
#include "planners/redistribution/asap_schedule.hpp"
#include "planners/redistribution/lemma4_runs.hpp"
#include "planners/redistribution/ring_math.hpp"
#include "planners/redistribution/system2_circulation.hpp"
#include "trial_count.hpp"

using namespace ringsim;

namespace {

// Lemma 4's rule played item by item: the reference (schedule_asap computes it by runs otherwise).
redistribution::AsapRules item_by_item() {
  redistribution::AsapRules rules(redistribution::PortPolicy::next_then_prev);
  rules.by_runs = false;
  return rules;
}

std::string show(const RingInstance& inst, Count x) {
  std::string s = "x " + std::to_string(x) + " loads";
  for (Count l : inst.loads) s += " " + std::to_string(l);
  s += " targets";
  for (Count t : inst.targets) s += " " + std::to_string(t);
  s += " next";
  for (double c : inst.cost_next) s += " " + std::to_string(c);
  s += " prev";
  for (double c : inst.cost_prev) s += " " + std::to_string(c);
  return s;
}

// Loads piled on a few processors (long forwarding chains through processors holding one item),
// or spread (short chains, many sources and sinks).
RingInstance chain_instance(std::mt19937_64& rng, int trial) {
  testing::InstanceShape shape;
  shape.n = 3 + static_cast<std::size_t>(trial % 37);
  shape.homogeneous = trial % 11 == 0;
  shape.integer_costs = trial % 2 == 0;
  shape.max_cost = 2 + trial % 5;
  shape.max_load = 2 + trial % 19;
  RingInstance inst = testing::random_instance(rng, shape);
  if (trial % 3 == 0) {
    Count spare = 0;
    for (Count& l : inst.loads) spare += l - 1, l = 1;
    std::uniform_int_distribution<std::size_t> pick(0, inst.size() - 1);
    for (int piles = 1 + trial % 3; piles > 0; --piles) {
      const Count part = piles == 1 ? spare : std::uniform_int_distribution<Count>(0, spare)(rng);
      inst.loads[pick(rng)] += part;
      spare -= part;
    }
  }
  return inst;
}

}  // namespace

TEST_CASE("Lemma 4 by runs equals the item-by-item execution on thousands of rings") {
  std::mt19937_64 rng(20040426);
  int exact = 0, rounded = 0, not_applicable = 0;
  double worst = 0.0;
  const int trials = testing::trials(6000);
  for (int trial = 0; trial < trials; ++trial) {
    const RingInstance inst = chain_instance(rng, trial);
    const auto F = redistribution::prefix_imbalances(redistribution::imbalances(inst));
    const Count x0 = redistribution::optimal_integer_circulation(inst).x;
    for (Count x : {x0, x0 - 1, x0 + 1, x0 + 3 + trial % 7, x0 - 3 - trial % 5}) {
      const auto flows = redistribution::flows_for_circulation(F, x);
      const double items = redistribution::makespan(redistribution::schedule_asap(inst, flows.send_next, flows.send_prev, item_by_item()));
      const auto runs = redistribution::lemma4_makespan_by_runs(inst, flows);
      if (!runs) {
        ++not_applicable;
        continue;
      }
      INFO(show(inst, x));
      if (inst.homogeneous() || trial % 2 == 0) {
        REQUIRE(*runs == items);
        ++exact;
      } else {
        const double rel = std::abs(*runs - items) / std::max(1.0, items);
        worst = std::max(worst, rel);
        REQUIRE(rel <= 1e-9);
        ++rounded;
      }
    }
  }
  MESSAGE("exact on " << exact << " (integer costs), within " << worst << " on " << rounded
                      << " (real costs); " << not_applicable << " flows circling the whole ring one way");
  CHECK(exact > 5 * trials / 3);
  CHECK(rounded > 5 * trials / 3);
}

TEST_CASE("Lemma 4 by runs declines what has no run structure") {
  RingInstance two;
  two.bidirectional = true;
  two.loads = {5, 1};
  two.targets = {2, 4};
  two.cost_next = {1.0, 2.0};
  two.cost_prev = {1.5, 1.0};
  const auto F = redistribution::prefix_imbalances(redistribution::imbalances(two));
  CHECK_FALSE(redistribution::lemma4_makespan_by_runs(two, redistribution::flows_for_circulation(F, 0)).has_value());
  RingInstance three = two;
  three.loads = {3, 3, 3};
  three.targets = {3, 3, 3};
  three.cost_next = {1.0, 1.0, 1.0};
  three.cost_prev = {1.0, 1.0, 1.0};
  const auto G = redistribution::prefix_imbalances(redistribution::imbalances(three));
  // A circulation of 2 items round the ring and nothing else: every processor forwards.
  CHECK_FALSE(redistribution::lemma4_makespan_by_runs(three, redistribution::flows_for_circulation(G, 2)).has_value());
  CHECK(redistribution::lemma4_makespan_by_runs(three, redistribution::flows_for_circulation(G, 0)) == 0.0);
}

TEST_CASE("Lemma 4 by runs on long rings with loads of about 100 (the benchmark's families)") {
  std::mt19937_64 rng(99);
  int compared = 0;
  const int long_rings = testing::trials(24, 2);
  for (int trial = 0; trial < long_rings; ++trial) {
    const std::size_t n = 200 + static_cast<std::size_t>(trial) * 120;
    RingInstance inst;
    inst.bidirectional = true;
    std::uniform_int_distribution<Count> load(50, 150);
    std::uniform_real_distribution<double> cost(0.5, 4.0), drift(0.8, 1.2);
    for (std::size_t i = 0; i < n; ++i) inst.loads.push_back(load(rng));
    inst.targets = inst.loads;
    if (trial % 2 == 0) {
      std::shuffle(inst.targets.begin(), inst.targets.end(), rng);
    } else {  // one item at a time from a processor that drifted slower to one that drifted faster
      for (int k = 0; k < 20 * static_cast<int>(n); ++k) {
        const std::size_t a = rng() % n, b = rng() % n;
        if (inst.targets[a] > 1 && drift(rng) > 1.0) --inst.targets[a], ++inst.targets[b];
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      inst.cost_next.push_back(trial % 4 == 1 ? 2.0 : cost(rng));
      inst.cost_prev.push_back(trial % 4 == 1 ? 3.0 : cost(rng));
    }
    const auto F = redistribution::prefix_imbalances(redistribution::imbalances(inst));
    const auto opt = redistribution::optimal_integer_circulation(inst);
    for (Count x : {opt.x, opt.x_min, opt.x_max}) {
      const auto flows = redistribution::flows_for_circulation(F, x);
      const double items = redistribution::makespan(redistribution::schedule_asap(inst, flows.send_next, flows.send_prev, item_by_item()));
      const auto runs = redistribution::lemma4_makespan_by_runs(inst, flows);
      INFO("n " << n << " trial " << trial << " x " << x);
      REQUIRE(runs.has_value());
      if (trial % 4 == 1) REQUIRE(*runs == items);  // integer costs: exact
      else REQUIRE(std::abs(*runs - items) <= 1e-9 * items);
      ++compared;
    }
  }
  CHECK(compared == 3 * long_rings);
}
