// Seeded random runs for the point tests (hindsight, online-optimal): a run's costs as
// points::RunModel holds them, drawn so that moving is sometimes worth it and sometimes not.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "planners/points/hindsight_plan.hpp"
#include "planners/redistribution/load_balance.hpp"

namespace ringsim::testing {

// Columns, flop per column, n peak speeds, the start, the initial balance, column costs of 0.03
// to 3 iterations per move, the border exchange, the all-gather and the decision; the iterations
// and the speed functions are the caller's. Returns one iteration's time at the mean peak.
inline double draw_run_costs(std::mt19937_64& rng, std::size_t n, points::RunModel& m, std::vector<double>& peak) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  m.columns = static_cast<Count>(n) * (3 + static_cast<Count>(unit(rng) * 20));
  m.flops_per_column = 1e8 * (0.5 + unit(rng));
  peak.clear();
  for (std::size_t i = 0; i < n; ++i) peak.push_back(1e9 * (0.5 + unit(rng)));
  m.start = unit(rng) < 0.3 ? 2.0 * unit(rng) : 0.0;
  m.initial_loads = redistribution::balanced_targets(peak, m.columns);
  const double iteration = static_cast<double>(m.columns) * m.flops_per_column / (static_cast<double>(n) * 1e9);
  const double scale = iteration * std::pow(10.0, 2.0 * unit(rng) - 1.5);  // a column move: 0.03 to 3 iterations
  m.cost_next.clear();
  m.cost_prev.clear();
  for (std::size_t i = 0; i < n; ++i) {
    m.cost_next.push_back(scale * (0.2 + unit(rng)) / static_cast<double>(m.columns) * 4.0);
    m.cost_prev.push_back(scale * (0.2 + unit(rng)) / static_cast<double>(m.columns) * 4.0);
  }
  m.border_time = *std::max_element(m.cost_next.begin(), m.cost_next.end());
  m.gathered.assign(n, unit(rng) * 0.1 * iteration);
  m.decision_flops = unit(rng) < 0.5 ? 0.0 : 1e8 * unit(rng);
  m.planner = "auto";
  return iteration;
}

// The border exchange's end from each receiver's side: member j holds both neighbours' columns
// when the later of its own end and the sender's, plus the sender's cost to j, has passed for
// each of them (j - 1 sends with its cost_next, j + 1 with its cost_prev); the barrier waits for
// every member, and for each send, which is some other member's receive.
inline double exchange_end_by_receivers(const points::RunModel& m, const std::vector<double>& done) {
  const std::size_t n = done.size();
  double end = *std::max_element(done.begin(), done.end());
  for (std::size_t j = 0; n > 1 && j < n; ++j) {
    const std::size_t left = (j + n - 1) % n, right = (j + 1) % n;
    end = std::max(end, std::max(done[j], done[left]) + m.cost_next[left]);
    end = std::max(end, std::max(done[j], done[right]) + m.cost_prev[right]);
  }
  return end;
}

}  // namespace ringsim::testing
