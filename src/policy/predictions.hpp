// What a policy predicts from what every member knows (RingFacts and the reports): an iteration's
// computation, a move's one-port lower bound, an all-gather's cost. Shared by the policies.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "model/redistribution.hpp"
#include "policy/policy.hpp"

namespace ringsim::policy {

// The slowest member's computation with these loads (column counts, any integer vector: the
// members' loads or a plan's targets, without a copy) at these speeds, s.
template <class Loads>
double compute_time_of(const Loads& loads, const std::vector<double>& speeds, double flops_per_column) {
  double t = 0.0;
  for (std::size_t j = 0; j < loads.size(); ++j)
    t = std::max(t, static_cast<double>(loads[j]) * flops_per_column / speeds[j]);
  return t;
}

// How many iterations the common snapshot lags behind on a ring of n (member_reports.cpp: every
// report of iteration t - floor(n/2) + 1 has reached every member after iteration t).
inline int common_snapshot_lag(std::size_t n) { return n >= 2 ? static_cast<int>(n / 2) - 1 : 0; }

// The speeds the reports give, in member order, and the largest of their relative errors.
std::vector<double> speeds_of(const std::vector<Report>& reports);
double speed_error_of(const std::vector<Report>& reports);

// A lower bound on moving from `loads` to `targets` on this ring, s: the one-port bound (the
// slides' bidirectional bound), raised where shared links carry several of its ring edges
// (points/shared_move_bound.hpp).
double move_lower_bound(const RingFacts& f, const std::vector<long>& loads, const std::vector<Count>& targets);

// What a move from `loads` to `targets` is predicted to cost every policy alike: the planner's
// work at the slowest member's speed and the move's lower bound, s.
double predicted_move_cost(const RingFacts& f, const std::vector<long>& loads, const std::vector<Count>& targets,
                           const std::vector<double>& speeds);

// What the loads cost an iteration at these speeds over the targets: the slowest member's
// computation on `loads` minus that on `targets`, s (0 when the targets are the loads).
inline double imbalance_excess(const std::vector<long>& loads, const std::vector<Count>& targets,
                               const std::vector<double>& speeds, double flops_per_column) {
  return compute_time_of(loads, speeds, flops_per_column) - compute_time_of(targets, speeds, flops_per_column);
}

// Seconds of one all-gather of reports both ways (floor(n/2) rounds, each as slow as the slowest
// hop), estimated from the ring's routes.
double gather_cost(const RingFacts& f);

}  // namespace ringsim::policy
