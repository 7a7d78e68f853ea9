// Heterogeneous bidirectional rings (HiPC 2004, Section 6): System 2 as a GLPK linear program and
// its rounding, the slides' general bound, Lemma 4 on light redistributions, the general-case
// heuristic, and the exact time-indexed program checked against a brute force.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "instances.hpp"
#include "streamed_plan.hpp"
#include "io/redistribution_json.hpp"
#include "model/errors.hpp"
#include "model/replay.hpp"
#include "oracles/heterogeneous_oracles.hpp"
#include "planners/redistribution/redistribution_algorithms.hpp"
#include "planners/redistribution/block_budget.hpp"
#include "planners/redistribution/bounds.hpp"
#include "planners/redistribution/exact_time_indexed.hpp"
#include "planners/redistribution/light_glpk.hpp"
#include "planners/redistribution/redistribution_planner.hpp"
#include "planners/redistribution/ring_math.hpp"
#include "planners/redistribution/system2_circulation.hpp"
#include "trial_count.hpp"

using namespace ringsim;

namespace {

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)}); }

std::string describe(const RingInstance& inst) {
  std::ostringstream os;
  auto list = [&os](const char* name, const auto& v) {
    os << ' ' << name << '=';
    for (std::size_t i = 0; i < v.size(); ++i) os << (i ? "," : "") << v[i];
  };
  list("loads", inst.loads);
  list("targets", inst.targets);
  list("cost_next", inst.cost_next);
  list("cost_prev", inst.cost_prev);
  return os.str();
}

double random_cost(std::mt19937_64& rng, int max_cost, bool integer) {
  if (integer) return static_cast<double>(std::uniform_int_distribution<int>(1, max_cost)(rng));
  return std::uniform_real_distribution<double>(0.5, max_cost)(rng);
}

void random_costs(std::mt19937_64& rng, RingInstance& inst, int max_cost, bool integer) {
  inst.bidirectional = true;
  inst.cost_next.resize(inst.size());
  inst.cost_prev.resize(inst.size());
  for (auto& c : inst.cost_next) c = random_cost(rng, max_cost, integer);
  for (auto& c : inst.cost_prev) c = random_cost(rng, max_cost, integer);
}

// Concentrated loads (and, optionally, targets): the items must travel through processors that
// hold a single item, which is what breaks the light hypothesis and makes forwarding wait.
RingInstance skewed_instance(std::mt19937_64& rng, std::size_t n, Count max_load, int max_cost, bool integer,
                             bool skew_targets) {
  RingInstance inst;
  std::uniform_int_distribution<Count> load(1, max_load);
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  inst.targets.resize(n);
  for (auto& t : inst.targets) t = load(rng);
  Count total = 0;
  for (Count t : inst.targets) total += t;
  const Count spare = total - static_cast<Count>(n);
  auto concentrate = [&](std::vector<Count>& v) {
    v.assign(n, 1);
    const Count first = spare / 2 + std::uniform_int_distribution<Count>(0, spare - spare / 2)(rng);
    v[pick(rng)] += first;
    v[pick(rng)] += spare - first;
  };
  concentrate(inst.loads);
  if (skew_targets) concentrate(inst.targets);
  random_costs(rng, inst, max_cost, integer);
  return inst;
}

// Load-balancing-like drift: every edge moves a few items, processors hold many (mostly light).
RingInstance local_instance(std::mt19937_64& rng, std::size_t n, Count depth, Count base, int max_cost, bool integer) {
  RingInstance inst;
  inst.loads.resize(n);
  for (auto& l : inst.loads) l = base + std::uniform_int_distribution<Count>(0, base)(rng);
  inst.targets = inst.loads;
  std::uniform_int_distribution<Count> move(-depth, depth);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t s = (i + 1) % n;
    const Count m = move(rng);  // items from P_i to P_(i+1), negative the other way
    if (inst.targets[i] - m >= 1 && inst.targets[s] + m >= 1) {
      inst.targets[i] -= m;
      inst.targets[s] += m;
    }
  }
  random_costs(rng, inst, max_cost, integer);
  return inst;
}

// One of the three families above, chosen by the trial number.
RingInstance mixed_instance(std::mt19937_64& rng, int trial, std::size_t n, bool integer) {
  switch (trial % 4) {
    case 0: {
      testing::InstanceShape s;
      s.n = n;
      s.homogeneous = false;
      s.max_load = 1 + trial % 12;
      s.max_cost = 2 + trial % 7;
      s.integer_costs = integer;
      return testing::random_instance(rng, s);
    }
    case 1: return skewed_instance(rng, n, 1 + trial % 10, 2 + trial % 7, integer, false);
    case 2: return skewed_instance(rng, n, 1 + trial % 10, 2 + trial % 7, integer, true);
    default: return local_instance(rng, n, 1 + trial % 5, 1 + trial % 9, 2 + trial % 7, integer);
  }
}

bool light_circulation(const RingInstance& inst, Count x) {
  const auto delta = redistribution::imbalances(inst);
  const auto F = redistribution::prefix_imbalances(delta);
  for (std::size_t i = 0; i < inst.size(); ++i)
    if (redistribution::items_sent(delta, F, i, x) > inst.loads[i]) return false;
  return true;
}

void require_replays(const RingInstance& inst, const RedistributionPlan& plan, const std::string& what) {
  const auto rep = replay(inst, plan);
  REQUIRE_MESSAGE(rep.ok, what << " (" << plan.planner << "): " << rep.error << describe(inst));
}

}  // namespace

TEST_CASE("bi-light-glpk: one of the two roundings of the System 2 LP is the integer optimum") {
  std::mt19937_64 rng(2004'06'01);
  int floor_only = 0, ceil_only = 0, both = 0, integral = 0, light_instances = 0, moved = 0;
  for (int trial = 0; trial < 1600; ++trial) {
    const std::size_t n = trial % 100 == 7 ? 150 + static_cast<std::size_t>(trial % 150) : 2 + trial % 48;
    const auto inst = mixed_instance(rng, trial, n, trial % 3 != 0);
    const auto opt = redistribution::optimal_integer_circulation(inst);
    const auto r = redistribution::solve_system2_relaxation(inst);
    INFO("trial " << trial << describe(inst));
    REQUIRE(r.lp_tau <= opt.tau * (1 + 1e-9) + 1e-12);
    REQUIRE(near(std::min(r.tau_floor, r.tau_ceil), opt.tau));
    REQUIRE(near(r.tau, opt.tau));
    REQUIRE(r.x >= opt.x_min);
    REQUIRE(r.x <= opt.x_max);
    if (r.x_floor == r.x_ceil) ++integral;
    else if (near(r.tau_floor, opt.tau) && near(r.tau_ceil, opt.tau)) ++both;
    else (near(r.tau_floor, opt.tau) ? floor_only : ceil_only)++;

    const auto plan = redistribution::plan_redistribution(inst, "bi-light-glpk");
    require_replays(inst, plan, "bi-light-glpk");
    REQUIRE(plan.time >= opt.tau * (1 - 1e-9));
    REQUIRE(!plan.notes.empty());
    REQUIRE(plan.notes.front().find("LP value") != std::string::npos);
    // The planner keeps a light optimum whenever System 2 has one.
    REQUIRE(light_circulation(inst, r.x) == opt.light);
    if (r.moved_to_light) ++moved;
    if (opt.light) {
      // Lemma 4: a light integer optimum of System 2 is executed in exactly tau.
      ++light_instances;
      REQUIRE(near(plan.time, opt.tau));
      REQUIRE(plan.optimal);
    }
  }
  MESSAGE("System 2 LP rounding over 1600 instances: optimal rounding floor only " << floor_only << ", ceil only "
          << ceil_only << ", both " << both << ", LP circulation already integral " << integral << "; "
          << light_instances << " light instances, on " << moved
          << " of them the rounding was not light and a tying light circulation was taken instead");
}

TEST_CASE("bi-light-glpk: 2-rings, a large ring, and the rings it refuses") {
  // On a 2-ring both links join the same two processors, so one-port forbids using them at once
  // (P1 receives from both): the 7 items all take P0's cheaper link, P0 -> P1 "backwards".
  RingInstance two;
  two.bidirectional = true;
  two.loads = {9, 1};
  two.targets = {2, 8};
  two.cost_next = {3.0, 5.0};
  two.cost_prev = {2.0, 1.0};
  const auto r = redistribution::solve_system2_relaxation(two);
  CHECK(r.lp_tau == doctest::Approx(14.0));
  CHECK(r.tau == doctest::Approx(14.0));
  CHECK(redistribution::optimal_integer_circulation(two).tau == doctest::Approx(14.0));
  const auto plan = redistribution::plan_redistribution(two, "bi-light-glpk");
  require_replays(two, plan, "2-ring");
  CHECK(plan.time == doctest::Approx(14.0));
  CHECK(plan.optimal);
  CHECK(plan.send_prev[0] == 7);
  CHECK(oracles::brute_force_makespan(two) == 14);

  std::mt19937_64 rng(77);
  const auto big = local_instance(rng, 3000, 4, 20, 4, false);
  const auto rb = redistribution::solve_system2_relaxation(big);
  CHECK(near(rb.tau, redistribution::optimal_integer_circulation(big).tau));

  RingInstance uni;
  uni.loads = {3, 1};
  uni.targets = {2, 2};
  uni.cost_next = {1.0, 1.0};
  CHECK_THROWS_AS(redistribution::plan_light_glpk(uni), std::invalid_argument);
}

TEST_CASE("the slides' general bound never exceeds the System 2 integer optimum") {
  std::mt19937_64 rng(323);
  int equal = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t n = 2 + (trial % 10 == 3 ? static_cast<std::size_t>(trial % 290) : static_cast<std::size_t>(trial % 30));
    const auto inst = mixed_instance(rng, trial, n, trial % 2 == 0);
    const double slides = *redistribution::slides_bidirectional_lower_bound(inst);
    const double tau = redistribution::optimal_integer_circulation(inst).tau;
    REQUIRE_MESSAGE(slides <= tau * (1 + 1e-9) + 1e-12, "trial " << trial << describe(inst));
    if (near(slides, tau)) ++equal;
  }
  MESSAGE("slides' bound == System 2 integer optimum on " << equal << " of 3000 instances");
}

TEST_CASE("light heterogeneous instances: auto meets System 2 with Lemma 4's schedule") {
  std::mt19937_64 rng(4);
  int light = 0, heuristic_at_tau = 0;
  for (int trial = 0; light < 1500; ++trial) {
    REQUIRE(trial < 20000);
    const std::size_t n = trial % 50 == 9 ? 100 + static_cast<std::size_t>(trial % 200) : 2 + trial % 40;
    const auto inst = mixed_instance(rng, trial, n, trial % 3 != 1);
    if (inst.homogeneous()) continue;
    const auto opt = redistribution::optimal_integer_circulation(inst);
    if (!opt.light) continue;
    ++light;
    INFO("trial " << trial << describe(inst));
    const auto plan = redistribution::plan_redistribution(inst, "auto");
    require_replays(inst, plan, "auto");
    REQUIRE(plan.planner == "bi-light");
    REQUIRE(plan.optimal);
    REQUIRE(near(plan.time, opt.tau));
    const auto h = redistribution::plan_redistribution(inst, "bi-heuristic");
    require_replays(inst, h, "bi-heuristic");
    REQUIRE(h.time >= opt.tau * (1 - 1e-9));
    if (near(h.time, opt.tau)) ++heuristic_at_tau;
  }
  // The heuristic tries the light circulation with Lemma 4's rule, so it must meet tau too.
  CHECK(heuristic_at_tau == light);
  MESSAGE("light instances: " << light << ", bi-light at tau on all, bi-heuristic at tau on " << heuristic_at_tau);
}

TEST_CASE("bi-heuristic: always feasible and never below the bounds on non-light instances") {
  std::mt19937_64 rng(1999);
  int nonlight = 0, at_tau = 0;
  double sum_gap = 0.0, max_gap = 0.0;
  for (int trial = 0; nonlight < 2500; ++trial) {
    REQUIRE(trial < 40000);
    const std::size_t n = trial % 40 == 5 ? 60 + static_cast<std::size_t>(trial % 240) : 2 + trial % 12;
    const auto inst = mixed_instance(rng, trial, n, trial % 3 != 2);
    const auto opt = redistribution::optimal_integer_circulation(inst);
    if (opt.light) continue;
    ++nonlight;
    INFO("trial " << trial << describe(inst));
    const auto plan = redistribution::plan_redistribution(inst, "bi-heuristic");
    require_replays(inst, plan, "bi-heuristic");
    REQUIRE(plan.time >= opt.tau * (1 - 1e-9));
    if (inst.size() <= 300) REQUIRE(plan.time >= *redistribution::slides_bidirectional_lower_bound(inst) * (1 - 1e-9));
    REQUIRE(plan.optimal == near(plan.time, opt.tau));
    const double gap = plan.time / opt.tau - 1.0;
    sum_gap += gap;
    max_gap = std::max(max_gap, gap);
    if (near(plan.time, opt.tau)) ++at_tau;
  }
  MESSAGE("bi-heuristic on " << nonlight << " non-light instances: meets the System 2 bound on " << at_tau
          << ", gap to the bound mean " << sum_gap / nonlight << ", max " << max_gap);
}

TEST_CASE("bi-heuristic scales to long rings") {
  std::mt19937_64 rng(1000000);
  const auto inst = local_instance(rng, 100000, 8, 2, 4, false);  // base 2: far from light
  const auto opt = redistribution::optimal_integer_circulation(inst);
  CHECK_FALSE(opt.light);
  const auto plan = redistribution::plan_redistribution(inst, "bi-heuristic");
  require_replays(inst, plan, "n = 100000");
  CHECK(plan.time >= opt.tau * (1 - 1e-9));
  MESSAGE("n = 100000, non-light: heuristic " << plan.time << ", System 2 bound " << opt.tau);
}

TEST_CASE("exact: the time-indexed program equals the brute force on tiny rings, 2-rings included") {
  std::mt19937_64 rng(31);
  int compared = 0, above_tau = 0;
  for (int trial = 0; trial < 360; ++trial) {
    const std::size_t n = 2 + trial % 3;
    testing::InstanceShape shape;
    shape.n = n;
    shape.homogeneous = false;
    shape.max_load = 2 + trial % 4;
    shape.max_cost = 3;
    const RingInstance inst = trial % 2 == 0 ? skewed_instance(rng, n, 1 + trial % 5, 3, true, trial % 4 == 0)
                                             : testing::random_instance(rng, shape);
    Count items = 0;
    for (Count l : inst.loads) items += l;
    if (items > 14) continue;
    const auto bf = oracles::brute_force_makespan(inst);
    REQUIRE(bf.has_value());
    INFO("trial " << trial << describe(inst));
    // Solve the program even when the heuristic meets the bound, so that the program is checked.
    const auto ex = redistribution::plan_exact(inst, redistribution::ExactOptions{true});
    require_replays(inst, ex, "exact (program)");
    REQUIRE(ex.optimal);
    REQUIRE(near(ex.time, static_cast<double>(*bf)));
    const auto plan = redistribution::plan_redistribution(inst, "exact");
    require_replays(inst, plan, "exact");
    REQUIRE(near(plan.time, static_cast<double>(*bf)));
    REQUIRE(plan.optimal);
    REQUIRE(plan.time >= redistribution::instance_lower_bound(inst) * (1 - 1e-9));
    REQUIRE(plan.time <= redistribution::plan_redistribution(inst, "bi-heuristic").time * (1 + 1e-9));
    if (!near(ex.time, redistribution::optimal_integer_circulation(inst).tau)) ++above_tau;
    ++compared;
  }
  CHECK(compared >= 250);
  MESSAGE("exact == brute force on " << compared << " tiny rings (" << above_tau << " above the System 2 bound)");
}

TEST_CASE("exact: System 2's bound is not always reachable outside the light case") {
  // Found by the random search: P3 must feed P0 through the slow direct link and the fast
  // three-hop path at once; P2 forwards with a single item in hand and waits.
  RingInstance inst;
  inst.bidirectional = true;
  inst.loads = {8, 1, 1, 7};
  inst.targets = {13, 1, 1, 2};
  inst.cost_next = {9, 2, 9, 8};
  inst.cost_prev = {5, 1, 3, 1};
  const auto opt = redistribution::optimal_integer_circulation(inst);
  CHECK(opt.tau == doctest::Approx(12.0));
  CHECK_FALSE(opt.light);
  const auto ex = redistribution::plan_redistribution(inst, "exact");
  require_replays(inst, ex, "exact");
  CHECK(ex.time == doctest::Approx(14.0));
  CHECK(ex.optimal);
  CHECK(ex.lower_bound == doctest::Approx(14.0));
  CHECK(oracles::brute_force_makespan(inst) == 14);
  CHECK(redistribution::plan_redistribution(inst, "bi-heuristic").time == doctest::Approx(14.0));
}

namespace {

struct GapStats {
  int compared = 0, heuristic_optimal = 0, optimum_above_bound = 0;
  double sum_gap = 0.0, max_gap = 0.0, sum_lb_gap = 0.0, max_lb_gap = 0.0;

  // Checks exact against the heuristic and the bound, and accumulates the heuristic's gaps.
  void add(const RingInstance& inst, const RedistributionPlan& heuristic, const RedistributionPlan& exact) {
    const double tau = redistribution::optimal_integer_circulation(inst).tau;
    require_replays(inst, exact, "exact");
    REQUIRE(exact.optimal);
    REQUIRE(exact.time <= heuristic.time * (1 + 1e-9));
    REQUIRE(exact.time >= tau * (1 - 1e-9));
    const double gap = heuristic.time / exact.time - 1.0, lb_gap = heuristic.time / tau - 1.0;
    sum_gap += gap;
    max_gap = std::max(max_gap, gap);
    sum_lb_gap += lb_gap;
    max_lb_gap = std::max(max_lb_gap, lb_gap);
    if (near(heuristic.time, exact.time)) ++heuristic_optimal;
    if (!near(exact.time, tau)) ++optimum_above_bound;
    ++compared;
  }

  std::string summary() const {
    std::ostringstream os;
    os << compared << " rings: heuristic optimal on " << heuristic_optimal << ", gap to the optimum mean "
       << sum_gap / compared << " max " << max_gap << "; gap to the System 2 bound mean " << sum_lb_gap / compared
       << " max " << max_lb_gap << "; optimum above the bound on " << optimum_above_bound;
    return os.str();
  }
};

}  // namespace

TEST_CASE("bi-heuristic against the exact optimum on small rings") {
  std::mt19937_64 rng(8);
  GapStats random_rings;
  int too_hard = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const std::size_t n = 4 + trial % 5;
    const auto inst = skewed_instance(rng, n, 1 + trial % 12, 2 + trial % 9, true, trial % 3 == 0);
    if (redistribution::optimal_integer_circulation(inst).light) continue;
    INFO("trial " << trial << describe(inst));
    const auto h = redistribution::plan_redistribution(inst, "bi-heuristic");
    try {
      random_rings.add(inst, h, redistribution::plan_redistribution(inst, "exact"));
    } catch (const std::invalid_argument&) {
      ++too_hard;  // the exact solver's size or time limit
    }
  }
  CHECK(too_hard == 0);
  CHECK(random_rings.compared >= 800);
  MESSAGE("bi-heuristic vs exact, random non-light rings (n = 4..8, costs 1..10): " << random_rings.summary());

  // The hardest instances a scan of 20000 random rings (n <= 8, costs <= 9) found: the heuristic
  // misses the optimum, or the optimum misses System 2's bound (tiny ones checked by brute force).
  struct Hard {
    RingInstance inst;
    double optimum;
    bool brute_force;
  };
  auto ring = [](std::vector<Count> l, std::vector<Count> t, std::vector<double> cn, std::vector<double> cp) {
    RingInstance inst;
    inst.bidirectional = true;
    inst.loads = std::move(l);
    inst.targets = std::move(t);
    inst.cost_next = std::move(cn);
    inst.cost_prev = std::move(cp);
    return inst;
  };
  const std::vector<Hard> hard = {
      {ring({1, 11, 1, 1}, {1, 1, 10, 2}, {6, 9, 2, 2}, {9, 5, 6, 7}), 69, false},
      {ring({1, 1, 1, 9}, {1, 1, 9, 1}, {5, 4, 2, 4}, {5, 2, 5, 9}), 40, true},
      {ring({11, 1, 1, 1}, {1, 1, 1, 11}, {4, 8, 5, 9}, {7, 9, 6, 3}), 58, false},
      {ring({1, 2, 13, 1}, {1, 1, 5, 10}, {5, 1, 7, 1}, {3, 4, 3, 1}), 33, true},
  };
  GapStats known;
  for (const auto& c : hard) {
    INFO(describe(c.inst));
    const auto ex = redistribution::plan_redistribution(c.inst, "exact");
    CHECK(ex.time == doctest::Approx(c.optimum));
    if (c.brute_force) CHECK(oracles::brute_force_makespan(c.inst) == static_cast<long>(c.optimum));
    known.add(c.inst, redistribution::plan_redistribution(c.inst, "bi-heuristic"), ex);
  }
  MESSAGE("bi-heuristic vs exact, known hard rings: " << known.summary());
}

TEST_CASE("exact: commensurable real costs, and the instances it refuses") {
  RingInstance inst;
  inst.bidirectional = true;
  inst.loads = {1, 6, 1};
  inst.targets = {3, 1, 4};
  inst.cost_next = {0.5, 1.25, 0.75};
  inst.cost_prev = {1.5, 0.25, 1.0};
  REQUIRE(redistribution::commensurable_unit(inst).has_value());
  CHECK(*redistribution::commensurable_unit(inst) == doctest::Approx(0.25));
  const auto ex = redistribution::plan_exact(inst, redistribution::ExactOptions{true});
  require_replays(inst, ex, "exact, quarter units");
  CHECK(ex.time >= redistribution::instance_lower_bound(inst) * (1 - 1e-9));
  CHECK(ex.time <= redistribution::plan_redistribution(inst, "bi-heuristic").time * (1 + 1e-9));

  RingInstance irrational = inst;
  irrational.cost_next[1] = std::sqrt(2.0);
  CHECK_FALSE(redistribution::commensurable_unit(irrational).has_value());
  CHECK_THROWS_WITH_AS(redistribution::plan_redistribution(irrational, "exact"), doctest::Contains("not commensurable"),
                       std::invalid_argument);

  // Costs 1 and 1.001: a unit of 0.001 makes every horizon thousands of slots long.
  RingInstance fine = inst;
  fine.cost_next = {1.0, 1.001, 1.0};
  fine.cost_prev = {1.001, 1.0, 1.0};
  CHECK_THROWS_WITH_AS(redistribution::plan_exact(fine, redistribution::ExactOptions{true}), doctest::Contains("limit"), std::invalid_argument);
}

namespace {

std::vector<Transfer> sorted_by_start(std::vector<Transfer> v) {
  std::sort(v.begin(), v.end(), [](const Transfer& a, const Transfer& b) {
    return std::tie(a.start, a.from, a.dir, a.to) < std::tie(b.start, b.from, b.dir, b.to);
  });
  return v;
}

}  // namespace

// Streamed, blocks come as each is final (asap_schedule.hpp), not by start: the text is the plan's
// once both lists are put in time order, and the same whichever way the stream went.
TEST_CASE("bi-light and bi-heuristic stream their schedules: the plan's head and blocks, a budget refused before any block") {
  std::map<std::string, std::string> first_text;
  std::mt19937_64 rng(1123);
  int streamed[2] = {0, 0}, not_light = 0, cut_short = 0;
  // Under the sanitizers at least through trial 388, a ring of 430 whose search spends its work
  // budget. (The text written in pieces, at trial 1164 only, is also the case of a plan's text over
  // a megabyte, tests/test_redistribution_json.cpp.)
  const int trials = std::max(testing::trials(1500), 389);
  for (int trial = 0; trial < trials; ++trial) {
    testing::InstanceShape shape;
    // Now and then a ring of about 200, or 400: long enough that bi-heuristic's search spends its
    // work budget (counted below) and the plan's text is written in pieces.
    shape.n = 2 + static_cast<std::size_t>(trial % 40) + (trial % 97 == 0 ? (trial % 388 == 0 ? 400 : 200) : 0);
    shape.homogeneous = trial % 7 == 0;
    shape.integer_costs = trial % 3 != 0;
    shape.max_load = 2 + trial % 30;
    shape.max_cost = 6;
    auto inst = testing::random_instance(rng, shape);
    if (trial % 2 == 0) {  // most items on one processor: long forwarding chains, rarely light
      Count spare = 0;
      for (auto& l : inst.loads) {
        spare += l - 1;
        l = 1;
      }
      inst.loads[rng() % inst.size()] += spare;
    }
    for (const char* algo : {"bi-light", "bi-heuristic"}) {
     // Held after one run, or (nothing may be held) run again and handed out block by block.
     for (std::size_t hold_limit : {redistribution::kHeldBlocksLimit, std::size_t{0}}) {
      const auto streamed_plan = testing::stream_plan(inst, algo, hold_limit);  // the head first, or it throws
      REQUIRE(streamed_plan.streamed);
      const auto& blocks = streamed_plan.blocks;
      const std::string& text = streamed_plan.text;
      const RedistributionPlan plan = redistribution::plan_redistribution(inst, algo);
      INFO("trial " << trial << " " << algo << " hold_limit " << hold_limit);
      RedistributionPlan replayed = plan;
      replayed.transfers = blocks;
      REQUIRE(text == io::plan_to_json_text(replayed));  // the head, then the blocks as handed out
      RedistributionPlan in_time_order = plan;
      in_time_order.transfers = sorted_by_start(plan.transfers);
      replayed.transfers = sorted_by_start(blocks);
      REQUIRE(io::plan_to_json_text(replayed) == io::plan_to_json_text(in_time_order));
      // Held after one run or run again: the same text.
      const std::string key = std::to_string(trial) + algo;
      if (first_text.count(key) == 0) first_text[key] = text;
      else REQUIRE(text == first_text[key]);
      replayed.transfers = blocks;
      const ReplayReport rep = replay(inst, replayed);
      REQUIRE_MESSAGE(rep.ok, rep.error);
      ++streamed[std::string(algo) == "bi-heuristic"];
      not_light += !plan.notes.empty() && plan.notes.front().rfind("not light", 0) == 0;
      cut_short += !plan.notes.empty() && plan.notes.back() == "search cut short by its work budget";
      // A budget one block short is refused before the head, or any block, is handed out.
      if (plan.transfers.size() > 1) {
        const redistribution::BlockBudget budget(plan.transfers.size() - 1);
        bool handed = false;
        CHECK_THROWS_AS(redistribution::stream_redistribution(
                            inst, algo, [&](const RedistributionPlan&) { handed = true; },
                            [&](const Transfer&) { handed = true; }, hold_limit),
                        InputError);
        CHECK_FALSE(handed);
      }
     }
    }
  }
  CHECK(streamed[0] == 2 * trials);
  CHECK(streamed[1] == 2 * trials);
  CHECK(not_light > 2 * trials / 5);  // bi-light's executor path, not only Lemma 4's closed form
  CHECK(cut_short > 0);               // a search that stopped on its budget streams its best run too
  MESSAGE((not_light / 2) << " of the " << trials << " bi-light plans not light");
}
