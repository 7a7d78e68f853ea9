// Scheme markov-rule (src/policy/markov_rule.cpp): on two-level Markov load, each answer is the
// late rule's (planners/points/on_off_recursion.hpp) for what the members know, recomputed here from
// the trace's states rather than from the reports' speeds; on any other load or a ring of more
// than 8, forecast-lasting's answers.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "planners/points/on_off_recursion.hpp"
#include "planners/redistribution/load_balance.hpp"
#include "policy/predictions.hpp"
#include "policy/registry.hpp"
#include "policy_views.hpp"

using namespace ringsim;
using namespace ringsim::policy;
using points::LateRule;
using points::LoadStates;

namespace {

constexpr double load_factor = 0.25;

// Four members of unlike speeds over 40 iterations of about a second: moves and looks both cost
// a share of an iteration, so the rule has choices to make.
Ring markov_ring(std::size_t n = 4) {
  Ring r = uniform_ring(n, 100, 2e6, 0.004, 0.02, 1e7);
  r.facts.iterations = 40;
  for (std::size_t i = 0; i < n; ++i) r.facts.peak[i] = 1e8 * (1.0 + 0.5 * static_cast<double>(i % 3));
  const auto balance = redistribution::balanced_targets(r.facts.peak, r.facts.columns);
  r.loads.assign(balance.begin(), balance.end());
  return r;
}

// A geometric on/off trace: each iteration's joint state (bit i: member i loaded).
std::vector<LoadStates> on_off_states(std::size_t n, int iterations, unsigned seed) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution leave_available(0.15), leave_loaded(0.3), start(0.3);
  std::vector<LoadStates> states;
  LoadStates s = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (start(rng)) s |= LoadStates{1} << i;
  for (int it = 1; it <= iterations; ++it) {
    states.push_back(s);
    for (std::size_t i = 0; i < n; ++i) {
      const LoadStates bit = LoadStates{1} << i;
      if ((s & bit) ? leave_loaded(rng) : leave_available(rng)) s ^= bit;
    }
  }
  return states;
}

std::vector<double> speeds_in(const Ring& r, LoadStates s) {
  std::vector<double> speeds(r.facts.peak);
  for (std::size_t i = 0; i < speeds.size(); ++i)
    if (points::is_loaded(s, i)) speeds[i] *= load_factor;
  return speeds;
}

// What the run does with one answer of every member: the decision's targets (as
// redistribution_point.cpp computes them) and whether the columns move.
struct Step {
  Act act = Act::carry_on;
  std::optional<std::vector<double>> balanced_for;
  bool moved = false;
};

// Asks `policy` after iteration t, then as a redistribution point would; moves the ring's loads.
// `shown`: this iteration's speeds (a gather's), `common`: the snapshot's speeds and iteration.
Step step(RedistributionPolicy& policy, Ring& r, int t, const std::vector<double>& shown, int common_it) {
  Step out;
  MemberView v = view_of(r, 0, t, common_it);
  out.act = policy.after_iteration(v);
  if (out.act == Act::carry_on) return out;
  std::vector<double> measured;
  if (out.act == Act::gather_and_decide) {
    v.gathered = &shown;
    measured = shown;
  } else {
    measured = speeds_of(r.common);
  }
  out.balanced_for = policy.balance_for(v);
  const std::vector<long> loads = r.loads;
  Prediction p;
  p.fresh = out.act == Act::gather_and_decide;
  p.speeds = measured;
  const std::vector<Count> held(loads.begin(), loads.end());
  p.targets = redistribution::rebalanced_targets(held, out.balanced_for ? *out.balanced_for : measured, 0.0);
  p.moves = std::vector<long>(p.targets.begin(), p.targets.end()) != loads;
  p.transfer_time = 0.1;
  out.moved = policy.accept(v, p) && p.moves;
  if (out.moved) r.loads.assign(p.targets.begin(), p.targets.end());
  return out;
}

int common_after(std::size_t n, int t) { return t - (static_cast<int>(n / 2) - 1); }

// Asks markov-rule and forecast-lasting, each on its own copy of the ring, after every iteration t
// of `r`'s run, iteration i's speeds being speeds_at(i) and the common snapshot after t that of
// iteration common(t) (none while it is below 1); checks that every answer and every move is
// forecast-lasting's and returns how many answers were not carry_on.
template <class SpeedsAt, class Common>
int answers_as_forecast_lasting(Ring& r, SpeedsAt speeds_at, Common common) {
  auto policy = make_policy("markov-rule", r.facts.iterations);
  auto reference = make_policy("forecast-lasting", r.facts.iterations);
  int asked = 0;
  for (int t = 1; t < r.facts.iterations; ++t) {
    const int c = common(t);
    if (c >= 1) set_speeds(r, speeds_at(c), c);
    Ring copy = r;
    const Step got = step(*policy, r, t, speeds_at(t), std::max(c, 0));
    const Step want = step(*reference, copy, t, speeds_at(t), std::max(c, 0));
    CAPTURE(t);
    CHECK(got.act == want.act);
    CHECK(got.moved == want.moved);
    CHECK(r.loads == copy.loads);
    asked += got.act != Act::carry_on;
  }
  return asked;
}

// The late rule's answer recomputed from the states themselves: the law counted over consecutive
// snapshots, solved again when a leaving probability moved by more than a fifth.
class RuleFromStates {
 public:
  RuleFromStates(const Ring& r, const std::vector<LoadStates>& states) : r_(r), states_(states), counts_(r.facts.n) {}

  static constexpr int forecasting = -3;  // two levels not shown yet: forecast-lasting answers

  // The answer after iteration t (go_on, look, or a loads index); before the snapshots show two
  // levels (two members loaded, at once or in turn, or one back), forecasting.
  int act(int t, const std::vector<long>& loads) {
    const int c = common_after(r_.facts.n, t);
    if (c >= 2) counts_.add(during(c - 1), during(c));
    if (c >= 1) note_levels(c >= 2 ? during(c - 1) : 0, during(c));
    if (!two_levels_) return forecasting;
    if (!tables_) {
      points::RunModel m;
      m.iterations = r_.facts.iterations;
      m.columns = r_.facts.columns;
      m.flops_per_column = r_.facts.flops_per_column;
      m.initial_loads.assign(loads.begin(), loads.end());
      m.cost_next = r_.facts.cost_next;
      m.cost_prev = r_.facts.cost_prev;
      m.border_time = r_.facts.border_time;
      m.decision_flops = r_.facts.decision_flops;
      points::OnOffLaw law;
      law.load_factor = load_factor;
      tables_.emplace(m, r_.facts.peak, law, points::OnlineOptimal::TablesOnly{});
    }
    const points::OnOffLaw law = counts_.law(load_factor);
    auto drifted = [](double now, double then) { return std::abs(now - then) > 0.2 * then; };
    if (!rule_ || drifted(law.leave_available, solved_.leave_available) ||
        drifted(law.leave_loaded, solved_.leave_loaded)) {
      rule_ = tables_->late_rule(static_cast<int>(r_.facts.n / 2) - 1, gather_cost(r_.facts), law, t, true);
      solved_ = law;
    }
    int known_at = c;
    LoadStates k = c >= 1 ? during(c) : 0;
    if (looked_at_ > c) {
      known_at = looked_at_;
      k = during(looked_at_);
    }
    if (known_at < 1) return LateRule::go_on;
    l_ = tables_->loads_index(std::vector<Count>(loads.begin(), loads.end()));
    REQUIRE(l_ < tables_->loads_count());
    return rule_->act(t, l_, t - known_at, k);
  }
  int after_look(int t) {
    looked_at_ = t;
    return rule_->after_look(t, l_, during(t));
  }
  std::vector<double> speeds_for(int b) const { return tables_->speeds_balanced_to(static_cast<std::size_t>(b)); }

 private:
  LoadStates during(int it) const { return states_[static_cast<std::size_t>(it) - 1]; }
  void note_levels(LoadStates before, LoadStates now) {
    if (first_loaded_ == 0) first_loaded_ = now;
    int loaded = 0;
    for (std::size_t i = 0; i < r_.facts.n; ++i) loaded += points::is_loaded(now, i) ? 1 : 0;
    const bool returned = (before & ~now) != 0, another = (now & ~first_loaded_) != 0;
    two_levels_ = two_levels_ || returned || another || loaded >= 2;
  }
  const Ring& r_;
  const std::vector<LoadStates>& states_;
  points::LawCounts counts_;
  std::optional<points::OnlineOptimal> tables_;
  std::optional<LateRule> rule_;
  points::OnOffLaw solved_;
  LoadStates first_loaded_ = 0;
  bool two_levels_ = false;
  int looked_at_ = 0;
  std::size_t l_ = 0;
};

}  // namespace

TEST_CASE("markov-rule: on on/off load, every answer is the late rule's for what the members know") {
  int points_made = 0, looks = 0, points_after_looks = 0;
  for (unsigned seed = 1; seed <= 24; ++seed) {
    Ring r = markov_ring();
    const std::vector<LoadStates> states = on_off_states(r.facts.n, r.facts.iterations, seed);
    auto policy = make_policy("markov-rule", r.facts.iterations);
    auto other = make_policy("markov-rule", r.facts.iterations);  // another member, same knowledge
    auto forecast = make_policy("forecast-lasting", r.facts.iterations);
    RuleFromStates rule(r, states);
    for (int t = 1; t < r.facts.iterations; ++t) {
      const int c = common_after(r.facts.n, t);
      if (c >= 1) set_speeds(r, speeds_in(r, states[static_cast<std::size_t>(c) - 1]), c);
      const std::vector<double> shown = speeds_in(r, states[static_cast<std::size_t>(t) - 1]);
      const int expected = rule.act(t, r.loads);
      const Ring before = r;
      const Step got = step(*policy, r, t, shown, std::max(c, 0));
      Ring copy = before;
      const Step same = step(*other, copy, t, shown, std::max(c, 0));
      CHECK(same.act == got.act);
      CHECK(same.moved == got.moved);
      CAPTURE(seed);
      CAPTURE(t);
      if (expected == RuleFromStates::forecasting) {
        Ring mine = before;
        const Step want = step(*forecast, mine, t, shown, std::max(c, 0));
        CHECK(got.act == want.act);
        CHECK(r.loads == mine.loads);
        continue;
      }
      if (expected == LateRule::go_on) {
        CHECK(got.act == Act::carry_on);
        continue;
      }
      int target = expected;
      if (expected == LateRule::look) {
        REQUIRE(got.act == Act::gather_and_decide);
        ++looks;
        target = rule.after_look(t);
        if (target != LateRule::go_on) ++points_after_looks;
      } else {
        REQUIRE(got.act == Act::decide);
      }
      if (target == LateRule::go_on) {
        CHECK_FALSE(got.moved);
        CHECK_FALSE(got.balanced_for);
        continue;
      }
      REQUIRE(got.balanced_for);
      CHECK(*got.balanced_for == rule.speeds_for(target));
      points_made += got.moved ? 1 : 0;
    }
  }
  // The traces make the rule do each thing it can.
  CHECK(points_made > 10);
  CHECK(looks > 10);
  CHECK(points_after_looks > 0);
}

TEST_CASE("markov-rule: until a member is seen loaded, and from a third speed level on, it is forecast-lasting") {
  Ring r = markov_ring();
  // Every member at its nominal speed until iteration 20, then member 1 at 0.6 of its speed and
  // member 2 at a quarter: two factors, so not two levels. Throughout, the answers are those of
  // forecast-lasting asked since the start.
  std::vector<double> odd = r.facts.peak;
  odd[1] *= 0.6;
  odd[2] *= 0.25;
  auto speeds_at = [&](int it) { return it >= 20 && (it - 20) % 7 < 3 ? odd : r.facts.peak; };
  CHECK(answers_as_forecast_lasting(r, speeds_at, [](int t) { return t - 1; }) > 0);
}

TEST_CASE("markov-rule: one member's step to another speed is not taken for two levels") {
  // Member 1 falls to 0.4 of its speed after iteration 6 and stays there (a step, as to another
  // machine's speed); member 3 falls to 0.7 of its own after iteration 30. No report shows two
  // members at one fraction or a return, so every answer is forecast-lasting's asked since the start.
  Ring r = markov_ring();
  auto speeds_at = [&](int it) {
    std::vector<double> s = r.facts.peak;
    if (it > 6) s[1] *= 0.4;
    if (it > 30) s[3] *= 0.7;
    return s;
  };
  CHECK(answers_as_forecast_lasting(r, speeds_at, [&](int t) { return common_after(r.facts.n, t); }) > 0);
}

TEST_CASE("markov-rule: beyond 8 members it is forecast-lasting") {
  Ring r = markov_ring(9);
  const std::vector<LoadStates> states = on_off_states(9, r.facts.iterations, 5);
  auto speeds_at = [&](int it) { return speeds_in(r, states[static_cast<std::size_t>(it) - 1]); };
  CHECK(answers_as_forecast_lasting(r, speeds_at, [](int t) { return common_after(9, t); }) > 0);
  CHECK(make_policy("markov-rule", 10)->piggybacks_reports());
}
