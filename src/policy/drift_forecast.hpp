// The drift forecast, a rule of the adaptive family (adaptive.hpp; scheme forecast-lasting): each
// member's speed forecast, and a move that the saving does not repay carried out when a drift
// forecast to go on does. Pure: no SimGrid, tested in-process (tests/test_forecast_lasting.cpp).
//
// Why. The lasting saving (lasting_saving.hpp) weighs a move against what earlier balances
// delivered, lag by lag. Under a drift (each host's speed a slow wave) a balance's share falls to
// nothing within a dozen lags and then turns (the wave has moved on), so a move is credited with a
// few lags of saving, and the policy waits while the imbalance and the move grow together
// (experiments/when/NOTES.md, "A policy that forecasts"). But under a drift the columns moved now
// towards today's balance are columns a later move would move anyway: moving now and again later
// costs about what one move later costs, and the loads lose less in between.
//
// The forecast. Each member's speeds on the common snapshots, which every member holds alike, feed
// an ensemble of the Network Weather Service's forecasters (forecasters.hpp: R. Wolski, N. Spring,
// J. Hayes, Future Generation Computer Systems 15(5-6), 1999), each judged on the mean of the
// next `lead` values. The speeds drift when the least-squares trend forecast those means better
// than the last value did, over the ring (summed errors, the trend's at most `trust` times the
// last value's): a step or an on/off churn is forecast no better by a line than by its last value.
//
// The rule. A plan that the saving refuses is carried out when the speeds drift, the next periodic
// look comes within `lead` iterations, H of them (fewer if fewer are left), and at the trend's
// speeds s_1 .. s_H of the iterations to that look
//     margin * T_move + sum_i T(B, s_i) + C(B -> B_H)  <  sum_i T(L, s_i) + C(L -> B_H):
// moving now, and again at the look, costs less than moving once at the look. L: the loads; B: the
// plan's targets; B_H: the balance of s_H; T: the slowest member's computation; T_move: the plan's
// predicted transfer; C: a move's one-port lower bound (predictions.hpp) scaled by T_move over
// the plan's own lower bound. The look is what makes the second move come: without one within the
// lead, the rule would move towards balances that a wave leaves before anyone looks again
// (experiments/when/NOTES.md, "forecast-lasting").
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "model/redistribution.hpp"
#include "planners/redistribution/load_balance.hpp"
#include "policy/forecasters.hpp"
#include "policy/policy.hpp"
#include "policy/predictions.hpp"

namespace ringsim::policy {

class DriftForecast {
 public:
  static constexpr std::size_t lead = 5;  // snapshots ahead the forecasters are judged on: the longest horizon
  static constexpr double trust = 0.8;    // the trend's error, at most this share of the last value's
  static constexpr ForecastSettings settings{8, 0.3, lead, 10};

  // A new common snapshot's speeds, one per member.
  void observe(const std::vector<double>& speeds) {
    if (members_.size() != speeds.size()) members_.assign(speeds.size(), ForecastEnsemble(settings));
    for (std::size_t j = 0; j < speeds.size(); ++j) members_[j].observe(speeds[j]);
  }

  // Whether the ring's speeds drift: the trend forecast the next `lead` snapshots' means better
  // than the last value did (both judged at least once).
  bool drifts(std::size_t n) const {
    if (members_.size() != n || members_.front().observed() <= settings.window + lead) return false;
    double trend = 0.0, last = 0.0;
    for (const ForecastEnsemble& e : members_) {
      trend += e.error_of(ForecasterKind::linear_trend);
      last += e.error_of(ForecasterKind::last_value);
    }
    return trend < trust * last;
  }

  // Asked where the speeds drift: whether moving now and again at the next periodic look costs
  // less than moving once then (the file's opening comment), for the plan `p`, `left` iterations
  // before the end; `look_period`: the iterations between two periodic looks at the pace of the
  // loads now, `margin` the share of T_move a move must repay.
  bool repays_moving_twice(const MemberView& v, const Prediction& p, int left, double look_period,
                           double margin) const {
    const RingFacts& f = *v.ring;
    const int horizon = std::min(left, static_cast<int>(look_period));
    if (horizon < 1 || horizon > static_cast<int>(lead)) return false;
    // Snapshots from the newest to this iteration, and to the speeds the plan balanced.
    const auto age = static_cast<std::size_t>(v.iteration - v.common_iteration);
    const std::size_t measured = p.fresh ? age : 0;
    std::vector<double> s(f.n);
    double held = 0.0, moved = 0.0;
    for (int i = 1; i <= horizon; ++i) {
      s = trend_speeds(p.speeds, measured, age + static_cast<std::size_t>(i));
      moved += compute_time_of(p.targets, s, f.flops_per_column);
      held += compute_time_of(*v.loads, s, f.flops_per_column);
    }
    const std::vector<Count> at_look = redistribution::balanced_targets(s, f.columns, 0.0);
    const std::vector<long> targets(p.targets.begin(), p.targets.end());
    const double bound = move_lower_bound(f, *v.loads, p.targets);
    const double scale = bound > 0.0 ? p.transfer_time / bound : 1.0;
    const double twice = margin * p.transfer_time + moved + scale * move_lower_bound(f, targets, at_look);
    const double once = held + scale * move_lower_bound(f, *v.loads, at_look);
    return twice < once;
  }

 private:
  // The speeds `step` snapshots past the newest: `measured` (taken `from` snapshots past the
  // newest) moved by what the trend forecasts between the two.
  std::vector<double> trend_speeds(const std::vector<double>& measured, std::size_t from, std::size_t step) const {
    std::vector<double> s(measured.size());
    for (std::size_t j = 0; j < s.size(); ++j) {
      const double drift = members_[j].forecast_kind(ForecasterKind::linear_trend, step) -
                           members_[j].forecast_kind(ForecasterKind::linear_trend, from);
      s[j] = std::max(measured[j] + drift, min_share * measured[j]);
    }
    return s;
  }

  static constexpr double min_share = 0.1;  // a forecast speed keeps at least this share of the measured one
  std::vector<ForecastEnsemble> members_;   // one per member, fed the same snapshots everywhere
};

}  // namespace ringsim::policy
