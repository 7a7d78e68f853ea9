// The forecasting policy (src/policy/forecast.cpp) and its forecasters
// (src/policy/forecasters.hpp): each forecaster on series computed by hand, the ensemble's
// choice, the iteration the policy moves at on a step, a ramp and a wave, and the same answers at
// every member of random rings.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <random>

#include "planners/redistribution/load_balance.hpp"
#include "policy/forecast.hpp"
#include "policy/forecasters.hpp"
#include "policy/predictions.hpp"
#include "policy/registry.hpp"
#include "policy_runs.hpp"
#include "policy_views.hpp"
#include "trial_count.hpp"

using namespace ringsim;
using namespace ringsim::policy;

namespace {

ForecastEnsemble fed(const std::vector<double>& values, ForecastSettings s) {
  ForecastEnsemble e(s);
  for (double y : values) e.observe(y);
  return e;
}

double kind(const ForecastEnsemble& e, ForecasterKind k, std::size_t steps = 1) { return e.forecast_kind(k, steps); }

}  // namespace

TEST_CASE("forecasters: each one's value on a series computed by hand") {
  ForecastSettings s;
  s.window = 3;
  s.smoothing = 0.25;
  // 4, 8, 2, 10: last 10; running mean 24 / 4 = 6; the last three are 8, 2, 10: mean 20 / 3,
  // median 8; smoothing 4 -> 0.25 8 + 0.75 4 = 5 -> 0.25 2 + 0.75 5 = 4.25 ->
  // 0.25 10 + 0.75 4.25 = 5.6875.
  const ForecastEnsemble e = fed({4, 8, 2, 10}, s);
  CHECK(kind(e, ForecasterKind::last_value) == 10.0);
  CHECK(kind(e, ForecasterKind::running_mean) == 6.0);
  CHECK(kind(e, ForecasterKind::window_mean) == doctest::Approx(20.0 / 3.0));
  CHECK(kind(e, ForecasterKind::window_median) == 8.0);
  CHECK(kind(e, ForecasterKind::smoothing) == 5.6875);
  // Every forecaster but the trend forecasts the same value at any step.
  CHECK(kind(e, ForecasterKind::window_median, 7) == 8.0);
  // An even count: the mean of the two middle values.
  CHECK(median_of({1, 10, 2, 3}) == 2.5);
}

TEST_CASE("forecasters: the trend extrapolates its window's line, kept within the window's range widened by it") {
  ForecastSettings s;
  s.window = 3;
  // 0, 1, 2, 3: the window holds 1, 2, 3 at x = 0, 1, 2, the line y = 1 + x; two steps past the
  // newest is x = 4: 5, the top of the range (1, 3) widened by 2; three steps would be 6, kept at 5.
  const ForecastEnsemble up = fed({0, 1, 2, 3}, s);
  CHECK(kind(up, ForecasterKind::linear_trend, 1) == doctest::Approx(4.0));
  CHECK(kind(up, ForecasterKind::linear_trend, 2) == doctest::Approx(5.0));
  CHECK(kind(up, ForecasterKind::linear_trend, 3) == doctest::Approx(5.0));
  // 3, 2, 1: the line 3 - x reaches 0 at x = 3; below the range it is kept at max(1 - 2, 1 / 4).
  const ForecastEnsemble down = fed({3, 2, 1}, s);
  CHECK(kind(down, ForecasterKind::linear_trend, 1) == doctest::Approx(0.25));
  // 2, 4, 9 at x = 0, 1, 2: mean 5 at x = 1, slope ((-1)(-3) + (1)(4)) / 2 = 3.5; at x = 3: 5 + 3.5 x 2.
  CHECK(trend_at({2, 4, 9}, 3.0) == doctest::Approx(12.0));
  // One value: the trend is that value.
  CHECK(kind(fed({7}, s), ForecasterKind::linear_trend, 4) == 7.0);
}

TEST_CASE("forecasters: the ensemble follows the least error at the mean of the next `lead` values") {
  ForecastSettings s;
  s.window = 2;
  s.lead = 2;
  // A constant series: every error is 0, the first forecaster (last value) keeps the choice.
  CHECK(fed({5, 5, 5, 5, 5}, s).chosen() == ForecasterKind::last_value);
  // The ramp 1, 2, 3, 4. After 3 values one forecast is judged, the one made after the value 1 of
  // the mean of 2 and 3 (2.5): the last value and the trend (one value: 1) both missed by 1.5, a
  // tie the last value keeps. After 4 values the trend's second forecast, made on (1, 2), was 3
  // and 4 kept at 3 (the range 1..2 widened by 1), mean 3 against the mean 3.5 of 3 and 4 (error
  // 0.5, mean 1), the last value's 2 (error 1.5).
  CHECK(fed({1, 2, 3}, s).chosen() == ForecasterKind::last_value);
  const ForecastEnsemble ramp = fed({1, 2, 3, 4}, s);
  CHECK(ramp.chosen() == ForecasterKind::linear_trend);
  CHECK(ramp.error_of(ForecasterKind::linear_trend) == doctest::Approx(1.0));
  CHECK(ramp.error_of(ForecasterKind::last_value) == doctest::Approx(1.5));
  CHECK(ramp.forecast(1) == doctest::Approx(5.0));
  // Forecasters that agree up to rounding tie: 0.7 seven times, then 1 twice. The running mean of
  // six or seven 0.7 is 0.7 + 1.1e-16 in doubles, so on the step up it misses by about 1.1e-16
  // less than the last value; within the 1e-9 tolerance that is a tie, which the last value keeps,
  // and it forecasts 1 (the running mean would forecast (7 x 0.7 + 2) / 9 = 0.767).
  const ForecastEnsemble up = fed({0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 1.0, 1.0}, s);
  CHECK(up.chosen() == ForecasterKind::last_value);
  CHECK(up.forecast(1) == 1.0);
  // A cycle of period 4 judged over 4 values ahead: their mean is always 0.75, which the window
  // mean of the last 4 gives exactly once it holds them; the running mean is off after an odd
  // count, the median of 2 or 3 values is 1 or 0.75, the last value is off by 0.25 every time.
  ForecastSettings c;
  c.window = 4;
  c.lead = 4;
  std::vector<double> cycle;
  for (int k = 0; k < 16; ++k) cycle.push_back(k % 2 == 0 ? 1.0 : 0.5);
  const ForecastEnsemble e = fed(cycle, c);
  CHECK(e.chosen() == ForecasterKind::window_mean);
  CHECK(e.forecast(3) == 0.75);
  CHECK(e.error_of(ForecasterKind::last_value) == doctest::Approx(0.25));
}

namespace {

// Eight members of 1e8 flop/s holding 125 columns of 1e6 flop each (1.25 s an iteration), a
// column `column` s to move to a neighbour, report hops of 10 s (looks cost 40 s, never taken:
// even at 5 s an iteration they would come every 40 / (0.03 x 5.01) = 267 iterations).
Ring network_ring(double column) { return uniform_ring(8, 125, 1e6, column, 10.0, 1e6); }

// Snapshots 1..last (snapshot k after iteration k) with speeds(k); the first iteration after which
// the policy acts (0: never). Nothing moves.
template <class Speeds>
int first_act(Ring& r, int last, Speeds speeds) {
  auto p = make_policy("forecast", r.facts.iterations);
  for (int k = 1; k <= last; ++k) {
    set_speeds(r, speeds(k), k);
    if (p->after_iteration(view_of(r, 0, k, k)) != Act::carry_on) return k;
  }
  return 0;
}

// The rule recomputed outside the policy, its backtests left out: on the ramps and waves below
// they realize at least the gain forecast, or have not closed yet, and weigh it by 1. Ensembles
// fed snapshots 1..k, forecasts over
// H = min(left, horizon, k) iterations, the balance of their harmonic means, its gain (the smaller
// of the forecast one and the measured speeds' held H iterations) against 1.5 times its predicted
// cost. The first k at which it asks for a move.
template <class Speeds>
int rule_first_move(const Ring& r, int last, Speeds speeds) {
  const RingFacts& f = r.facts;
  std::vector<ForecastEnsemble> e(f.n, ForecastEnsemble(forecast_rule::settings));
  for (int k = 1; k <= last; ++k) {
    const std::vector<double> s = speeds(k);
    for (std::size_t j = 0; j < f.n; ++j) e[j].observe(s[j]);
    const int h = std::min({f.iterations - k, forecast_rule::horizon, k});
    std::vector<double> harmonic(f.n, 0.0);
    for (int step = 1; step <= h; ++step)
      for (std::size_t j = 0; j < f.n; ++j) harmonic[j] += 1.0 / e[j].forecast(static_cast<std::size_t>(step));
    for (double& x : harmonic) x = h / x;
    if (redistribution::is_balance_within(r.loads, harmonic, 0.0)) continue;
    const std::vector<Count> targets = redistribution::balanced_targets(harmonic, f.columns, 0.0);
    double gain = 0.0;
    for (int step = 1; step <= h; ++step) {
      std::vector<double> at(f.n);
      for (std::size_t j = 0; j < f.n; ++j) at[j] = e[j].forecast(static_cast<std::size_t>(step));
      gain += imbalance_excess(r.loads, targets, at, f.flops_per_column);
    }
    gain = std::min(gain, h * imbalance_excess(r.loads, targets, s, f.flops_per_column));
    if (gain > 1.5 * predicted_move_cost(f, r.loads, targets, s)) return k;
  }
  return 0;
}

}  // namespace

TEST_CASE("forecast: a step of member 0 to a quarter of its speed is moved for once H D exceeds 1.5 C") {
  // By hand: at a quarter speed (2.5e7) member 0's 125 columns take 5 s; the balance is 34
  // columns on it (1.36 s) and 138 on each other (1.38 s), so D = 5 - 1.38 = 3.62 s per iteration.
  // Every forecaster forecast the constant series alike, so the step is forecast by the last
  // value: the gain over H iterations is H D. C is the planner's work at the slowest speed
  // (1e6 / 2.5e7 = 0.04 s) plus the move's one-port lower bound. H = min(10, snapshots seen).
  // Column cost 0.25 s: member 0 sends its 91 extra columns one after the other (one port), the
  // bound is 91 x 0.25 = 22.75 s, C = 22.79 s, 1.5 C = 34.185 s, and H D > 34.185 needs H >= 10
  // (9 x 3.62 = 32.58, 10 x 3.62 = 36.2): a step at snapshot 4 is moved for at snapshot 10, one
  // at snapshot 30 at once (H = 10).
  auto step_at = [](int s) {
    return [s](int k) {
      std::vector<double> speeds(8, 1e8);
      if (k >= s) speeds[0] = 2.5e7;
      return speeds;
    };
  };
  Ring r = network_ring(0.25);
  std::vector<double> slow = step_at(1)(1);
  const std::vector<Count> targets = redistribution::balanced_targets(slow, 1000, 0.0);
  CHECK(targets[0] == 34);
  CHECK(targets[1] == 138);
  const double d = imbalance_excess(r.loads, targets, slow, 1e6);
  CHECK(d == doctest::Approx(3.62));
  const double c = predicted_move_cost(r.facts, r.loads, targets, slow);
  CHECK(c == doctest::Approx(22.79));
  CHECK(first_act(r, 60, step_at(4)) == 10);
  CHECK(first_act(r, 60, step_at(30)) == 30);
  // Cheap columns (0.001 s): C = 0.04 + 0.091, 1.5 C = 0.197 < 3.62, so H = 4 pays at once.
  Ring cheap = network_ring(0.001);
  CHECK(first_act(cheap, 60, step_at(4)) == 4);
  // A move that never pays (10 s a column: C = 910.04 s, 10 D = 36.2 s).
  Ring dear = network_ring(10.0);
  CHECK(first_act(dear, 90, step_at(4)) == 0);
  // A balanced ring is never moved.
  CHECK(first_act(cheap, 90, [](int) { return std::vector<double>(8, 1e8); }) == 0);
}

TEST_CASE("forecast: a gain its backtests saw half realized is not acted on") {
  // Member 0 at a quarter speed in snapshots 1-5, 11-15, 21-25, ... (k mod 10 in 1..5). Columns of
  // 0.25 s: C = 22.79 s, 1.5 C = 34.185 s (the step's case), and D = 3.62 s pays only over the
  // whole horizon: 10 D = 36.2 s. Slow snapshots 1-5 see H = k < 10: no move. At snapshot 11
  // H = 10, and the last value forecasts (no forecaster judged before 21 values), so the gain
  // forecast is 36.2 s; but the backtest of snapshot 1 has closed: its balance (34 columns on
  // member 0, 138 on the others) would have gained D in its 5 slow snapshots of 2..11 and lost
  // 1.38 - 1.25 = 0.13 s in the 5 fast ones, 17.45 s of the 36.2 s forecast: trust 0.48,
  // 0.48 x 36.2 < 34.185, and no move, then or later. Counting forecasts at their face value, the
  // policy would move at snapshot 11.
  Ring r = network_ring(0.25);
  const double c = predicted_move_cost(r.facts, r.loads, redistribution::balanced_targets({2.5e7, 1e8, 1e8, 1e8, 1e8, 1e8, 1e8, 1e8}, 1000, 0.0),
                                       {2.5e7, 1e8, 1e8, 1e8, 1e8, 1e8, 1e8, 1e8});
  CHECK(c == doctest::Approx(22.79));
  CHECK(first_act(r, 60, [](int k) {
          std::vector<double> speeds(8, 1e8);
          if ((k - 1) % 10 < 5) speeds[0] = 2.5e7;
          return speeds;
        }) == 0);
}

TEST_CASE("forecast: on a ramp it moves where the trend's forecast gain first repays 1.5 times the move") {
  // Member 0 slows linearly, 1e8 (1 - rate k). Until the forecasters have been judged (21
  // snapshots) the last value forecasts, and the rule reads as for a step whose D_k grows with k;
  // a slow ramp is moved for later, once the trend, which forecasts it exactly, is followed
  // (rule_first_move recomputes the iteration, checked here against the policy). By hand, rate
  // 0.01, columns of 0.01 s: at k = 1 member 0 runs at 0.99e8 and its 125 columns take 1.2626 s;
  // the balance gives it 124 (1.2525 s) and the others 125 or 126 (1.26 s), so D_1 = 0.0026 s,
  // C = 1e6 / 0.99e8 + 1 column x 0.01 s = 0.0201 s, and H D = 0.0026 < 1.5 C = 0.0302: the rule
  // waits while D_k and H = k grow.
  int moved = 0, later = 0;
  for (double column : {0.01, 0.1, 0.5}) {
    for (double rate : {0.002, 0.005, 0.01}) {
      Ring r = network_ring(column);
      auto ramp = [rate](int k) {
        std::vector<double> speeds(8, 1e8);
        speeds[0] = 1e8 * (1.0 - rate * k);
        return speeds;
      };
      const int expected = rule_first_move(r, 90, ramp);
      INFO("column cost ", column, ", rate ", rate);
      CHECK(first_act(r, 90, ramp) == expected);
      moved += expected > 0;
      if (expected <= 21) continue;
      ++later;
      // Then the trend is followed: the plan balances member 0 for the slower speeds forecast,
      // the harmonic mean over k = 1..H (H = min(10, left)) of the line 1e8 (1 - rate (e + k)),
      // kept above the window's lowest value (at e) less its range (the 8 values span 7 rate 1e8).
      auto p = make_policy("forecast", 100);
      for (int k = 1; k <= expected; ++k) {
        set_speeds(r, ramp(k), k);
        (void)p->after_iteration(view_of(r, 0, k, k));
      }
      const int h = std::min(forecast_rule::horizon, 100 - expected);
      const double lowest = ramp(expected)[0], floor = std::max(lowest - 7.0 * rate * 1e8, 0.25 * lowest);
      double harmonic = 0.0;
      for (int k = 1; k <= h; ++k) harmonic += 1.0 / std::max(1e8 * (1.0 - rate * (expected + k)), floor);
      const auto own = p->balance_for(view_of(r, 0, expected, expected));
      REQUIRE(own.has_value());
      CHECK((*own)[0] == doctest::Approx(h / harmonic));
      CHECK((*own)[0] < ramp(expected)[0]);
    }
  }
  CHECK(moved >= 6);
  CHECK(later >= 1);  // some once the trend is followed
  // By hand, the ensemble on the ramp: after 22 snapshots the trend (exact on a line) is followed.
  ForecastEnsemble e(forecast_rule::settings);
  for (int k = 1; k <= 22; ++k) e.observe(1e8 * (1.0 - 0.01 * k));
  CHECK(e.chosen() == ForecasterKind::linear_trend);
  CHECK(e.forecast(5) == doctest::Approx(1e8 * (1.0 - 0.01 * 27)));
}

namespace {

// A wave of member 0, 1e8 (0.7 + 0.3 cos(2 pi k / 40)), the others constant.
std::vector<double> wave(int k) {
  std::vector<double> speeds(8, 1e8);
  speeds[0] = 1e8 * (0.7 + 0.3 * std::cos(2.0 * M_PI * k / 40.0));
  return speeds;
}

}  // namespace

TEST_CASE("forecast: on a wave it moves where the rule first pays, and takes the plan whose transfer the gain repays") {
  // At k = 1 member 0 runs at 0.7 + 0.3 cos(pi / 20) = 0.996 of its speed: nothing to move. As
  // the wave falls the gain grows; rule_first_move recomputes the first snapshot at which the
  // forecast gain over H = min(10, k) repays 1.5 C.
  Ring r = network_ring(0.1);
  const int expected = rule_first_move(r, 90, wave);
  CHECK(expected > 1);
  CHECK(expected < 20);  // before the trough (k = 20)
  CHECK(first_act(r, 90, wave) == expected);
  // Before 21 snapshots no forecaster has been judged and the last value forecasts: the plan
  // balances the measured speeds (given as the policy's own), and it is taken when the plan's
  // transfer is within the gain.
  auto p = make_policy("forecast", 100);
  for (int k = 1; k <= expected; ++k) {
    set_speeds(r, wave(k), k);
    const Act a = p->after_iteration(view_of(r, 0, k, k));
    CHECK((a != Act::carry_on) == (k == expected));
  }
  const auto own = p->balance_for(view_of(r, 0, expected, expected));
  REQUIRE(own.has_value());
  CHECK((*own)[0] == doctest::Approx(wave(expected)[0]));
  Prediction plan;
  plan.moves = true;
  plan.speeds = wave(expected);
  plan.targets = redistribution::rebalanced_targets(r.loads, *own, 0.0);
  plan.transfer_time = move_lower_bound(r.facts, r.loads, plan.targets);
  CHECK(p->accept(view_of(r, 0, expected, expected), plan));
  plan.transfer_time = 1e6;
  auto q = make_policy("forecast", 100);
  for (int k = 1; k <= expected; ++k) {
    set_speeds(r, wave(k), k);
    (void)q->after_iteration(view_of(r, 0, k, k));
  }
  CHECK_FALSE(q->accept(view_of(r, 0, expected, expected), plan));
}

TEST_CASE("forecast: over a whole wave with its moves carried out, it moves a few times, not at every snapshot") {
  Ring r = network_ring(0.1);
  auto p = make_policy("forecast", 100);
  int moves = 0, last_move = 0;
  for (int k = 1; k < 100; ++k) {
    set_speeds(r, wave(k), k);
    MemberView v = view_of(r, 0, k, k);
    v.last_move = last_move;
    if (p->after_iteration(v) == Act::carry_on) continue;
    const auto own = p->balance_for(v);
    Prediction plan;
    plan.speeds = wave(k);
    plan.targets = own ? redistribution::rebalanced_targets(r.loads, *own, 0.0) : redistribution::rebalanced_targets(r.loads, wave(k), 0.0);
    plan.moves = !std::equal(plan.targets.begin(), plan.targets.end(), r.loads.begin());
    plan.transfer_time = plan.moves ? move_lower_bound(r.facts, r.loads, plan.targets) : 0.0;
    if (p->accept(v, plan)) {
      r.loads.assign(plan.targets.begin(), plan.targets.end());
      last_move = k;
      ++moves;
    }
  }
  // Until forecasters are judged (21 snapshots) the last value forecasts, and the wave's fall is
  // followed snapshot after snapshot while each balance repays itself at the speeds of the day;
  // once judged, a forecaster that averages the wave over the horizon holds the balance.
  INFO("moves ", moves);
  CHECK(moves >= 2);
  CHECK(moves <= 12);
}

TEST_CASE("forecast: on 1000 random rings every member answers alike") {
  const int rings = testing::trials(1000);
  // Rings whose members each have the network ring's facts (costs and peak speeds), loads spread
  // evenly; deciding members also asked balance_for and accept.
  AlikeRings how;
  how.make_ring = [](std::mt19937_64& rng, std::size_t n) {
    Ring r = network_ring(std::pow(10.0, std::uniform_real_distribution<double>(-4.0, 0.0)(rng)));
    RingFacts& f = r.facts;
    f.n = n;
    f.columns = 200 + static_cast<long>(rng() % 2000);
    for (auto* v : {&f.cost_next, &f.cost_prev, &f.peak, &f.latency_next, &f.latency_prev, &f.bandwidth_next,
                    &f.bandwidth_prev})
      v->resize(n, v->front());
    r.loads.assign(n, f.columns / static_cast<long>(n));
    r.loads[0] += f.columns - r.loads[0] * static_cast<long>(n);
    return r;
  };
  how.ask_decisions = true;
  const auto acts_seen = members_answer_alike_on_random_rings("forecast", 20261128, rings, how);
  MESSAGE("carry on ", acts_seen[0], ", decide ", acts_seen[1], ", look ", acts_seen[2]);
  CHECK(acts_seen[0] > rings / 10);
  CHECK(acts_seen[1] > rings / 10);  // decisions on the snapshot
  CHECK(acts_seen[2] > rings / 10);  // looks
}
