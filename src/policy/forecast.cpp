// Forecast: redistribute when the gain forecast over the coming iterations repays the move's
// predicted cost, balancing for the speeds forecast over those iterations (for the measured ones
// after a look). The forecasts are the Network Weather Service's: R. Wolski, N. Spring, J. Hayes,
// "The Network Weather Service: a distributed resource performance forecasting service for
// metacomputing", Future Generation Computer Systems 15(5-6), 1999, which predicted each host's
// CPU availability with a set of simple forecasters (last value, running and sliding-window means
// and medians, exponential smoothing, ...) and followed, per host, the one with the lowest recent
// error (forecasters.hpp; a least-squares trend is added for speeds that drift).
//
// What it knows: the common snapshots (member_reports.cpp), which every member holds alike, so
// every member feeds the same speeds to the same ensembles and reaches the same answer, and the
// looks (all-gathers both ways) it takes. Each member's measured speed is one series, one value per
// snapshot.
//
// The rule, at each new snapshot of iteration c, after iteration t (left = iterations - t):
//   - forecast every member's speed s_j(k) for iterations t + k, k = 1..H, H = min(left, horizon,
//     snapshots seen): (t - c) + k snapshots past the newest, so a stale snapshot (a ring of 32
//     sees iteration t - 15) is forecast across its age rather than taken for the present; a
//     series seen for fewer values than the horizon says nothing of what holds longer;
//   - the move is to the balance B of the forecast speeds, each member's harmonic mean over the
//     horizon (the speed at which its columns take, over the horizon, the time they take on
//     average), handed to the decision as the speeds to balance for (balance_for);
//   - its gain is the smaller of sum over k of T(L, s(k)) - T(B, s(k)) (T the slowest member's
//     computation, L the loads) and H times the same at the snapshot's measured speeds: a move
//     must pay if the forecast is right and if the speeds hold as measured;
//   - that gain is weighed by the share of their forecast gain the backtests realized: each
//     snapshot's balance for its own forecast, from the loads then, is followed over the next
//     `horizon` snapshots and what it would have gained at the speeds that came is set against
//     its forecast; the last `backtests` closed give the share, within [0, 1] (1 before any);
//   - the members decide (on the snapshot, no all-gather) when the weighed gain exceeds `margin`
//     times the predicted move cost (the planner's work at the slowest speed and the move's
//     one-port lower bound, predictions.hpp), and carry the plan out when it still exceeds
//     `margin` times the plan's predicted transfer time. A refused plan is not planned again
//     while it asks for the same targets.
// Looks: every P iterations, P such that the looks cost at most `look_share` of the iterations
// between them (as adaptive's), an all-gather shows the present; its plan balances the fresh
// speeds (the decision measures them after balance_for is asked, so a look cannot balance for a
// forecast that includes them), the fresh speeds are the series' newest values for the forecast,
// and the gain is not weighed by the backtests, which judge the snapshots' forecasts. Snapshots
// no newer than the last look are not decided on.
// Why: a move pays only through the iterations after it, at the speeds they will have; where the
// speeds drift (a ramp) the snapshot's balance is already behind when the columns arrive, and the
// forecast's balance is the one that serves the horizon; where they churn around a level (on/off
// load, a daily cycle), the forecasters that average win on the horizon's error, the forecast is
// that level, and the backtests, which see the snapshots' imbalances come and go, weigh the
// passing imbalance's gain down.
#include "policy/forecast.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <utility>
#include <optional>
#include <vector>

#include "planners/redistribution/load_balance.hpp"
#include "policy/predictions.hpp"
#include "policy/registry.hpp"

namespace ringsim::policy {
namespace {

using Forecasts = std::vector<std::vector<double>>;  // [k - 1][member], flop/s

// What the loads lose over the forecast iterations against `targets`, s: the smaller of what
// they lose at the forecast speeds and at the measured ones held for as many iterations.
double forecast_gain(const std::vector<long>& loads, const std::vector<Count>& targets, const Forecasts& speeds,
                     const std::vector<double>& measured, double flops_per_column) {
  double gain = 0.0;
  for (const std::vector<double>& s : speeds) gain += imbalance_excess(loads, targets, s, flops_per_column);
  const double held =
      static_cast<double>(speeds.size()) * imbalance_excess(loads, targets, measured, flops_per_column);
  return std::min(gain, held);
}

class Forecast final : public RedistributionPolicy {
 public:
  bool piggybacks_reports() const override { return true; }
  bool gathers_both_ways() const override { return true; }  // as gather_cost() counts a look

  Act after_iteration(const MemberView& v) override {
    const RingFacts& f = *v.ring;
    const bool seen = v.common_iteration > observed_;
    if (seen && f.n >= 2) {
      observed_ = v.common_iteration;
      if (members_.size() != f.n) members_.assign(f.n, ForecastEnsemble(forecast_rule::settings));
      for (std::size_t j = 0; j < f.n; ++j) members_[j].observe((*v.common)[j].speed);
      backtest(f, speeds_of(*v.common), *v.loads);
    }
    const int left = f.iterations - v.iteration;
    if (left <= 0 || f.n < 2) return Act::carry_on;
    const std::vector<double> measured = members_.empty() ? f.peak : speeds_of(*v.common);
    // A look every P iterations, P such that the looks cost at most `look_share` of the
    // iterations between them (none where the network dominates).
    const double iteration = compute_time_of(*v.loads, measured, f.flops_per_column) + f.border_time;
    const double period = std::ceil(gather_cost(f) / (forecast_rule::look_share * iteration));
    if (!members_.empty() && period <= left && v.iteration - last_look_ >= period) {
      last_look_ = v.iteration;
      forecast_from(v, left);
      balance_for_.reset();
      return Act::gather_and_decide;
    }
    // Reports no newer than the last look tell nothing that look did not.
    if (!seen || members_.empty() || v.common_iteration <= last_look_) return Act::carry_on;

    const double error = speed_error_of(*v.common);
    const std::vector<double> harmonic = forecast_from(v, left);
    // Forecast speeds within the snapshot's error of a balance of the loads ask for no move.
    if (redistribution::is_balance_within(*v.loads, harmonic, error)) return Act::carry_on;
    std::vector<Count> targets = redistribution::balanced_targets(harmonic, f.columns, 0.0);
    if (targets == refused_) return Act::carry_on;
    const double gain = trust() * forecast_gain(*v.loads, targets, forecasts_, measured, f.flops_per_column);
    const double cost = predicted_move_cost(f, *v.loads, targets, measured);
    if (!(gain > forecast_rule::margin * cost)) return Act::carry_on;
    measured_ = measured;
    balance_for_ = harmonic;
    return Act::decide;
  }

  std::optional<std::vector<double>> balance_for(const MemberView& v) override {
    (void)v;
    return balance_for_;
  }

  bool accept(const MemberView& v, const Prediction& p) override {
    const bool looked = !balance_for_;
    balance_for_.reset();
    if (!p.moves) return false;
    // A look's plan balances the fresh speeds: they are the series' newest values, forecast from
    // and held.
    if (looked) fresh_forecast(v, p.speeds);
    const std::vector<double>& held = looked ? p.speeds : measured_;
    const double gain = (looked ? 1.0 : trust()) * forecast_gain(*v.loads, p.targets, forecasts_, held, v.ring->flops_per_column);
    const bool pays = gain > forecast_rule::margin * p.transfer_time;
    if (!pays && !looked) refused_ = p.targets;
    return pays;
  }

 private:
  // A move the snapshot's forecast would have asked for, followed over the horizon.
  struct Backtest {
    std::vector<long> loads;
    std::vector<Count> targets;
    double forecast = 0.0;  // its gain as forecast (forecast_gain, over the whole horizon), s
    double realized = 0.0;  // what the loads lost against the targets at the speeds that came, s
    int seen = 0;           // snapshots since
  };

  // Each snapshot's balance for its forecast, from the loads then, is a move whose forecast gain
  // is set against what it would have gained at the speeds of the next `horizon` snapshots; the
  // snapshot's speeds add to every open one's realized gain.
  void backtest(const RingFacts& f, const std::vector<double>& speeds, const std::vector<long>& loads) {
    for (Backtest& b : open_) {
      b.realized += imbalance_excess(b.loads, b.targets, speeds, f.flops_per_column);
      ++b.seen;
    }
    while (!open_.empty() && open_.front().seen >= forecast_rule::horizon) {
      closed_.emplace_back(open_.front().forecast, open_.front().realized);
      open_.pop_front();
      if (closed_.size() > forecast_rule::backtests) closed_.pop_front();
    }
    Forecasts ahead(static_cast<std::size_t>(forecast_rule::horizon), std::vector<double>(f.n));
    std::vector<double> harmonic(f.n, 0.0);
    for (std::size_t k = 0; k < ahead.size(); ++k)
      for (std::size_t j = 0; j < f.n; ++j) {
        ahead[k][j] = members_[j].forecast(k + 1);
        harmonic[j] += 1.0 / ahead[k][j];
      }
    for (double& x : harmonic) x = static_cast<double>(ahead.size()) / x;
    if (redistribution::is_balance_within(loads, harmonic, 0.0)) return;
    std::vector<Count> targets = redistribution::balanced_targets(harmonic, f.columns, 0.0);
    const double forecast = forecast_gain(loads, targets, ahead, speeds, f.flops_per_column);
    if (forecast > 0.0) open_.push_back({loads, std::move(targets), forecast, 0.0, 0});
  }

  // How much of a forecast gain the backtests saw realized: their realized gains over their
  // forecast ones, within [0, 1] (1 before any has run its horizon).
  double trust() const {
    double forecast = 0.0, realized = 0.0;
    for (const auto& [f, r] : closed_) {
      forecast += f;
      realized += r;
    }
    return closed_.empty() ? 1.0 : std::clamp(realized / forecast, 0.0, 1.0);
  }

  // Iterations a move's gain is counted over: the horizon, no more than are left, and no more
  // than the snapshots watched (a series seen for k values says nothing of what holds longer).
  int horizon_of(int left) const {
    return std::max(1, std::min({left, forecast_rule::horizon, static_cast<int>(members_.front().observed())}));
  }

  // The forecasts over the horizon from ensembles that also saw `fresh`, this iteration's speeds.
  void fresh_forecast(const MemberView& v, const std::vector<double>& fresh) {
    const int h = horizon_of(v.ring->iterations - v.iteration);
    forecasts_.assign(static_cast<std::size_t>(h), std::vector<double>(v.ring->n));
    for (std::size_t j = 0; j < v.ring->n; ++j) {
      ForecastEnsemble e = members_[j];
      e.observe(fresh[j]);
      for (std::size_t k = 0; k < forecasts_.size(); ++k) forecasts_[k][j] = e.forecast(k + 1);
    }
  }

  // Every member's forecast speeds for the iterations after this one, over the horizon (into
  // forecasts_), and their harmonic means, the speeds a balance for the horizon is for.
  std::vector<double> forecast_from(const MemberView& v, int left) {
    const std::size_t n = v.ring->n;
    const int h = horizon_of(left);
    const auto age = static_cast<std::size_t>(v.iteration - v.common_iteration);
    forecasts_.assign(static_cast<std::size_t>(h), std::vector<double>(n));
    std::vector<double> harmonic(n, 0.0);
    for (std::size_t k = 0; k < forecasts_.size(); ++k)
      for (std::size_t j = 0; j < n; ++j) {
        forecasts_[k][j] = members_[j].forecast(age + k + 1);
        harmonic[j] += 1.0 / forecasts_[k][j];
      }
    for (double& s : harmonic) s = static_cast<double>(h) / s;
    return harmonic;
  }

 private:
  std::vector<ForecastEnsemble> members_;  // one per member, fed the same snapshots everywhere
  Forecasts forecasts_;                    // the last weighing's, for accept()
  std::vector<double> measured_;           // the snapshot it weighed on
  std::optional<std::vector<double>> balance_for_;
  std::vector<Count> refused_;
  int observed_ = 0;
  int last_look_ = 0;
  std::deque<Backtest> open_;                      // oldest first
  std::deque<std::pair<double, double>> closed_;   // forecast and realized gains, the latest
};

}  // namespace

SchemeEntry forecast_scheme() {
  return online_policy("forecast",
                       "reports piggybacked; forecasts each member's speed (the Network Weather Service's ensemble) "
                       "and moves when the gain forecast over the next iterations repays the move's predicted cost",
                       Knows::reports,
                       [](const SchemeArgs&) { return std::make_unique<Forecast>(); });
}

}  // namespace ringsim::policy
