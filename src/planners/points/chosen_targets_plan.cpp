#include "planners/points/chosen_targets_plan.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "planners/points/earliest_loads_path.hpp"
#include "planners/redistribution/load_balance.hpp"

namespace ringsim::points {
namespace {

void check_targets_model(const RunModel& m) {
  if (m.iterations < 1 || m.initial_loads.empty() || !m.finish || !m.decision_speeds)
    throw std::invalid_argument("hindsight with chosen targets: incomplete run model");
  if (m.clock_dependent)
    throw std::invalid_argument("hindsight with chosen targets: speeds that follow the clock are not supported");
}

// The speeds a point after iteration k balances for when it holds the initial loads: with speeds
// indexed by the iteration, the speeds of iteration k whatever the loads (reference_model.cpp's
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
    std::vector<Count> b = redistribution::balanced_targets(speeds_after(m, k), m.columns);
    if (seen.emplace(b, out.size()).second) out.push_back(std::move(b));
  }
  return out;
}

}  // namespace

ChosenTargetsPlan plan_hindsight_chosen_targets(const RunModel& m) {
  check_targets_model(m);
  const std::size_t n = m.initial_loads.size();
  const std::vector<std::vector<Count>> loads = candidate_loads(m);
  const std::size_t count = loads.size();
  ChosenTargetsPlan plan;
  plan.candidates = count;
  // Planned on first use: only moves the recurrence prices are asked for.
  std::vector<double> moves(count * count, -1.0), least(count * count, -1.0);
  const LoadsPath path = earliest_loads_path(
      m.iterations, count, m.start,
      [&](int t, std::size_t l, double start) {
        if (m.progress) m.progress("chosen targets", static_cast<double>(t - 1), static_cast<double>(m.iterations));
        return start + iteration_time(m, loads[l], t, start);
      },
      [&](int t, std::size_t, double end) { return decided_at(m, n, t, end); },
      [&](std::size_t from, std::size_t to) {
        double& c = moves[from * count + to];
        if (c < 0.0) {
          c = move_time(m, loads[from], loads[to]);
          ++plan.planner_calls;
        }
        return c;
      },
      [&](std::size_t from, std::size_t to) {
        double& b = least[from * count + to];
        if (b < 0.0) b = least_move_time(m, loads[from], loads[to]);
        return b;
      });
  plan.predicted_makespan = path.makespan;
  plan.points = path.points;
  for (std::size_t to : path.to) plan.point_loads.push_back(loads[to]);
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
