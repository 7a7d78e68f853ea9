#include "policy/predictions.hpp"

#include <algorithm>
#include <cmath>

#include "planners/points/shared_move_bound.hpp"

namespace ringsim::policy {

std::vector<double> speeds_of(const std::vector<Report>& reports) {
  std::vector<double> speeds;
  speeds.reserve(reports.size());
  for (const Report& rep : reports) speeds.push_back(rep.speed);
  return speeds;
}

double speed_error_of(const std::vector<Report>& reports) {
  double error = 0.0;
  for (const Report& rep : reports) error = std::max(error, rep.speed_error);
  return error;
}

double move_lower_bound(const RingFacts& f, const std::vector<long>& loads, const std::vector<Count>& targets) {
  RingInstance inst;
  inst.bidirectional = true;
  inst.loads.assign(loads.begin(), loads.end());
  inst.targets = targets;
  inst.cost_next = f.cost_next;
  inst.cost_prev = f.cost_prev;
  return points::shared_move_lower_bound(inst, f.routes);
}

double gather_cost(const RingFacts& f) {
  auto time = [&f](double latency, double bandwidth) {
    return latency + (std::isfinite(bandwidth) ? std::max(1.0, f.report_bytes) / bandwidth : 0.0);
  };
  double hop = 0.0;
  for (std::size_t i = 0; i < f.n; ++i)
    hop = std::max({hop, time(f.latency_next[i], f.bandwidth_next[i]), time(f.latency_prev[i], f.bandwidth_prev[i])});
  return static_cast<double>(f.n / 2) * hop;
}

double predicted_move_cost(const RingFacts& f, const std::vector<long>& loads, const std::vector<Count>& targets,
                           const std::vector<double>& speeds) {
  return f.decision_flops / *std::min_element(speeds.begin(), speeds.end()) + move_lower_bound(f, loads, targets);
}

}  // namespace ringsim::policy
