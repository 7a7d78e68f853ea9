// The late rule: the best rule with a policy's information, in expectation (expected_late) and
// played along a trace, told the load's law or learning it (late_along, learning_late_along).
// Declared with the rest of OnlineOptimal (on_off_recursion.hpp, where the recursion is stated).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "planners/points/min_plus.hpp"
#include "planners/points/on_off_recursion.hpp"

namespace ringsim::points {
namespace {

void check_late(int delay, double look) {
  if (delay < 0) throw std::invalid_argument("online-optimal: a negative delay");
  if (!(look >= 0.0)) throw std::invalid_argument("online-optimal: a look must cost >= 0 s");
}

}  // namespace

LawCounts::LawCounts(std::size_t members) : members_(members) {
  if (members == 0) throw std::invalid_argument("online-optimal: a law's counts need a member");
  OnlineOptimal::check_members(members);
}

void LawCounts::add(LoadStates from, LoadStates to) {
  for (std::size_t i = 0; i < members_; ++i) {
    const int was = is_loaded(from, i) ? 1 : 0;
    held_[was] += 1.0;
    left_[was] += is_loaded(to, i) != (was == 1) ? 1.0 : 0.0;
  }
}

OnOffLaw LawCounts::law(double load_factor) const {
  OnOffLaw law;
  law.load_factor = load_factor;
  law.leave_available = (left_[0] + 0.5) / (held_[0] + 1.0);
  law.leave_loaded = (left_[1] + 0.5) / (held_[1] + 1.0);
  law.loaded_at_start = law.leave_available / (law.leave_available + law.leave_loaded);
  return law;
}

bool law_drifted(const OnOffLaw& now, const OnOffLaw& then, double resolve) {
  auto drifted = [resolve](double a, double b) { return std::abs(a - b) > resolve * b; };
  return drifted(now.leave_available, then.leave_available) || drifted(now.leave_loaded, then.leave_loaded);
}

OnOffLaw estimated_law(const std::vector<LoadStates>& known, std::size_t members, double load_factor) {
  LawCounts counts(members);
  for (std::size_t j = 1; j < known.size(); ++j) counts.add(known[j - 1], known[j]);
  return counts.law(load_factor);
}

double OnlineOptimal::planner_time(LoadStates s) const {
  double last = 0.0;
  if (m_.decision_flops > 0.0)
    for (double v : speeds_of(s)) last = std::max(last, m_.decision_flops / v);
  return last;
}

std::vector<double> OnlineOptimal::solve_late(int delay, double look, const OnOffLaw& law, int from, LateRule* choices,
                                              bool look_plans) const {
  const std::size_t n = m_.initial_loads.size(), count = loads_.size(), ages = static_cast<std::size_t>(delay) + 1;
  const std::size_t last_age = ages - 1;
  auto at = [&](std::size_t l, std::size_t a, LoadStates k) { return (l * ages + a) * states_ + k; };
  // The planner at every member, no gather: planner[a][k] = E[its time in s_(t+a) | s_t = k].
  std::vector<std::vector<double>> planner(ages, std::vector<double>(states_, 0.0));
  for (LoadStates s = 0; s < states_; ++s) planner[0][s] = planner_time(s);
  for (std::size_t a = 1; a < ages; ++a) {
    planner[a] = planner[a - 1];
    expect_next(planner[a], law);
  }
  // g[at(l, a, k)] = g_(a+1)(l, k).
  std::vector<double> g(count * ages * states_), f(states_);
  for (std::size_t l = 0; l < count; ++l) {
    std::copy(time_.begin() + static_cast<std::ptrdiff_t>(l * states_),
              time_.begin() + static_cast<std::ptrdiff_t>((l + 1) * states_), f.begin());
    for (std::size_t a = 0; a < ages; ++a) {
      expect_next(f, law);
      std::copy(f.begin(), f.end(), g.begin() + static_cast<std::ptrdiff_t>(at(l, a, 0)));
    }
  }
  if (choices) {
    const auto points = static_cast<std::size_t>(std::max(0, m_.iterations - from));
    choices->from_ = from;
    choices->iterations_ = m_.iterations;
    choices->count_ = count;
    choices->ages_ = ages;
    choices->states_ = states_;
    choices->act_.assign(points * count * ages * states_, LateRule::go_on);
    choices->after_look_.assign(points * count * states_, LateRule::go_on);
  }
  const std::size_t width = ages * states_;
  std::vector<double> next(count * ages * states_, 0.0), value(next.size()), stay(next.size()), seen(states_),
      points, tos, column;  // best_points sizes points and tos
  const double* move_costs = n >= 2 ? moves_.data() : nullptr;
  for (int t = m_.iterations - 1; t >= from; --t) {
    for (std::size_t l = 0; l < count; ++l) {
      std::copy(next.begin() + static_cast<std::ptrdiff_t>(at(l, last_age, 0)),
                next.begin() + static_cast<std::ptrdiff_t>(at(l, last_age, 0) + states_), f.begin());
      expect_next(f, law);  // the next snapshot's state k' ~ P(k, .)
      for (std::size_t a = 0; a < ages; ++a)
        for (LoadStates k = 0; k < states_; ++k)
          stay[at(l, a, k)] = g[at(l, a, k)] + (a < last_age ? next[at(l, a + 1, k)] : f[k]);
    }
    // A point from L at (a, k): the best target B' != L of C(L, B') + S_t(B', k, a); a look's point
    // is the same at age 0 with the planner's time at the present.
    best_points(stay, count, width, move_costs, LateRule::go_on, points, choices ? &tos : nullptr, column);
    for (std::size_t l = 0; l < count; ++l) {
      const double* point = &points[l * width];
      const double* to = choices ? &tos[l * width] : nullptr;
      const std::size_t row = choices ? static_cast<std::size_t>(t - from) * count + l : 0;
      // A look shows s: then the better of going on and a point; seen a steps ahead of k.
      // (Where the look itself runs the planner, it is paid whichever way the look goes.)
      for (LoadStates s = 0; s < states_; ++s) {
        const double moved = point[s] + (look_plans ? 0.0 : planner[0][s]);
        seen[s] = std::min(stay[at(l, 0, s)], moved) + (look_plans ? planner[0][s] : 0.0);
        if (choices && moved < stay[at(l, 0, s)]) choices->after_look_[row * states_ + s] = static_cast<std::int16_t>(to[s]);
      }
      for (std::size_t a = 0; a < ages; ++a) {
        if (a > 0) expect_next(seen, law);
        for (LoadStates k = 0; k < states_; ++k) {
          const double st = stay[at(l, a, k)], looked = look + seen[k], moved = planner[a][k] + point[a * states_ + k];
          value[at(l, a, k)] = std::min({st, looked, moved});
          if (choices && std::min(looked, moved) < st)
            choices->act_[(row * ages + a) * states_ + k] =
                looked < moved ? LateRule::look : static_cast<std::int16_t>(to[a * states_ + k]);
        }
      }
    }
    std::swap(next, value);
  }
  return next;
}

double OnlineOptimal::expected_late(int delay, double look) const {
  check_late(delay, look);
  const std::size_t n = m_.initial_loads.size();
  const std::vector<double> after_first = solve_late(delay, look, law_, 1, nullptr);
  // Iteration 1 from the law's start (as expected_makespan()), its state then known at age 0.
  std::vector<double> f(states_);
  for (LoadStates s = 0; s < states_; ++s) f[s] = time_[s] + (m_.iterations > 1 ? after_first[s] : 0.0);
  expect_next(f);
  double expected = m_.start;
  for (LoadStates s = 0; s < states_; ++s) expected += joint_probability(s, n, law_.loaded_at_start) * f[s];
  return expected;
}

std::size_t LateRule::at(int t, std::size_t l) const {
  if (t < from_ || t >= iterations_ || l >= count_) throw std::invalid_argument("late rule: no choice for that point");
  return static_cast<std::size_t>(t - from_) * count_ + l;
}

int LateRule::act(int t, std::size_t l, int age, LoadStates k) const {
  if (age < 0 || static_cast<std::size_t>(age) >= ages_ || k >= states_)
    throw std::invalid_argument("late rule: no choice for that state");
  return act_[(at(t, l) * ages_ + static_cast<std::size_t>(age)) * states_ + k];
}

int LateRule::after_look(int t, std::size_t l, LoadStates s) const {
  if (s >= states_) throw std::invalid_argument("late rule: no choice for that state");
  return after_look_[at(t, l) * states_ + s];
}

LateRule OnlineOptimal::late_rule(int delay, double look, const OnOffLaw& law, int from, bool look_plans) const {
  check_late(delay, look);
  if (from < 1 || from >= m_.iterations) throw std::invalid_argument("late rule: from must be in 1..iterations - 1");
  LateRule rule;
  solve_late(delay, look, law, from, &rule, look_plans);
  return rule;
}

OnlineOptimal::LatePath OnlineOptimal::late_along(const std::vector<LoadStates>& states, int delay, double look) const {
  return walk_late(states, delay, look, false, 0.0);
}

OnlineOptimal::LatePath OnlineOptimal::learning_late_along(const std::vector<LoadStates>& states, int delay,
                                                           double look, double resolve) const {
  if (!(resolve >= 0.0)) throw std::invalid_argument("online-optimal: the re-solving threshold must be >= 0");
  return walk_late(states, delay, look, true, resolve);
}

OnlineOptimal::LatePath OnlineOptimal::walk_late(const std::vector<LoadStates>& states, int delay, double look,
                                                 bool learn, double resolve) const {
  check_late(delay, look);
  check_trace(states);
  const std::size_t n = m_.initial_loads.size();
  auto during = [&](int it) { return states[static_cast<std::size_t>(it) - 1]; };
  LatePath path;
  LateRule choices;
  LawCounts counts(n);  // the transitions of iterations 1..counted, known for free
  int counted = 1;
  OnOffLaw solved_for;
  std::size_t l = 0, a = 0;
  LoadStates k = during(1);  // iteration 1's state is given (expected_late's start)
  path.makespan = m_.start + time_[during(1)];
  for (int t = 1; t < m_.iterations; ++t) {
    OnOffLaw law = law_;
    if (learn) {
      for (const int known = std::max(1, t - delay); counted < known; ++counted)
        counts.add(during(counted), during(counted + 1));
      law = counts.law(law_.load_factor);
    }
    if (path.solves == 0 || (learn && law_drifted(law, solved_for, resolve))) {
      choices = late_rule(delay, look, law, t);
      solved_for = law;
      ++path.solves;
    }
    int act = choices.act(t, l, static_cast<int>(a), k);
    if (act == LateRule::look) {
      path.makespan += look;
      path.looks.push_back(t);
      k = during(t);
      a = 0;
      act = choices.after_look(t, l, k);
    }
    if (act != LateRule::go_on) {
      const auto b = static_cast<std::size_t>(act);
      path.makespan += planner_time(during(t)) + moves_[l * loads_.size() + b];
      path.points.push_back(t);
      path.point_loads.push_back(loads_[b]);
      l = b;
    }
    path.makespan += time_[l * states_ + during(t + 1)];
    if (a < static_cast<std::size_t>(delay))
      ++a;
    else
      k = during(t + 1 - delay);
  }
  return path;
}

}  // namespace ringsim::points
