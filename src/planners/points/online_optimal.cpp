#include "planners/points/online_optimal.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>

#include "planners/points/earliest_loads_path.hpp"
#include "planners/redistribution/load_balance.hpp"

namespace ringsim::points {
namespace {

void check(const RunModel& m, const std::vector<double>& peak, const OnOffLaw& law) {
  const std::size_t n = m.initial_loads.size();
  if (m.iterations < 1 || n == 0 || peak.size() != n || m.cost_next.size() != n || m.cost_prev.size() != n)
    throw std::invalid_argument("online-optimal: incomplete run model");
  if (n > OnlineOptimal::max_members)
    throw std::invalid_argument("online-optimal: at most " + std::to_string(OnlineOptimal::max_members) + " members");
  for (double p : {law.leave_available, law.leave_loaded, law.loaded_at_start})
    if (!(p >= 0.0 && p <= 1.0)) throw std::invalid_argument("online-optimal: probabilities must be in [0, 1]");
  if (!(law.load_factor > 0.0)) throw std::invalid_argument("online-optimal: load factor must be > 0");
}

void check_late(int delay, double look) {
  if (delay < 0) throw std::invalid_argument("online-optimal: a negative delay");
  if (!(look >= 0.0)) throw std::invalid_argument("online-optimal: a look must cost >= 0 s");
}

bool loaded(LoadStates s, std::size_t i) { return ((s >> i) & 1u) != 0; }

// An iteration of loads `loads` at `speeds` (hindsight.cpp's run_iteration on iteration-indexed
// speeds): each member's computation, then the border exchange (exchange_end).
double iteration_time(const RunModel& m, const std::vector<Count>& loads, const std::vector<double>& speeds) {
  std::vector<double> done(loads.size());
  for (std::size_t i = 0; i < loads.size(); ++i) done[i] = static_cast<double>(loads[i]) * m.flops_per_column / speeds[i];
  return exchange_end(m, done);
}

// What a point costs before its move (hindsight.cpp's decided_at): the all-gather, then each
// member's planner run at the speed of the iteration before it, from its own gather's end.
double decision_time(const RunModel& m, const std::vector<double>& speeds) {
  double decided = 0.0;
  for (std::size_t i = 0; i < speeds.size(); ++i)
    decided = std::max(decided, (m.gathered.empty() ? 0.0 : m.gathered[i]) +
                                    (m.decision_flops > 0.0 ? m.decision_flops / speeds[i] : 0.0));
  return decided;
}

// The probability of a joint state when each member is loaded with probability p, independently.
double product_probability(LoadStates s, std::size_t n, double p) {
  double q = 1.0;
  for (std::size_t i = 0; i < n; ++i) q *= loaded(s, i) ? p : 1.0 - p;
  return q;
}

}  // namespace

LawCounts::LawCounts(std::size_t members) : members_(members) {
  if (members == 0 || members > OnlineOptimal::max_members)
    throw std::invalid_argument("online-optimal: at most " + std::to_string(OnlineOptimal::max_members) + " members");
}

void LawCounts::add(LoadStates from, LoadStates to) {
  for (std::size_t i = 0; i < members_; ++i) {
    const int was = loaded(from, i) ? 1 : 0;
    held_[was] += 1.0;
    left_[was] += loaded(to, i) != (was == 1) ? 1.0 : 0.0;
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

OnOffLaw estimated_law(const std::vector<LoadStates>& known, std::size_t members, double load_factor) {
  LawCounts counts(members);
  for (std::size_t j = 1; j < known.size(); ++j) counts.add(known[j - 1], known[j]);
  return counts.law(load_factor);
}

OnlineOptimal::OnlineOptimal(const RunModel& model, std::vector<double> peak, const OnOffLaw& law)
    : m_(model), peak_(std::move(peak)), law_(law) {
  check(m_, peak_, law_);
  const std::size_t n = m_.initial_loads.size();
  states_ = std::size_t{1} << n;

  // The loads a run can hold: the initial balance, and the balance of each joint state.
  std::map<std::vector<Count>, std::size_t> index{{m_.initial_loads, 0}};
  loads_.push_back(m_.initial_loads);
  std::vector<std::vector<double>> speeds(states_);
  balance_of_.resize(states_);
  for (LoadStates s = 0; s < states_; ++s) {
    speeds[s] = speeds_of(s);
    auto [at, added] = index.emplace(redistribution::balanced_targets(speeds[s], m_.columns), loads_.size());
    if (added) loads_.push_back(at->first);
    balance_of_[s] = at->second;
  }
  const std::size_t count = loads_.size();

  // T(L, s), a point's decision time in state s and the planner's time per (from, to) move; a
  // point towards the loads it already holds moves nothing, and no optimal rule takes it: infinite.
  // A point from L to the balance of s costs decision_[s] + moves_[L][balance_of_[s]].
  time_.assign(count * states_, 0.0);
  decision_.assign(states_, 0.0);
  moves_.assign(count * count, std::numeric_limits<double>::infinity());
  for (std::size_t l = 0; l < count; ++l)
    for (std::size_t b = 0; b < count && n >= 2; ++b)
      if (b != l) {
        moves_[l * count + b] = move_time(m_, loads_[l], loads_[b]);
        ++planner_calls_;
      }
  for (LoadStates s = 0; s < states_; ++s) decision_[s] = decision_time(m_, speeds[s]);
  for (std::size_t l = 0; l < count; ++l)
    for (LoadStates s = 0; s < states_; ++s) time_[l * states_ + s] = iteration_time(m_, loads_[l], speeds[s]);

  // Backward over the points after iterations iterations-1 .. 1, then the start.
  const auto points = static_cast<std::size_t>(m_.iterations - 1);
  move_.assign(points * count * states_, false);
  any_move_.assign(points * count * states_, -1);
  std::vector<double> value(count * states_, 0.0), expected(count * states_), none(states_, 0.0);
  std::vector<double> value_any(count * states_, 0.0), expected_any(count * states_);
  // E_t: the expected cost of going on with each loads into the next iteration.
  auto expect_on = [&](const std::vector<double>& v, std::vector<double>& e) {
    std::vector<double> f(states_);
    for (std::size_t l = 0; l < count; ++l) {
      for (LoadStates s = 0; s < states_; ++s) f[s] = time_[l * states_ + s] + v[l * states_ + s];
      expect_next(f);
      std::copy(f.begin(), f.end(), e.begin() + static_cast<std::ptrdiff_t>(l * states_));
    }
  };
  for (int t = m_.iterations - 1; t >= 0; --t) {
    expect_on(value, expected);
    expect_on(value_any, expected_any);
    for (LoadStates s = 0; s < states_; ++s) none[s] += time_[s];
    expect_next(none);
    if (t == 0) break;
    for (std::size_t l = 0; l < count; ++l)
      for (LoadStates s = 0; s < states_; ++s) {
        const double stay = expected[l * states_ + s];
        const std::size_t b = balance_of_[s];
        const double go = decision_[s] + moves_[l * count + b] + expected[b * states_ + s];
        const bool move = go < stay;
        value[l * states_ + s] = move ? go : stay;
        move_[((static_cast<std::size_t>(t) - 1) * count + l) * states_ + s] = move;
        double best = expected_any[l * states_ + s];
        std::int16_t to = -1;
        for (std::size_t to_b = 0; to_b < count; ++to_b) {
          const double go_to = decision_[s] + moves_[l * count + to_b] + expected_any[to_b * states_ + s];
          if (to_b != l && go_to < best) {
            best = go_to;
            to = static_cast<std::int16_t>(to_b);
          }
        }
        value_any[l * states_ + s] = best;
        any_move_[((static_cast<std::size_t>(t) - 1) * count + l) * states_ + s] = to;
      }
  }
  expected_makespan_ = expected_none_ = expected_any_target_ = 0.0;
  for (LoadStates s = 0; s < states_; ++s) {
    const double p = product_probability(s, n, law_.loaded_at_start);
    expected_makespan_ += p * expected[s];
    expected_none_ += p * none[s];
    expected_any_target_ += p * expected_any[s];
  }
  expected_makespan_ += m_.start;
  expected_none_ += m_.start;
  expected_any_target_ += m_.start;
}

std::vector<double> OnlineOptimal::speeds_of(LoadStates s) const {
  std::vector<double> speeds(peak_);
  for (std::size_t i = 0; i < speeds.size(); ++i)
    if (loaded(s, i)) speeds[i] *= law_.load_factor;
  return speeds;
}

void OnlineOptimal::expect_next(std::vector<double>& f, const OnOffLaw& law) const {
  const double stay_available = 1.0 - law.leave_available, stay_loaded = 1.0 - law.leave_loaded;
  for (std::size_t i = 0; i < m_.initial_loads.size(); ++i) {
    const LoadStates bit = LoadStates{1} << i;
    for (LoadStates s = 0; s < states_; ++s) {
      if (s & bit) continue;
      const double available = f[s], loaded_then = f[s | bit];
      f[s] = stay_available * available + law.leave_available * loaded_then;
      f[s | bit] = law.leave_loaded * available + stay_loaded * loaded_then;
    }
  }
}

double OnlineOptimal::planner_time(LoadStates s) const {
  double last = 0.0;
  if (m_.decision_flops > 0.0)
    for (double v : speeds_of(s)) last = std::max(last, m_.decision_flops / v);
  return last;
}

std::vector<double> OnlineOptimal::solve_late(int delay, double look, const OnOffLaw& law, int from,
                                              LateChoices* choices) const {
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
  auto move = [&](std::size_t from_l, std::size_t to) { return n >= 2 ? moves_[from_l * count + to] : INFINITY; };
  if (choices) {
    const auto points = static_cast<std::size_t>(std::max(0, m_.iterations - from));
    choices->from = from;
    choices->act.assign(points * count * ages * states_, go_on);
    choices->after_look.assign(points * count * states_, go_on);
  }
  std::vector<double> next(count * ages * states_, 0.0), value(next.size()), stay(next.size()), seen(states_),
      point(ages * states_);
  std::vector<double> to(choices ? ages * states_ : 0);
  for (int t = m_.iterations - 1; t >= from; --t) {
    for (std::size_t l = 0; l < count; ++l) {
      std::copy(next.begin() + static_cast<std::ptrdiff_t>(at(l, last_age, 0)),
                next.begin() + static_cast<std::ptrdiff_t>(at(l, last_age, 0) + states_), f.begin());
      expect_next(f, law);  // the next snapshot's state k' ~ P(k, .)
      for (std::size_t a = 0; a < ages; ++a)
        for (LoadStates k = 0; k < states_; ++k)
          stay[at(l, a, k)] = g[at(l, a, k)] + (a < last_age ? next[at(l, a + 1, k)] : f[k]);
    }
    // A point from L: min over targets B' != L of C(L, B') + S_t(B', k, a), for every (a, k) at
    // once (targets outer, (a, k) inner: one pass over each target's row), and the same for a look's
    // point at age 0 with the planner's time at the present.
    for (std::size_t l = 0; l < count; ++l) {
      std::fill(point.begin(), point.end(), INFINITY);
      std::fill(to.begin(), to.end(), static_cast<double>(go_on));
      for (std::size_t b = 0; b < count; ++b) {
        if (b == l) continue;
        const double c = move(l, b);
        const double* row = &stay[at(b, 0, 0)];
        if (!choices) {
          for (std::size_t ak = 0; ak < ages * states_; ++ak) point[ak] = std::min(point[ak], c + row[ak]);
          continue;
        }
        // Branch-free, with the target kept as a double, so that the loop vectorizes as the min does.
        const auto target = static_cast<double>(b);
        for (std::size_t ak = 0; ak < ages * states_; ++ak) {
          const double v = c + row[ak];
          const bool better = v < point[ak];
          point[ak] = better ? v : point[ak];
          to[ak] = better ? target : to[ak];
        }
      }
      const std::size_t row = choices ? static_cast<std::size_t>(t - from) * count + l : 0;
      // A look shows s: then the better of going on and a point; seen a steps ahead of k.
      for (LoadStates s = 0; s < states_; ++s) {
        const double moved = planner[0][s] + point[s];
        seen[s] = std::min(stay[at(l, 0, s)], moved);
        if (choices && moved < stay[at(l, 0, s)]) choices->after_look[row * states_ + s] = static_cast<std::int16_t>(to[s]);
      }
      for (std::size_t a = 0; a < ages; ++a) {
        if (a > 0) expect_next(seen, law);
        for (LoadStates k = 0; k < states_; ++k) {
          const double st = stay[at(l, a, k)], looked = look + seen[k], moved = planner[a][k] + point[a * states_ + k];
          value[at(l, a, k)] = std::min({st, looked, moved});
          if (choices && std::min(looked, moved) < st)
            choices->act[(row * ages + a) * states_ + k] =
                looked < moved ? look_first : static_cast<std::int16_t>(to[a * states_ + k]);
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
  for (LoadStates s = 0; s < states_; ++s) expected += product_probability(s, n, law_.loaded_at_start) * f[s];
  return expected;
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
  const std::size_t n = m_.initial_loads.size(), count = loads_.size(), ages = static_cast<std::size_t>(delay) + 1;
  auto during = [&](int it) { return states[static_cast<std::size_t>(it) - 1]; };
  auto drifted = [&](double now, double then) { return std::abs(now - then) > resolve * then; };
  LatePath path;
  LateChoices choices;
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
    if (path.solves == 0 ||
        (learn && (drifted(law.leave_available, solved_for.leave_available) ||
                   drifted(law.leave_loaded, solved_for.leave_loaded)))) {
      solve_late(delay, look, law, t, &choices);
      solved_for = law;
      ++path.solves;
    }
    const std::size_t row = static_cast<std::size_t>(t - choices.from) * count + l;
    std::int16_t act = choices.act[(row * ages + a) * states_ + k];
    if (act == look_first) {
      path.makespan += look;
      path.looks.push_back(t);
      k = during(t);
      a = 0;
      act = choices.after_look[row * states_ + k];
    }
    if (act != go_on) {
      const auto b = static_cast<std::size_t>(act);
      path.makespan += planner_time(during(t)) + moves_[l * count + b];
      path.points.push_back(t);
      path.targets.push_back(loads_[b]);
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

void OnlineOptimal::check_trace(const std::vector<LoadStates>& states) const {
  if (states.size() != static_cast<std::size_t>(m_.iterations))
    throw std::invalid_argument("online-optimal: one joint state per iteration expected");
  for (LoadStates s : states)
    if (s >= states_) throw std::invalid_argument("online-optimal: a state names a member beyond the ring");
}

bool OnlineOptimal::moves(int t, std::size_t loads, LoadStates s) const {
  return move_[((static_cast<std::size_t>(t) - 1) * loads_.size() + loads) * states_ + s];
}

OnlineOptimal::Path OnlineOptimal::any_target_along(const std::vector<LoadStates>& states) const {
  check_trace(states);
  Path path;
  path.makespan = path.none = m_.start;
  std::size_t l = 0;
  for (int t = 1; t <= m_.iterations; ++t) {
    const LoadStates s = states[static_cast<std::size_t>(t) - 1];
    path.makespan += time_[l * states_ + s];
    path.none += time_[s];
    if (t == m_.iterations) break;
    const std::int16_t to = any_move_[((static_cast<std::size_t>(t) - 1) * loads_.size() + l) * states_ + s];
    if (to < 0) continue;
    const auto b = static_cast<std::size_t>(to);
    path.makespan += decision_[s] + moves_[l * loads_.size() + b];
    path.points.push_back(t);
    path.targets.push_back(loads_[b]);
    if (b == 0) path.moves_to_initial.push_back(t);
    l = b;
  }
  return path;
}

OnlineOptimal::Path OnlineOptimal::hindsight_any_target_along(const std::vector<LoadStates>& states) const {
  check_trace(states);
  const std::size_t count = loads_.size();
  auto during = [&](int t) { return states[static_cast<std::size_t>(t) - 1]; };
  const LoadsPath best = earliest_loads_path(
      m_.iterations, count, m_.start,
      [&](int t, std::size_t l, double start) { return start + time_[l * states_ + during(t)]; },
      [&](int t, std::size_t, double end) { return end + decision_[during(t)]; },
      [&](std::size_t from, std::size_t to) { return moves_[from * count + to]; });
  Path path;
  path.makespan = best.makespan;
  path.none = m_.start;
  for (int t = 1; t <= m_.iterations; ++t) path.none += time_[during(t)];
  path.points = best.points;
  for (std::size_t k = 0; k < best.to.size(); ++k) {
    path.targets.push_back(loads_[best.to[k]]);
    if (best.to[k] == 0) path.moves_to_initial.push_back(best.points[k]);
  }
  return path;
}

std::vector<int> OnlineOptimal::points_along(const std::vector<LoadStates>& states) const {
  check_trace(states);
  std::vector<int> points;
  std::size_t l = 0;
  for (int t = 1; t < m_.iterations; ++t) {
    const LoadStates s = states[static_cast<std::size_t>(t) - 1];
    if (!moves(t, l, s)) continue;
    points.push_back(t);
    l = balance_of_[s];
  }
  return points;
}

}  // namespace ringsim::points
