#include "planners/points/on_off_recursion.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "planners/points/earliest_loads_path.hpp"
#include "planners/redistribution/load_balance.hpp"

namespace ringsim::points {
namespace {

void check(const RunModel& m, const std::vector<double>& peak, const OnOffLaw& law) {
  const std::size_t n = m.initial_loads.size();
  if (m.iterations < 1 || n == 0 || peak.size() != n || m.cost_next.size() != n || m.cost_prev.size() != n)
    throw std::invalid_argument("online-optimal: incomplete run model");
  OnlineOptimal::check_members(n);
  for (double p : {law.leave_available, law.leave_loaded, law.loaded_at_start})
    if (!(p >= 0.0 && p <= 1.0)) throw std::invalid_argument("online-optimal: probabilities must be in [0, 1]");
  if (!(law.load_factor > 0.0)) throw std::invalid_argument("online-optimal: load factor must be > 0");
}

// An iteration of loads `loads` at `speeds` (hindsight_plan.cpp's run_iteration on iteration-indexed
// speeds): each member's computation, then the border exchange (exchange_end).
double iteration_time(const RunModel& m, const std::vector<Count>& loads, const std::vector<double>& speeds) {
  std::vector<double> done(loads.size());
  for (std::size_t i = 0; i < loads.size(); ++i) done[i] = static_cast<double>(loads[i]) * m.flops_per_column / speeds[i];
  return exchange_end(m, done);
}

// What a point costs before its move (hindsight_plan.cpp's decided_at): the all-gather, then each
// member's planner run at the speed of the iteration before it, from its own gather's end.
double decision_time(const RunModel& m, const std::vector<double>& speeds) {
  double decided = 0.0;
  for (std::size_t i = 0; i < speeds.size(); ++i)
    decided = std::max(decided, (m.gathered.empty() ? 0.0 : m.gathered[i]) +
                                    (m.decision_flops > 0.0 ? m.decision_flops / speeds[i] : 0.0));
  return decided;
}

}  // namespace

void OnlineOptimal::check_members(std::size_t n) {
  if (n > max_members) throw std::invalid_argument("online-optimal: at most " + std::to_string(max_members) + " members");
}

OnlineOptimal::OnlineOptimal(const RunModel& model, std::vector<double> peak, const OnOffLaw& law, TablesOnly)
    : m_(model), peak_(std::move(peak)), law_(law) {
  check(m_, peak_, law_);
  build_tables();
}

void OnlineOptimal::build_tables() {
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
  for (std::size_t l = 0; l < count; ++l) {
    if (m_.progress) m_.progress("moves between balances", static_cast<double>(l), static_cast<double>(count));
    for (std::size_t b = 0; b < count && n >= 2; ++b)
      if (b != l) {
        moves_[l * count + b] = move_time(m_, loads_[l], loads_[b]);
        ++planner_calls_;
      }
  }
  for (LoadStates s = 0; s < states_; ++s) decision_[s] = decision_time(m_, speeds[s]);
  for (std::size_t l = 0; l < count; ++l)
    for (LoadStates s = 0; s < states_; ++s) time_[l * states_ + s] = iteration_time(m_, loads_[l], speeds[s]);
}

OnlineOptimal::OnlineOptimal(const RunModel& model, std::vector<double> peak, const OnOffLaw& law)
    : OnlineOptimal(model, std::move(peak), law, TablesOnly{}) {
  const std::size_t n = m_.initial_loads.size(), count = loads_.size();

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
    if (m_.progress)
      m_.progress("backward recursion", static_cast<double>(m_.iterations - 1 - t), static_cast<double>(m_.iterations));
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
    const double p = joint_probability(s, n, law_.loaded_at_start);
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
    if (is_loaded(s, i)) speeds[i] *= law_.load_factor;
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

void OnlineOptimal::check_trace(const std::vector<LoadStates>& states) const {
  if (states.size() != static_cast<std::size_t>(m_.iterations))
    throw std::invalid_argument("online-optimal: one joint state per iteration expected");
  for (LoadStates s : states)
    if (s >= states_) throw std::invalid_argument("online-optimal: a state names a member beyond the ring");
}

std::size_t OnlineOptimal::loads_index(const std::vector<Count>& loads) const {
  return static_cast<std::size_t>(std::find(loads_.begin(), loads_.end(), loads) - loads_.begin());
}

std::vector<double> OnlineOptimal::speeds_balanced_to(std::size_t b) const {
  if (b >= loads_.size()) throw std::invalid_argument("online-optimal: no such loads");
  if (b == 0) return peak_;
  return speeds_of(static_cast<LoadStates>(std::find(balance_of_.begin(), balance_of_.end(), b) - balance_of_.begin()));
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
    path.point_loads.push_back(loads_[b]);
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
    path.point_loads.push_back(loads_[best.to[k]]);
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
