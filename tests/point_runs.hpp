// Seeded random runs for the point tests (hindsight, online-optimal): a run's costs as
// points::RunModel holds them, drawn so that moving is sometimes worth it and sometimes not.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "planners/points/hindsight.hpp"
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
  m.initial_loads = balanced_targets(peak, m.columns);
  const double iteration = static_cast<double>(m.columns) * m.flops_per_column / (static_cast<double>(n) * 1e9);
  const double scale = iteration * std::pow(10.0, 2.0 * unit(rng) - 1.5);  // a column move: 0.03 to 3 iterations
  m.cost_next.clear();
  m.cost_prev.clear();
  for (std::size_t i = 0; i < n; ++i) {
    m.cost_next.push_back(scale * (0.2 + unit(rng)) / static_cast<double>(m.columns) * 4.0);
    m.cost_prev.push_back(scale * (0.2 + unit(rng)) / static_cast<double>(m.columns) * 4.0);
  }
  m.border_time = *std::max_element(m.cost_next.begin(), m.cost_next.end());
  m.gather_time = unit(rng) * 0.1 * iteration;
  m.decision_flops = unit(rng) < 0.5 ? 0.0 : 1e8 * unit(rng);
  m.algorithm = "auto";
  return iteration;
}

}  // namespace ringsim::testing
