// Scheme `forecast-lasting`: adaptive-lasting's rules (adaptive_lasting.cpp) and the drift forecast
// (drift_forecast.hpp), which carries out a move the lasting saving does not repay when a drift
// forecast to go on does. Under a drift a balance's share falls to nothing within a dozen lags, so
// the lasting saving alone waits while the imbalance and the move grow together; where the speeds
// do not drift the forecast never answers and the policy is adaptive-lasting, decision for
// decision (experiments/when/NOTES.md, "forecast-lasting").
#include <memory>
#include <string>

#include "policy/adaptive.hpp"
#include "policy/registry.hpp"

namespace ringsim::policy {

std::unique_ptr<Adaptive> forecast_lasting_policy() {
  AdaptiveRules rules;
  rules.lasting.emplace();
  rules.rise.emplace();
  rules.return_to_initial.emplace();
  rules.drift.emplace();
  return std::make_unique<Adaptive>(std::move(rules));
}

SchemeEntry forecast_lasting_scheme() {
  return online_policy("forecast-lasting",
                       "adaptive-lasting that also forecasts each member's speed: where the speeds drift, a move "
                       "is made when moving now and again at the next look costs less than moving once then",
                       Knows::reports, [](const SchemeArgs&) { return forecast_lasting_policy(); });
}

}  // namespace ringsim::policy
