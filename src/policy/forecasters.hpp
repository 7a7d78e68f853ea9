// Simple forecasters of one series (a member's measured speed, one value per common snapshot) and
// their ensemble chosen by recent error, as the Network Weather Service chose among its CPU
// availability forecasters: R. Wolski, N. Spring, J. Hayes, "The Network Weather Service: a
// distributed resource performance forecasting service for metacomputing", Future Generation
// Computer Systems 15(5-6), 1999. Each forecaster predicts the series `steps` observations ahead of
// the newest. A policy uses the forecasts over a horizon of iterations, so each forecaster is judged
// on that use: after every value it forecasts the mean of the next `lead` values, and once they
// have come, its error is how far that mean was from theirs. The ensemble follows the forecaster of
// the least mean absolute error over the last `memory` of them (NWS judged one step ahead, which
// favours the forecasters that track over those that average a cycle out; ties, up
// to a relative 1e-9 of rounding: the earliest in the list, so a constant series, and a step
// until the forecasts made after it are judged, is forecast by its last value). Pure.
#pragma once

#include <array>
#include <cstddef>
#include <deque>
#include <vector>

namespace ringsim::policy {

enum class ForecasterKind {
  last_value,      // the newest value
  running_mean,    // the mean of every value seen
  window_mean,     // the mean of the last `window` values
  window_median,   // their median (the mean of the two middle ones for an even count)
  smoothing,       // exponential smoothing: level = a y + (1 - a) level, from the first value
  linear_trend,    // the least-squares line through the last `window` values, extrapolated
};
constexpr std::size_t kForecasters = 6;
const char* to_string(ForecasterKind k);

struct ForecastSettings {
  std::size_t window = 8;        // values the window forecasters and the trend look at
  double smoothing = 0.3;        // a of exponential smoothing
  std::size_t lead = 20;         // values ahead whose mean forecasters are judged on
  std::size_t memory = 10;       // judged forecasts kept per forecaster
};

// What one forecaster predicts `steps` >= 1 observations after the newest of `values` (oldest
// first, at least one). The trend is kept within the window's range widened by that range on each
// side and at least a quarter of the window's lowest value: a line fitted on a stretch of a wave
// must not run off to zero or infinity when extrapolated. `level` is the smoothing's level.
double forecast_of(ForecasterKind k, const std::deque<double>& window, double running_mean, double level,
                   std::size_t steps, const ForecastSettings& s);

// The median of `values` (not empty).
double median_of(std::vector<double> values);

// The least-squares line through values y_0..y_(m-1) at x = 0..m-1, evaluated at x (m = 1: y_0).
double trend_at(const std::deque<double>& values, double x);

class ForecastEnsemble {
 public:
  explicit ForecastEnsemble(ForecastSettings s = {}) : s_(s) {}

  // A new value of the series: the forecasts of the mean of the last `lead` values, made just
  // before the first of them came, are judged; then each forecaster forecasts the next `lead`.
  void observe(double value);
  // The chosen forecaster's value `steps` >= 1 observations past the newest (0 before any value).
  double forecast(std::size_t steps) const;
  ForecasterKind chosen() const { return chosen_; }
  // Forecaster k's value `steps` observations past the newest (0 before any value); for the trend,
  // `steps` = 0 is its line at the newest observation.
  double forecast_kind(ForecasterKind k, std::size_t steps) const { return count_ == 0 ? 0.0 : forecast_by(k, steps); }
  // The mean absolute error of forecaster k over its judged forecasts (0 before any).
  double error_of(ForecasterKind k) const;
  std::size_t observed() const { return count_; }

 private:
  double forecast_by(ForecasterKind k, std::size_t steps) const;
  ForecasterKind least_error() const;

  ForecastSettings s_;
  std::deque<double> window_;
  std::deque<double> recent_;  // the last `lead` values
  double sum_ = 0.0, level_ = 0.0;
  std::size_t count_ = 0;
  ForecasterKind chosen_ = ForecasterKind::last_value;
  // Per forecaster: forecast means waiting for their values (the oldest is judged once `lead`
  // are waiting and a value comes), and the absolute errors of the last `memory` judged.
  std::array<std::deque<double>, kForecasters> pending_;
  std::array<std::deque<double>, kForecasters> errors_;
};

}  // namespace ringsim::policy
