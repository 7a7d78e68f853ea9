// The online-optimal recursion (planners/points/on_off_recursion.hpp) against brute force: on seeded
// small runs, every trajectory of the members' on/off states enumerated with its probability,
// each evaluated by hindsight's own model (points::predicted_makespan). The recursion's expected
// makespan must be what its points cost along every trajectory, weighted; no worse than never
// moving, than any fixed set of points, or than random online rules; no better than hindsight
// (which knows each trajectory); and equal to a plain recursive expectimax over the tree, as is
// its bound over moves to any target.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>

#include "planners/points/hindsight_plan.hpp"
#include "planners/points/on_off_recursion.hpp"
#include "planners/redistribution/load_balance.hpp"
#include "point_runs.hpp"
#include "trial_count.hpp"

using namespace ringsim;
using points::LoadStates;

namespace {

struct SmallRun {
  points::RunModel model;  // the costs; its speed functions are set per trajectory
  std::vector<double> peak;
  points::OnOffLaw law;
};

// A run of n members and `iterations` iterations under a random on/off law.
SmallRun small_run(std::mt19937_64& rng, std::size_t n, int iterations) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  SmallRun r;
  points::RunModel& m = r.model;
  m.iterations = iterations;
  testing::draw_run_costs(rng, n, m, r.peak);
  r.law.load_factor = 0.1 + 0.8 * unit(rng);
  r.law.leave_available = 0.05 + 0.9 * unit(rng);
  r.law.leave_loaded = 0.05 + 0.9 * unit(rng);
  r.law.loaded_at_start = unit(rng);
  return r;
}

double speed(const SmallRun& r, LoadStates s, std::size_t i) {
  return r.peak[i] * (((s >> i) & 1u) ? r.law.load_factor : 1.0);
}

// P(next | now), member by member (not the recursion's kernel).
double transition(const SmallRun& r, LoadStates now, LoadStates next) {
  double p = 1.0;
  for (std::size_t i = 0; i < r.peak.size(); ++i) {
    const bool was = (now >> i) & 1u, is = (next >> i) & 1u;
    const double leave = was ? r.law.leave_loaded : r.law.leave_available;
    p *= was == is ? 1.0 - leave : leave;
  }
  return p;
}

double start_probability(const SmallRun& r, LoadStates s) {
  double p = 1.0;
  for (std::size_t i = 0; i < r.peak.size(); ++i) p *= ((s >> i) & 1u) ? r.law.loaded_at_start : 1.0 - r.law.loaded_at_start;
  return p;
}

// Hindsight's RunModel for one trajectory: states[0] before iteration 1, states[it] during it.
struct Trajectory {
  std::vector<LoadStates> states;
  double probability = 0.0;
};

points::RunModel hindsight_model(const SmallRun& r, const Trajectory& tr) {
  points::RunModel m = r.model;
  const SmallRun* run = &r;
  const Trajectory* t = &tr;
  m.finish = [run, t](std::size_t i, int it, double start, double flops) {
    return start + flops / speed(*run, t->states[static_cast<std::size_t>(it)], i);
  };
  m.decision_speeds = [run, t](int j, const std::vector<Count>& loads, const std::vector<double>&, double, double) {
    std::vector<double> s(loads.size());
    for (std::size_t i = 0; i < s.size(); ++i) s[i] = speed(*run, t->states[static_cast<std::size_t>(j)], i);
    return s;
  };
  return m;
}

std::vector<Trajectory> every_trajectory(const SmallRun& r) {
  const LoadStates count = LoadStates{1} << r.peak.size();
  std::vector<Trajectory> all;
  std::function<void(Trajectory&)> extend = [&](Trajectory& tr) {
    if (tr.states.size() == static_cast<std::size_t>(r.model.iterations) + 1) {
      all.push_back(tr);
      return;
    }
    for (LoadStates s = 0; s < count; ++s) {
      Trajectory next = tr;
      next.probability *= transition(r, tr.states.back(), s);
      next.states.push_back(s);
      extend(next);
    }
  };
  for (LoadStates s = 0; s < count; ++s) {
    Trajectory tr{{s}, start_probability(r, s)};
    extend(tr);
  }
  return all;
}

std::vector<LoadStates> iteration_states(const Trajectory& tr) { return {tr.states.begin() + 1, tr.states.end()}; }

// Expectimax over the tree, from the definitions: after iteration t in state s with loads L, the
// better of staying and moving to the balance of s (with `any`: to the balance of any joint state,
// or to the initial loads), each followed by the expected next iteration.
double expectimax(const SmallRun& r, int t, const std::vector<Count>& loads, LoadStates s, bool decide, bool any) {
  const points::RunModel& m = r.model;
  const std::size_t n = r.peak.size();
  auto go_on = [&](const std::vector<Count>& with) {
    double e = 0.0;
    for (LoadStates next = 0; next < (LoadStates{1} << n); ++next) {
      std::vector<double> done(n);
      for (std::size_t i = 0; i < n; ++i) done[i] = static_cast<double>(with[i]) * m.flops_per_column / speed(r, next, i);
      const double rest = t + 1 == m.iterations ? 0.0 : expectimax(r, t + 1, with, next, true, any);
      e += transition(r, s, next) * (testing::exchange_end_by_receivers(m, done) + rest);
    }
    return e;
  };
  const double stay = go_on(loads);
  if (!decide || n < 2) return stay;
  auto speeds_of = [&](LoadStates x) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = speed(r, x, i);
    return v;
  };
  const std::vector<double> speeds = speeds_of(s);
  double decision = 0.0;
  if (m.decision_flops > 0.0)
    for (double v : speeds) decision = std::max(decision, m.decision_flops / v);
  std::vector<std::vector<Count>> targets{redistribution::balanced_targets(speeds, m.columns)};
  if (any) {
    targets.push_back(m.initial_loads);
    for (LoadStates x = 0; x < (LoadStates{1} << n); ++x) targets.push_back(redistribution::balanced_targets(speeds_of(x), m.columns));
  }
  double best = stay;
  for (const std::vector<Count>& target : targets) {
    if (target == loads) continue;
    const double move = m.gathered[0] + decision + points::move_time(m, loads, target);
    best = std::min(best, move + go_on(target));
  }
  return best;
}

// Iteration t of a trajectory with these loads, and a point after it moving them to `target`,
// from the definitions (hindsight's model written out again).
double iteration_cost(const SmallRun& r, const Trajectory& tr, int t, const std::vector<Count>& loads) {
  const LoadStates during = tr.states[static_cast<std::size_t>(t)];
  std::vector<double> done(loads.size());
  for (std::size_t i = 0; i < loads.size(); ++i)
    done[i] = static_cast<double>(loads[i]) * r.model.flops_per_column / speed(r, during, i);
  return testing::exchange_end_by_receivers(r.model, done);
}

double point_cost(const SmallRun& r, const Trajectory& tr, int t, const std::vector<Count>& loads,
                  const std::vector<Count>& target) {
  const points::RunModel& m = r.model;
  double decision = 0.0;
  if (m.decision_flops > 0.0)
    for (std::size_t i = 0; i < loads.size(); ++i)
      decision = std::max(decision, m.decision_flops / speed(r, tr.states[static_cast<std::size_t>(t)], i));
  return m.gathered[0] + decision + points::move_time(m, loads, target);
}

// Hindsight over any target, from the definitions: knowing the trajectory, every sequence of
// choices (at each point stay, or move to the initial loads or the balance of any joint state)
// added up by hand; the smallest makespan.
double every_target_sequence(const SmallRun& r, const Trajectory& tr, int t, double clock, const std::vector<Count>& loads) {
  const std::size_t n = r.peak.size();
  clock += iteration_cost(r, tr, t, loads);
  if (t == r.model.iterations) return clock;
  double best = every_target_sequence(r, tr, t + 1, clock, loads);
  if (n < 2) return best;
  std::vector<std::vector<Count>> targets{r.model.initial_loads};
  for (LoadStates x = 0; x < (LoadStates{1} << n); ++x) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = speed(r, x, i);
    targets.push_back(redistribution::balanced_targets(v, r.model.columns));
  }
  for (const std::vector<Count>& target : targets)
    if (target != loads)
      best = std::min(best, every_target_sequence(r, tr, t + 1, clock + point_cost(r, tr, t, loads, target), target));
  return best;
}

// A path's points and targets added up by hand along its trajectory.
double path_cost(const SmallRun& r, const Trajectory& tr, const points::OnlineOptimal::Path& path) {
  REQUIRE(path.points.size() == path.point_loads.size());
  double clock = r.model.start;
  std::vector<Count> loads = r.model.initial_loads;
  std::size_t next = 0;
  for (int t = 1; t <= r.model.iterations; ++t) {
    clock += iteration_cost(r, tr, t, loads);
    if (next < path.points.size() && path.points[next] == t) {
      REQUIRE(t < r.model.iterations);
      REQUIRE(path.point_loads[next] != loads);
      clock += point_cost(r, tr, t, loads, path.point_loads[next]);
      loads = path.point_loads[next++];
    }
  }
  REQUIRE(next == path.points.size());
  return clock;
}

double relative(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

}  // namespace

TEST_CASE("online-optimal: its expected makespan is what its points cost on every trajectory, and no online rule "
          "does better, and hindsight no worse") {
  std::mt19937_64 rng(20261126);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int runs = 0, moving = 0, gaps = 0, any_better = 0, choosing_better = 0, sampled = 0, brute = 0;
  double trajectories = 0.0;
  for (int trial = 0; trial < testing::trials(240, 2); ++trial) {
    const std::size_t n = trial % 4 == 3 ? 3 : 2;
    const int iterations = n == 3 ? 1 + trial % 3 : 1 + trial % 4;
    const SmallRun r = small_run(rng, n, iterations);
    const points::OnlineOptimal online(r.model, r.peak, r.law);
    const std::vector<Trajectory> all = every_trajectory(r);
    trajectories += static_cast<double>(all.size());

    // Its points, evaluated by hindsight's model along every trajectory, weighted.
    double along = 0.0, none = 0.0, hindsight = 0.0, total = 0.0, any_along = 0.0, choosing = 0.0;
    for (const Trajectory& tr : all) {
      const points::RunModel hm = hindsight_model(r, tr);
      const std::vector<int> pts = online.points_along(iteration_states(tr));
      moving += !pts.empty();
      along += tr.probability * points::predicted_makespan(hm, pts);
      const double never = points::predicted_makespan(hm, {});
      none += tr.probability * never;
      const points::OnlineOptimal::Path path = online.any_target_along(iteration_states(tr));
      any_along += tr.probability * path.makespan;
      CHECK(relative(path.none, never) < 1e-9);
      const double knowing = points::plan_hindsight(hm).predicted_makespan;
      hindsight += tr.probability * knowing;
      // Hindsight over the same targets: no slower than hindsight or the any-target rule on this
      // trajectory, and (on a sample of trajectories) the best of every sequence of choices.
      const points::OnlineOptimal::Path chosen = online.hindsight_any_target_along(iteration_states(tr));
      CHECK(chosen.makespan <= knowing * (1.0 + 1e-9));
      CHECK(chosen.makespan <= path.makespan * (1.0 + 1e-9));
      CHECK(relative(chosen.none, never) < 1e-9);
      CHECK(relative(path_cost(r, tr, chosen), chosen.makespan) < 1e-9);
      CHECK(relative(path_cost(r, tr, path), path.makespan) < 1e-9);
      choosing += tr.probability * chosen.makespan;
      choosing_better += chosen.makespan < knowing * (1.0 - 1e-9);
      if (iterations <= 4 && ++sampled % 29 == 0) {
        CHECK(relative(chosen.makespan, every_target_sequence(r, tr, 1, r.model.start, r.model.initial_loads)) < 1e-9);
        ++brute;
      }
      total += tr.probability;
    }
    CHECK(relative(total, 1.0) < 1e-12);
    CHECK(relative(online.expected_makespan(), along) < 1e-9);
    CHECK(relative(online.expected_none(), none) < 1e-9);
    CHECK(relative(online.expected_any_target(), any_along) < 1e-9);
    CHECK(choosing <= online.expected_any_target() * (1.0 + 1e-9));
    CHECK(hindsight <= online.expected_makespan() * (1.0 + 1e-9));
    CHECK(online.expected_makespan() <= online.expected_none() * (1.0 + 1e-9));
    gaps += hindsight < online.expected_makespan() * (1.0 - 1e-6);

    // The plain recursion over the tree, from the start's distribution.
    double tree = r.model.start, tree_any = r.model.start;
    for (LoadStates s = 0; s < (LoadStates{1} << n); ++s) {
      tree += start_probability(r, s) * expectimax(r, 0, r.model.initial_loads, s, false, false);
      if (iterations <= 4) tree_any += start_probability(r, s) * expectimax(r, 0, r.model.initial_loads, s, false, true);
    }
    CHECK(relative(online.expected_makespan(), tree) < 1e-9);
    if (iterations <= 4) CHECK(relative(online.expected_any_target(), tree_any) < 1e-9);
    CHECK(online.expected_any_target() <= online.expected_makespan() * (1.0 + 1e-12));
    any_better += online.expected_any_target() < online.expected_makespan() * (1.0 - 1e-9);

    // Every fixed set of points (an online rule that ignores what it sees), and random rules that
    // look at the states: none beats the recursion in expectation.
    for (std::uint32_t mask = 0; mask < (1u << (iterations - 1)); ++mask) {
      std::vector<int> pts;
      for (int k = 0; k < iterations - 1; ++k)
        if (mask & (1u << k)) pts.push_back(k + 1);
      double fixed = 0.0;
      for (const Trajectory& tr : all) fixed += tr.probability * points::predicted_makespan(hindsight_model(r, tr), pts);
      CHECK(online.expected_makespan() <= fixed * (1.0 + 1e-9));
    }
    for (int rule = 0; rule < 3; ++rule) {
      const std::uint64_t salt = rng();
      double ruled = 0.0;
      for (const Trajectory& tr : all) {
        // Moves after iteration t in state s by a fixed coin per (t, s): an online rule.
        std::vector<int> pts;
        for (int t = 1; t < iterations; ++t)
          if (std::hash<std::uint64_t>{}(salt ^ (static_cast<std::uint64_t>(t) << 32 | tr.states[t])) % 2) pts.push_back(t);
        ruled += tr.probability * points::predicted_makespan(hindsight_model(r, tr), pts);
      }
      CHECK(online.expected_makespan() <= ruled * (1.0 + 1e-9));
    }
    ++runs;
  }
  MESSAGE(runs, " runs, ", trajectories, " trajectories; the optimal online rule moved on ", moving,
          " of them; hindsight strictly better in expectation on ", gaps, " runs; any target better on ", any_better,
          "; hindsight over any target better than hindsight on ", choosing_better,
          " trajectories, checked against every sequence of choices on ", brute);
  CHECK(moving > 0);
  CHECK(gaps > 0);
  CHECK(choosing_better > 0);
  CHECK(brute > 100);
}

TEST_CASE("online-optimal: larger rings, the points along sampled traces cost what the recursion predicts on average") {
  std::mt19937_64 rng(7);
  for (std::size_t n : {4u, 6u, 8u}) {
    const SmallRun r = small_run(rng, n, 30);
    const points::OnlineOptimal online(r.model, r.peak, r.law);
    CHECK(online.loads_count() <= (std::size_t{1} << n) + 1);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const int samples = 4000;
    double sum = 0.0, sum2 = 0.0, none = 0.0, any = 0.0, any2 = 0.0;
    for (int k = 0; k < samples; ++k) {
      Trajectory tr{{0}, 1.0};
      for (std::size_t i = 0; i < n; ++i)
        if (unit(rng) < r.law.loaded_at_start) tr.states[0] |= LoadStates{1} << i;
      for (int it = 1; it <= r.model.iterations; ++it) {
        LoadStates s = tr.states.back();
        for (std::size_t i = 0; i < n; ++i) {
          const bool was = (s >> i) & 1u;
          if (unit(rng) < (was ? r.law.leave_loaded : r.law.leave_available)) s ^= LoadStates{1} << i;
        }
        tr.states.push_back(s);
      }
      const points::RunModel hm = hindsight_model(r, tr);
      const double t = points::predicted_makespan(hm, online.points_along(iteration_states(tr)));
      sum += t;
      sum2 += t * t;
      const double a = online.any_target_along(iteration_states(tr)).makespan;
      any += a;
      any2 += a * a;
      none += points::predicted_makespan(hm, {});
    }
    const double mean = sum / samples, sd = std::sqrt(std::max(0.0, sum2 / samples - mean * mean));
    // Five standard errors: a wrong kernel or table index moves the mean by far more.
    CHECK(std::abs(mean - online.expected_makespan()) <= 5.0 * sd / std::sqrt(samples) + 1e-9 * mean);
    CHECK(std::abs(none / samples - online.expected_none()) <= 0.05 * online.expected_none());
    CHECK(online.expected_any_target() <= online.expected_makespan() * (1.0 + 1e-12));
    const double any_mean = any / samples, any_sd = std::sqrt(std::max(0.0, any2 / samples - any_mean * any_mean));
    CHECK(std::abs(any_mean - online.expected_any_target()) <= 5.0 * any_sd / std::sqrt(samples) + 1e-9 * any_mean);
    MESSAGE(n, " members: expected ", online.expected_makespan(), " (sampled ", mean, "), any target ",
            online.expected_any_target(), ", never moving ", online.expected_none(), ", ", online.loads_count(),
            " loads, ", online.planner_calls(), " planner runs");
  }
}

namespace {

// The late rule from the definitions: expectimax over what the rule has seen, every trajectory
// consistent with it (weighted), not over the recursion's summary (newest state known, its age);
// a point may move to the initial loads or the balance of any joint state.
// After iteration t it has seen the states of iterations 1..t - delay (the snapshots), those its
// looks showed, and iteration 1's; `known` is the newest of them. Each element of `seen`: a
// trajectory and its probability.
using Seen = std::vector<const Trajectory*>;

double seen_weight(const Seen& seen) {
  double w = 0.0;
  for (const Trajectory* tr : seen) w += tr->probability;
  return w;
}

// The trajectories of `seen` split by their state of iteration `it`.
std::vector<Seen> split_by(const Seen& seen, int it) {
  std::map<LoadStates, Seen> parts;
  for (const Trajectory* tr : seen) parts[tr->states[static_cast<std::size_t>(it)]].push_back(tr);
  std::vector<Seen> out;
  for (auto& [s, part] : parts) out.push_back(part);
  return out;
}

// With `look_plans`, a look runs the planner at every member (at the present's speeds) whether
// a point follows or not.
double late_rule(const SmallRun& r, int delay, double look, int t, int known, const std::vector<Count>& loads,
                 const Seen& seen, bool look_plans = false) {
  const points::RunModel& m = r.model;
  const std::size_t n = r.peak.size();
  if (t == m.iterations) return 0.0;
  const double weight = seen_weight(seen);
  auto speeds_in = [&](LoadStates s) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = speed(r, s, i);
    return v;
  };
  auto planner = [&](LoadStates s) {
    double d = 0.0;
    if (m.decision_flops > 0.0)
      for (double v : speeds_in(s)) d = std::max(d, m.decision_flops / v);
    return d;
  };
  // The next iteration with these loads, then what the next snapshot shows.
  auto go_on = [&](const std::vector<Count>& with, const Seen& part, int newest) {
    double e = 0.0;
    for (const Trajectory* tr : part) e += tr->probability * iteration_cost(r, *tr, t + 1, with);
    e /= seen_weight(part);
    const int shown = t + 1 - delay;
    if (shown <= newest) return e + late_rule(r, delay, look, t + 1, newest, with, part, look_plans);
    for (const Seen& p : split_by(part, shown))
      e += seen_weight(p) / seen_weight(part) * late_rule(r, delay, look, t + 1, shown, with, p, look_plans);
    return e;
  };
  // A point to the initial loads or the balance of any joint state, its planner run at the
  // present's speeds.
  std::vector<std::vector<Count>> targets{m.initial_loads};
  for (LoadStates x = 0; x < (LoadStates{1} << n); ++x) targets.push_back(redistribution::balanced_targets(speeds_in(x), m.columns));
  auto point_then_go_on = [&](const Seen& part, int newest) {
    double decision = 0.0;
    for (const Trajectory* tr : part) decision += tr->probability * planner(tr->states[static_cast<std::size_t>(t)]);
    double best = std::numeric_limits<double>::infinity();
    for (const std::vector<Count>& target : targets)
      if (target != loads && n >= 2)
        best = std::min(best, decision / seen_weight(part) + points::move_time(m, loads, target) + go_on(target, part, newest));
    return best;
  };
  double best = std::min(go_on(loads, seen, known), point_then_go_on(seen, known));
  double looked = look;
  for (const Seen& p : split_by(seen, t)) {
    const double plan = look_plans ? planner(p.front()->states[static_cast<std::size_t>(t)]) : 0.0;
    looked += seen_weight(p) / weight * (plan + std::min(go_on(loads, p, t), point_then_go_on(p, t) - plan));
  }
  return std::min(best, looked);
}

double late_rule_expected(const SmallRun& r, int delay, double look, bool look_plans = false) {
  const std::vector<Trajectory> all = every_trajectory(r);
  Seen every;
  for (const Trajectory& tr : all) every.push_back(&tr);
  double e = r.model.start;
  for (const Trajectory& tr : all) e += tr.probability * iteration_cost(r, tr, 1, r.model.initial_loads);
  for (const Seen& p : split_by(every, 1))
    e += seen_weight(p) * late_rule(r, delay, look, 1, 1, r.model.initial_loads, p, look_plans);
  return e;
}

// A seeded small run for the late rule's tests: 2 members (3 every fifth trial), `first` to 5
// iterations (to 3 with 3 members), a delay of 0 to 2 and a look of up to twice the all-gather.
struct LateTrial {
  SmallRun r;
  std::size_t n = 0;
  int iterations = 0, delay = 0;
  double look = 0.0;

  // For a failing check's context (a string: lambdas, as doctest's INFO makes, cannot capture the
  // structured bindings the cases unpack a trial into in every compiler).
  std::string described(int trial) const {
    std::ostringstream o;
    o << "trial " << trial << " n " << n << " iterations " << iterations << " delay " << delay << " look " << look;
    return o.str();
  }
};

LateTrial late_trial(std::mt19937_64& rng, int trial, int first) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  LateTrial t;
  t.n = trial % 5 == 4 ? 3 : 2;
  t.iterations = first + trial % ((t.n == 3 ? 4 : 6) - first);
  t.r = small_run(rng, t.n, t.iterations);
  t.delay = trial % 3;
  t.look = unit(rng) * 2.0 * (t.r.model.gathered.empty() ? 1.0 : t.r.model.gathered[0] + 1e-3);
  return t;
}

}  // namespace

TEST_CASE("online-optimal's late rule: the recursion is expectimax over everything seen, and no better than "
          "knowing the present with the same targets") {
  std::mt19937_64 rng(20261129);
  int trials = 0, looks_paid = 0, late_dearer = 0;
  for (int trial = 0; trial < testing::trials(300, 2); ++trial) {
    LateTrial drawn = late_trial(rng, trial, 1);
    auto& [r, n, iterations, delay, look] = drawn;
    const points::OnlineOptimal online(r.model, r.peak, r.law);
    const double recursion = online.expected_late(delay, look);
    INFO(drawn.described(trial));
    CHECK(relative(recursion, late_rule_expected(r, delay, look)) < 1e-9);
    CHECK(recursion <= online.expected_none() * (1.0 + 1e-12));
    // Less known, or dearer looks, never help.
    CHECK(online.expected_late(delay + 1, look) >= recursion * (1.0 - 1e-12));
    CHECK(online.expected_late(delay, 2.0 * look + 1.0) >= recursion * (1.0 - 1e-12));
    looks_paid += online.expected_late(delay, 0.0) < online.expected_late(delay, std::numeric_limits<double>::infinity()) * (1.0 - 1e-9);
    // With an all-gather that costs nothing, the present known for free is the bound over any target.
    r.model.gathered.assign(n, 0.0);
    const points::OnlineOptimal free(r.model, r.peak, r.law);
    CHECK(relative(free.expected_late(0, look), free.expected_any_target()) < 1e-12);
    CHECK(free.expected_late(delay, look) >= free.expected_any_target() * (1.0 - 1e-12));
    late_dearer += free.expected_late(delay, look) > free.expected_any_target() * (1.0 + 1e-9);
    ++trials;
  }
  MESSAGE(trials, " runs; looks worth paying for in ", looks_paid, "; late dearer than knowing the present in ", late_dearer);
  CHECK(looks_paid > trials / 30);
  CHECK(late_dearer > trials / 30);
}

TEST_CASE("online-optimal's late rule on rings of 4 to 6: with the present free it is the bound over any "
          "target, with more loads than one tile of the recursion") {
  std::mt19937_64 rng(20261201);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::size_t most_loads = 0;
  for (int trial = 0; trial < testing::trials(30, 3); ++trial) {
    const std::size_t n = 4 + static_cast<std::size_t>(trial % 3);
    SmallRun r = small_run(rng, n, 2 + trial % 5);
    r.model.gathered.assign(n, 0.0);
    const double look = unit(rng);
    const points::OnlineOptimal free(r.model, r.peak, r.law);
    INFO("trial ", trial, " n ", n, " loads ", free.loads_count(), " look ", look);
    CHECK(relative(free.expected_late(0, look), free.expected_any_target()) < 1e-12);
    CHECK(free.expected_late(1 + trial % 2, look) >= free.expected_any_target() * (1.0 - 1e-12));
    most_loads = std::max(most_loads, free.loads_count());
  }
  CHECK(most_loads > 16);  // two tiles and more
}

namespace {

// A late path added up by hand along its trajectory: each iteration at its loads, each look's
// price, each point's planner run at the present's speeds and its move (the test's own costs).
double late_path_cost(const SmallRun& r, const Trajectory& tr, const points::OnlineOptimal::LatePath& path, double look) {
  REQUIRE(path.points.size() == path.point_loads.size());
  const std::size_t n = r.peak.size();
  double clock = r.model.start + look * static_cast<double>(path.looks.size());
  std::vector<Count> loads = r.model.initial_loads;
  std::size_t next = 0;
  for (int t = 1; t <= r.model.iterations; ++t) {
    clock += iteration_cost(r, tr, t, loads);
    if (next < path.points.size() && path.points[next] == t) {
      double planner = 0.0;
      if (r.model.decision_flops > 0.0)
        for (std::size_t i = 0; i < n; ++i)
          planner = std::max(planner, r.model.decision_flops / speed(r, tr.states[static_cast<std::size_t>(t)], i));
      clock += planner + points::move_time(r.model, loads, path.point_loads[next]);
      loads = path.point_loads[next++];
    }
  }
  CHECK(next == path.points.size());
  return clock;
}

}  // namespace

TEST_CASE("online-optimal's late rule along a trace: its mean over every trajectory is the recursion's "
          "expectation, and the rule that learns the law does no better") {
  std::mt19937_64 rng(20261130);
  int trials = 0, looked = 0, learner_dearer = 0;
  for (int trial = 0; trial < testing::trials(200, 2); ++trial) {
    const LateTrial drawn = late_trial(rng, trial, 2);
    const auto& [r, n, iterations, delay, look] = drawn;
    const points::OnlineOptimal online(r.model, r.peak, r.law);
    // The learner told nothing more than iteration 1's state solves once, for that state's estimate.
    points::OnOffLaw first = points::estimated_law({0}, n, r.law.load_factor);
    const points::OnlineOptimal first_guess(r.model, r.peak, first);
    INFO(drawn.described(trial));
    double mean = 0.0, learning = 0.0;
    for (const Trajectory& tr : every_trajectory(r)) {
      const std::vector<LoadStates> states = iteration_states(tr);
      const points::OnlineOptimal::LatePath path = online.late_along(states, delay, look);
      CHECK(path.solves == 1);
      CHECK(relative(path.makespan, late_path_cost(r, tr, path, look)) < 1e-12);
      mean += tr.probability * path.makespan;
      looked += !path.looks.empty();
      const points::OnlineOptimal::LatePath learned = online.learning_late_along(states, delay, look, 0.0);
      CHECK(relative(learned.makespan, late_path_cost(r, tr, learned, look)) < 1e-12);
      learning += tr.probability * learned.makespan;
      const points::OnlineOptimal::LatePath once =
          online.learning_late_along(states, delay, look, std::numeric_limits<double>::infinity());
      const points::OnlineOptimal::LatePath told = first_guess.late_along(states, delay, look);
      CHECK(once.solves == 1);
      CHECK(once.points == told.points);
      CHECK(once.looks == told.looks);
      CHECK(relative(once.makespan, told.makespan) < 1e-12);
    }
    CHECK(relative(mean, online.expected_late(delay, look)) < 1e-9);
    CHECK(learning >= mean * (1.0 - 1e-12));
    learner_dearer += learning > mean * (1.0 + 1e-9);
    ++trials;
  }
  MESSAGE(trials, " runs; trajectories with a look ", looked, "; the learner dearer in ", learner_dearer);
  CHECK(looked > trials / 10);
  CHECK(learner_dearer > trials / 10);
}

TEST_CASE("online-optimal's late rule played one decision at a time, looks that run the planner: its mean over "
          "every trajectory is expectimax's") {
  std::mt19937_64 rng(20261201);
  int trials = 0, looked = 0, differs = 0;
  for (int trial = 0; trial < testing::trials(60); ++trial) {
    const LateTrial drawn = late_trial(rng, trial, 2);
    const auto& [r, n, iterations, delay, look] = drawn;
    const points::OnlineOptimal online(r.model, r.peak, r.law);
    INFO(drawn.described(trial));
    auto planner = [&run = drawn.r, members = drawn.n](LoadStates s) {
      double d = 0.0;
      if (run.model.decision_flops > 0.0)
        for (std::size_t i = 0; i < members; ++i) d = std::max(d, run.model.decision_flops / speed(run, s, i));
      return d;
    };
    double mean = 0.0;
    for (const bool look_plans : {true, false}) {
      // Iteration 1's state given, the rule solved for the law from there (expected_late's start).
      const points::LateRule rule = online.late_rule(delay, look, r.law, 1, look_plans);
      double expected = 0.0;
      for (const Trajectory& tr : every_trajectory(r)) {
        auto during = [&](int it) { return tr.states[static_cast<std::size_t>(it)]; };
        std::vector<Count> loads = r.model.initial_loads;
        double clock = r.model.start + iteration_cost(r, tr, 1, loads);
        LoadStates known = during(1);
        int age = 0;
        for (int t = 1; t < iterations; ++t) {
          const std::size_t l = online.loads_index(loads);
          REQUIRE(l < online.loads_count());
          int act = rule.act(t, l, age, known);
          double plan = planner(during(t));
          if (act == points::LateRule::look) {
            clock += look + (look_plans ? plan : 0.0);
            looked += look_plans;
            known = during(t);
            age = 0;
            act = rule.after_look(t, l, known);
            if (look_plans) plan = 0.0;  // paid with the look
          }
          if (act != points::LateRule::go_on) {
            const std::vector<Count>& target = online.loads()[static_cast<std::size_t>(act)];
            CHECK(target != loads);
            clock += plan + points::move_time(r.model, loads, target);
            loads = target;
          }
          clock += iteration_cost(r, tr, t + 1, loads);
          if (age < delay) ++age; else known = during(t + 1 - delay);
        }
        expected += tr.probability * clock;
      }
      if (look_plans) CHECK(relative(expected, late_rule_expected(r, delay, look, true)) < 1e-9);
      else CHECK(relative(expected, online.expected_late(delay, look)) < 1e-9);
      if (look_plans) mean = expected;
      else differs += relative(mean, expected) > 1e-9;
    }
    ++trials;
  }
  MESSAGE(trials, " runs; planner-paying looks taken ", looked, "; the two look costs differ in ", differs);
  CHECK(looked > trials / 10);
  CHECK(differs > 0);
}

TEST_CASE("online-optimal: the law estimated from known states, by hand") {
  // Member 0 available, loaded, loaded, loaded, available; member 1 available three times, then
  // loaded twice. Available held 4 times with a successor, left twice; loaded held 4, left once.
  const points::OnOffLaw law = points::estimated_law({0b00, 0b01, 0b01, 0b11, 0b10}, 2, 0.3);
  CHECK(law.leave_available == doctest::Approx(2.5 / 5.0));
  CHECK(law.leave_loaded == doctest::Approx(1.5 / 5.0));
  CHECK(law.loaded_at_start == doctest::Approx(0.5 / 0.8));
  CHECK(law.load_factor == 0.3);
  // Nothing seen to follow anything: the prior's mean.
  const points::OnOffLaw none = points::estimated_law({0b1}, 1, 0.5);
  CHECK(none.leave_available == 0.5);
  CHECK(none.leave_loaded == 0.5);
  CHECK_THROWS(points::estimated_law({0}, 0, 0.5));
  CHECK_THROWS_WITH_AS(points::estimated_law({0}, points::OnlineOptimal::max_members + 1, 0.5),
                       "online-optimal: at most 8 members", std::invalid_argument);
}

TEST_CASE("online-optimal: every walk along a trace refuses a trace that is not one of this run") {
  std::mt19937_64 rng(20261201);
  const LateTrial t = late_trial(rng, 0, 3);  // 2 members: states 0..3
  const points::OnlineOptimal online(t.r.model, t.r.peak, t.r.law);
  const std::vector<LoadStates> fits(static_cast<std::size_t>(t.iterations), 0b01);
  std::vector<LoadStates> short_by_one = fits, beyond = fits;
  short_by_one.pop_back();
  beyond[1] = 0b100;  // a third member
  auto refuses = [&](const std::vector<LoadStates>& states, const char* why) {
    INFO(why);
    CHECK_THROWS_WITH_AS(online.late_along(states, 1, 0.5), doctest::Contains(why), std::invalid_argument);
    CHECK_THROWS_WITH_AS(online.learning_late_along(states, 1, 0.5, 0.2), doctest::Contains(why),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(online.any_target_along(states), doctest::Contains(why), std::invalid_argument);
    CHECK_THROWS_WITH_AS(online.hindsight_any_target_along(states), doctest::Contains(why), std::invalid_argument);
    CHECK_THROWS_WITH_AS(online.points_along(states), doctest::Contains(why), std::invalid_argument);
  };
  refuses(short_by_one, "one joint state per iteration");
  refuses(beyond, "beyond the ring");
  CHECK_NOTHROW(online.late_along(fits, 1, 0.5));
  CHECK_NOTHROW(online.points_along(fits));
  CHECK_THROWS_WITH_AS(online.late_along(fits, -1, 0.5), doctest::Contains("negative delay"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(online.expected_late(-1, 0.5), doctest::Contains("negative delay"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(online.expected_late(1, -0.5), doctest::Contains("must cost >= 0"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(online.learning_late_along(fits, 1, 0.5, -0.1), doctest::Contains("re-solving threshold"),
                       std::invalid_argument);
}
