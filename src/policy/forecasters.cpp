#include "policy/forecasters.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ringsim::policy {

const char* to_string(ForecasterKind k) {
  switch (k) {
    case ForecasterKind::last_value: return "last value";
    case ForecasterKind::running_mean: return "running mean";
    case ForecasterKind::window_mean: return "window mean";
    case ForecasterKind::window_median: return "window median";
    case ForecasterKind::smoothing: return "exponential smoothing";
    case ForecasterKind::linear_trend: return "linear trend";
  }
  return "?";
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t m = values.size();
  return m % 2 == 1 ? values[m / 2] : (values[m / 2 - 1] + values[m / 2]) / 2.0;
}

double trend_at(const std::deque<double>& values, double x) {
  const std::size_t m = values.size();
  if (m == 1) return values.front();
  const double mean_x = static_cast<double>(m - 1) / 2.0;
  const double mean_y = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(m);
  double sxy = 0.0, sxx = 0.0;
  for (std::size_t i = 0; i < m; ++i) {
    const double dx = static_cast<double>(i) - mean_x;
    sxy += dx * (values[i] - mean_y);
    sxx += dx * dx;
  }
  return mean_y + sxy / sxx * (x - mean_x);
}

double forecast_of(ForecasterKind k, const std::deque<double>& window, double running_mean, double level,
                   std::size_t steps, const ForecastSettings& s) {
  (void)s;
  switch (k) {
    case ForecasterKind::last_value: return window.back();
    case ForecasterKind::running_mean: return running_mean;
    case ForecasterKind::window_mean:
      return std::accumulate(window.begin(), window.end(), 0.0) / static_cast<double>(window.size());
    case ForecasterKind::window_median: return median_of(std::vector<double>(window.begin(), window.end()));
    case ForecasterKind::smoothing: return level;
    case ForecasterKind::linear_trend: {
      const auto [low, high] = std::minmax_element(window.begin(), window.end());
      const double range = *high - *low;
      const double x = static_cast<double>(window.size() - 1 + steps);
      return std::clamp(trend_at(window, x), std::max(*low - range, 0.25 * *low), *high + range);
    }
  }
  return window.back();
}

void ForecastEnsemble::observe(double value) {
  recent_.push_back(value);
  if (recent_.size() > s_.lead) recent_.pop_front();
  // The forecasts made `lead` observations ago covered exactly the values kept in recent_.
  const double came = std::accumulate(recent_.begin(), recent_.end(), 0.0) / static_cast<double>(recent_.size());
  for (std::size_t k = 0; k < kForecasters; ++k) {
    if (pending_[k].size() < s_.lead) continue;
    errors_[k].push_back(std::abs(pending_[k].front() - came));
    pending_[k].pop_front();
    if (errors_[k].size() > s_.memory) errors_[k].pop_front();
  }
  chosen_ = least_error();
  window_.push_back(value);
  if (window_.size() > s_.window) window_.pop_front();
  sum_ += value;
  level_ = count_ == 0 ? value : s_.smoothing * value + (1.0 - s_.smoothing) * level_;
  ++count_;
  for (std::size_t k = 0; k < kForecasters; ++k) {
    const auto kind = static_cast<ForecasterKind>(k);
    if (kind != ForecasterKind::linear_trend) {  // the same value at every step
      pending_[k].push_back(forecast_by(kind, 1));
      continue;
    }
    double mean = 0.0;
    for (std::size_t step = 1; step <= s_.lead; ++step) mean += forecast_by(kind, step);
    pending_[k].push_back(mean / static_cast<double>(s_.lead));
  }
}

double ForecastEnsemble::forecast_by(ForecasterKind k, std::size_t steps) const {
  return forecast_of(k, window_, sum_ / static_cast<double>(count_), level_, steps, s_);
}

double ForecastEnsemble::error_of(ForecasterKind k) const {
  const auto& e = errors_[static_cast<std::size_t>(k)];
  if (e.empty()) return 0.0;
  return std::accumulate(e.begin(), e.end(), 0.0) / static_cast<double>(e.size());
}

ForecasterKind ForecastEnsemble::least_error() const {
  // Forecasters that agree up to rounding (a mean of equal values, a level smoothed towards the
  // value it holds) tie: the earlier one keeps the choice.
  std::size_t best = 0;
  for (std::size_t k = 1; k < kForecasters; ++k)
    if (error_of(static_cast<ForecasterKind>(k)) < (1.0 - 1e-9) * error_of(static_cast<ForecasterKind>(best)))
      best = k;
  return static_cast<ForecasterKind>(best);
}

double ForecastEnsemble::forecast(std::size_t steps) const {
  if (count_ == 0) return 0.0;
  return forecast_by(chosen_, steps);
}

}  // namespace ringsim::policy
