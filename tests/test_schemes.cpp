// The scheme registry (policy/scheme.hpp, schemes.def): every scheme a config can name is one
// entry, an online policy or a reference chosen before the run, found and refused one way; a
// reference's points are what its planner chose, and the fixed scheme that simulates them
// redistributes after exactly those points.
#include <doctest/doctest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "model/errors.hpp"
#include "planners/points/chosen_targets_plan.hpp"
#include "planners/points/hindsight_plan.hpp"
#include "point_runs.hpp"
#include "policy/registry.hpp"

namespace ringsim {
namespace {

using policy::Knows;
using policy::SchemeEntry;

// A concrete scheme of each syntax an entry lists ("every-K" -> "every-7", "after:a,b,.." -> "after:3").
std::vector<std::string> samples_of(const SchemeEntry& e) {
  std::vector<std::string> out;
  for (std::size_t from = 0; from != std::string::npos;) {
    const std::size_t to = e.name.find(", ", from);
    std::string s = e.name.substr(from, to - from);
    from = to == std::string::npos ? to : to + 2;
    if (s.size() > 2 && s.compare(s.size() - 2, 2, "-K") == 0) s = s.substr(0, s.size() - 1) + "7";
    if (s.rfind("after:", 0) == 0) s = "after:3";
    out.push_back(s);
  }
  return out;
}

// The iterations after which the policy of `scheme` gathers and decides, asked as a member is.
std::vector<int> decision_points(const std::string& scheme, int iterations) {
  auto p = policy::make_policy(scheme, iterations);
  policy::RingFacts facts;
  facts.n = 1;
  facts.iterations = iterations;
  std::vector<int> out;
  for (int it = 1; it <= iterations; ++it) {
    policy::MemberView v;
    v.ring = &facts;
    v.iteration = it;
    if (p->after_iteration(v) != policy::Act::carry_on) out.push_back(it);
  }
  return out;
}

// A run whose speeds change between iterations: member i at peak * mult[i][it - 1] in iteration it.
struct IterationRun {
  points::RunModel model;
  std::vector<double> peak;
  std::vector<std::vector<double>> mult;
};

IterationRun draw_iteration_run(std::mt19937_64& rng) {
  IterationRun run;
  std::uniform_int_distribution<int> members(2, 4), iterations(2, 9);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const std::size_t n = static_cast<std::size_t>(members(rng));
  testing::draw_run_costs(rng, n, run.model, run.peak);
  run.model.iterations = iterations(rng);
  run.mult.assign(n, {});
  for (auto& m : run.mult) {
    double level = 1.0;
    for (int it = 0; it < run.model.iterations; ++it) {
      if (unit(rng) < 0.3) level = 0.2 + 0.8 * unit(rng);
      m.push_back(level);
    }
  }
  const IterationRun* r = &run;
  run.model.finish = [r](std::size_t i, int it, double start, double flops) {
    const int k = std::min(std::max(it, 1), r->model.iterations);
    return start + flops / (r->peak[i] * r->mult[i][static_cast<std::size_t>(k) - 1]);
  };
  run.model.decision_speeds = [r](int j, const std::vector<Count>&, const std::vector<double>&, double, double) {
    std::vector<double> s(r->peak.size());
    for (std::size_t i = 0; i < s.size(); ++i) s[i] = r->peak[i] * r->mult[i][static_cast<std::size_t>(j) - 1];
    return s;
  };
  return run;
}

}  // namespace

TEST_CASE("every scheme is one entry: an online policy or a reference, found and refused one way") {
  const auto& entries = policy::scheme_entries();
  std::string listed;
  std::set<std::string> seen;
  for (const SchemeEntry& e : entries) {
    INFO(e.name);
    listed += (listed.empty() ? "" : ", ") + e.name;
    CHECK(!e.description.empty());
    CHECK(static_cast<bool>(e.make) != e.is_reference());  // a factory or a planner, never both
    const bool clairvoyant = e.knows == Knows::future_traces || e.knows == Knows::load_states_and_law;
    CHECK(clairvoyant == e.is_reference());  // what no member can know is a reference's only
    if (e.is_reference()) {
      CHECK(policy::reference_scheme(e.name) == &e);
      CHECK_THROWS_AS(policy::make_policy(e.name, 10), std::logic_error);
      CHECK(policy::scheme_redistributes(e.name, 10, "cfg"));
    } else {
      const auto samples = samples_of(e);
      CHECK(!samples.empty());
      for (const std::string& s : samples) {
        INFO(s);
        CHECK(policy::reference_scheme(s) == nullptr);
        CHECK(policy::make_policy(s, 20) != nullptr);
        CHECK(seen.insert(s).second);
      }
    }
  }
  CHECK(listed == policy::scheme_syntaxes());
  // The recommended policy comes first after the paper's fixed schemes.
  REQUIRE(entries.size() > 2);
  CHECK(entries[0].name.find("every-K") != std::string::npos);
  CHECK(entries[1].name == "markov-rule");
}

TEST_CASE("the fixed scheme of a reference's points redistributes after exactly those points") {
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 300; ++trial) {
    const int iterations = 2 + static_cast<int>(rng() % 30);
    std::vector<int> points;
    for (int it = 1; it < iterations; ++it)
      if (rng() % 4 == 0) points.push_back(it);
    INFO("trial ", trial, " scheme ", policy::fixed_scheme_of(points));
    CHECK(decision_points(policy::fixed_scheme_of(points), iterations) == points);
    CHECK(policy::scheme_redistributes(policy::fixed_scheme_of(points), iterations, "cfg") == !points.empty());
  }
  CHECK(policy::fixed_scheme_of({}) == policy::kBaselineScheme);
}

TEST_CASE("a fixed scheme's points are those its policy redistributes after, and other schemes have none") {
  std::mt19937_64 rng(43);
  for (int trial = 0; trial < 300; ++trial) {
    const int iterations = 2 + static_cast<int>(rng() % 40);
    std::vector<std::string> fixed = {"none", "once", "every-" + std::to_string(1 + rng() % 12)};
    std::vector<int> listed;
    for (int it = 1; it < iterations; ++it)
      if (rng() % 5 == 0) listed.push_back(it);
    if (!listed.empty()) fixed.push_back(policy::fixed_scheme_of(listed));
    for (const auto& s : fixed) {
      INFO("trial ", trial, " scheme ", s, " iterations ", iterations);
      CHECK(policy::is_fixed_scheme(s, iterations));
      REQUIRE(policy::fixed_points_of(s, iterations).has_value());
      CHECK(*policy::fixed_points_of(s, iterations) == decision_points(s, iterations));
    }
  }
  for (const std::string s : {"adaptive", "adaptive-lasting", "hindsight", "online-optimal", "every", "nonsense"}) {
    INFO(s);
    CHECK_FALSE(policy::is_fixed_scheme(s, 20));
    CHECK_FALSE(policy::fixed_points_of(s, 20).has_value());
  }
  CHECK_THROWS_AS(policy::is_fixed_scheme("every-0", 20), InputError);
  CHECK_THROWS_AS(policy::is_fixed_scheme("after:30", 20), InputError);
  // In the time of its text: two billion iterations are not enumerated.
  CHECK(policy::is_fixed_scheme("every-1", 2000000000));
}

TEST_CASE("only the clairvoyant references check themselves in the simulation") {
  for (const auto& e : policy::scheme_entries()) {
    INFO(e.name);
    CHECK(e.checked_in_simulation == (e.knows == Knows::future_traces));
  }
}

TEST_CASE("references plan through their entries what their planners choose, and write their report") {
  const SchemeEntry* hindsight = policy::reference_scheme("hindsight");
  const SchemeEntry* targets = policy::reference_scheme("hindsight-targets");
  REQUIRE(hindsight);
  REQUIRE(targets);
  std::mt19937_64 rng(7);
  RunConfig cfg;
  int moved = 0;
  for (int trial = 0; trial < 300; ++trial) {
    IterationRun run = draw_iteration_run(rng);
    policy::ReferenceInput in;
    in.config = &cfg;
    in.model = &run.model;
    in.peak = run.peak;
    INFO("trial ", trial);

    RunResult r;
    const policy::ReferencePlan plan = hindsight->plan(in, r);
    const points::HindsightPlan direct = points::plan_hindsight(run.model);
    CHECK(plan.points == direct.points);
    CHECK(plan.point_loads.empty());  // each point balances for its decision speeds
    REQUIRE(r.hindsight.has_value());
    CHECK(r.hindsight->simulated_as == policy::fixed_scheme_of(direct.points));
    CHECK(r.hindsight->predicted_makespan == direct.predicted_makespan);
    CHECK_FALSE(r.online_optimal.has_value());

    RunResult t;
    const policy::ReferencePlan chosen = targets->plan(in, t);
    const points::ChosenTargetsPlan best = points::plan_hindsight_chosen_targets(run.model);
    CHECK(chosen.points == best.points);
    // Choosing the targets too never predicts a slower run than balancing for the present.
    CHECK(best.predicted_makespan <= direct.predicted_makespan * (1 + 1e-12));
    REQUIRE(chosen.point_loads.size() == best.points.size());
    for (std::size_t k = 0; k < best.points.size(); ++k) CHECK(chosen.point_loads.at(best.points[k]) == best.point_loads[k]);
    REQUIRE(t.hindsight.has_value());
    CHECK(t.hindsight->point_loads == best.point_loads);
    moved += !plan.points.empty();
  }
  CHECK(moved > 30);  // the instances test the choice, not one side of it
}

TEST_CASE("references refuse, before any run, the configs they cannot plan for") {
  for (const SchemeEntry& e : policy::scheme_entries()) {
    if (!e.is_reference()) continue;
    RunConfig cfg;
    cfg.scheme.name = e.name;
    cfg.rebuild.emplace_back();
    CHECK_THROWS_WITH_AS(policy::check_scheme_fits(cfg, "'c.json'"),
                         ("'c.json': scheme '" + e.name + "' does not combine with rebuilds (its recursion knows one ring)").c_str(),
                         InputError);
  }
  RunConfig nominal;
  nominal.scheme.name = "hindsight-targets";
  nominal.traces.placement = TracePlacement::nominal_time;
  CHECK_THROWS_WITH_AS(policy::check_scheme_fits(nominal, "cfg"), doctest::Contains("needs traces 'placement': 'iteration'"),
                       InputError);
  RunConfig walk;
  walk.scheme.name = "online-optimal";
  walk.traces.source = TraceSource::random_walk;
  CHECK_THROWS_WITH_AS(policy::check_scheme_fits(walk, "cfg"), doctest::Contains("needs traces {source: on-off}"), InputError);
  walk.scheme.name = "every-5";  // an online policy asks nothing of the traces
  CHECK_NOTHROW(policy::check_scheme_fits(walk, "cfg"));
}

}  // namespace ringsim
