#include "planners/points/hindsight_targets.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

#include "planners/redistribution/load_balance.hpp"

namespace ringsim::points {
namespace {

void check(const RunModel& m) {
  if (m.iterations < 1 || m.initial_loads.empty() || !m.finish || !m.decision_speeds)
    throw std::invalid_argument("hindsight with chosen targets: incomplete run model");
  if (m.clock_dependent)
    throw std::invalid_argument("hindsight with chosen targets: speeds that follow the clock are not supported");
}

// The speeds a point after iteration k balances for when it holds the initial loads: with speeds
// indexed by the iteration, the speeds of iteration k whatever the loads (hindsight_points.cpp's
// decision_speeds), so the balance hindsight's own point after k would take.
std::vector<double> speeds_after(const RunModel& m, int k) {
  const std::size_t n = m.initial_loads.size();
  std::vector<double> compute(n);
  for (std::size_t i = 0; i < n; ++i)
    compute[i] = m.finish(i, k, 0.0, static_cast<double>(m.initial_loads[i]) * m.flops_per_column);
  return m.decision_speeds(k, m.initial_loads, compute, 0.0, decided_at(m, n, k, 0.0));
}

// The initial loads first, then the balance of each iteration's speeds, each once.
std::vector<std::vector<Count>> candidate_loads(const RunModel& m) {
  std::vector<std::vector<Count>> out{m.initial_loads};
  std::map<std::vector<Count>, std::size_t> seen{{m.initial_loads, 0}};
  for (int k = 1; k <= m.iterations; ++k) {
    std::vector<Count> b = balanced_targets(speeds_after(m, k), m.columns);
    if (seen.emplace(b, out.size()).second) out.push_back(std::move(b));
  }
  return out;
}

}  // namespace

ChosenTargetsPlan plan_hindsight_chosen_targets(const RunModel& m) {
  check(m);
  const std::size_t n = m.initial_loads.size();
  const std::vector<std::vector<Count>> loads = candidate_loads(m);
  const std::size_t count = loads.size();
  const double unreached = std::numeric_limits<double>::infinity();
  ChosenTargetsPlan plan;
  plan.candidates = count;

  // Planned on first use: only moves between loads the run can hold at a point are asked for.
  std::vector<double> move(count * count, -1.0);
  auto move_cost = [&](std::size_t from, std::size_t to) {
    double& c = move[from * count + to];
    if (c < 0.0) {
      c = move_time(m, loads[from], loads[to]);
      ++plan.planner_calls;
    }
    return c;
  };

  // at[l]: the earliest end of iteration t holding loads l; from[t][l]: the loads held during t
  // when the point after t moved to l (l itself when it did not).
  const auto iterations = static_cast<std::size_t>(m.iterations);
  std::vector<double> at(count, unreached), next(count), decided(count);
  std::vector<std::vector<std::size_t>> from(iterations, std::vector<std::size_t>(count));
  at[0] = m.start + iteration_time(m, loads[0], 1, m.start);
  for (int t = 1; t < m.iterations && n >= 2; ++t) {
    for (std::size_t l = 0; l < count; ++l) decided[l] = at[l] == unreached ? unreached : decided_at(m, n, t, at[l]);
    std::vector<std::size_t>& came = from[static_cast<std::size_t>(t)];
    for (std::size_t to = 0; to < count; ++to) {
      next[to] = at[to];
      came[to] = to;
      for (std::size_t l = 0; l < count; ++l) {
        // A move costs at least its decision: a move that cannot arrive earlier is not planned
        // (only strictly earlier arrivals are taken, so the answer is the same).
        if (l == to || at[l] == unreached || decided[l] >= next[to]) continue;
        const double moved = decided[l] + move_cost(l, to);
        if (moved < next[to]) {
          next[to] = moved;
          came[to] = l;
        }
      }
    }
    for (std::size_t l = 0; l < count; ++l)
      at[l] = next[l] == unreached ? unreached : next[l] + iteration_time(m, loads[l], t + 1, next[l]);
  }
  if (n < 2)
    for (int t = 2; t <= m.iterations; ++t) at[0] += iteration_time(m, loads[0], t, at[0]);

  std::size_t l = static_cast<std::size_t>(std::min_element(at.begin(), at.end()) - at.begin());
  plan.predicted_makespan = at[l];
  for (int t = m.iterations - 1; t >= 1 && n >= 2; --t) {
    const std::size_t held = from[static_cast<std::size_t>(t)][l];
    if (held == l) continue;
    plan.points.push_back(t);
    plan.targets.push_back(loads[l]);
    l = held;
  }
  std::reverse(plan.points.begin(), plan.points.end());
  std::reverse(plan.targets.begin(), plan.targets.end());
  return plan;
}

double predicted_makespan_with_targets(const RunModel& m, const std::vector<int>& points,
                                       const std::vector<std::vector<Count>>& targets) {
  if (points.size() != targets.size())
    throw std::invalid_argument("hindsight with chosen targets: one target per point expected");
  if (m.iterations < 1 || m.initial_loads.empty() || !m.finish)
    throw std::invalid_argument("hindsight with chosen targets: incomplete run model");
  std::vector<Count> held = m.initial_loads;
  double clock = m.start;
  std::size_t next = 0;
  for (int it = 1; it <= m.iterations; ++it) {
    clock += iteration_time(m, held, it, clock);
    if (next == points.size() || points[next] != it) continue;
    if (it == m.iterations || targets[next] == held || targets[next].size() != held.size())
      throw std::invalid_argument("hindsight with chosen targets: a point after the last iteration, or moving nothing");
    clock = decided_at(m, held.size(), it, clock) + move_time(m, held, targets[next]);
    held = targets[next++];
  }
  if (next != points.size())
    throw std::invalid_argument("hindsight with chosen targets: points outside 1..iterations-1 or not increasing");
  return clock;
}

}  // namespace ringsim::points
