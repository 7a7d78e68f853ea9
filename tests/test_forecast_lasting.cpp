// Scheme forecast-lasting (src/policy/forecast_lasting.cpp): adaptive-lasting's answers wherever
// the speeds do not drift, and on a slow wave a plan carried out iff adaptive-lasting takes it or
// moving now and again at the next look costs less than moving once then, the rule recomputed here
// from its statement with the forecasters of forecasters.hpp (tested in test_forecast_policy.cpp);
// its answers alike at every member of random rings.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "planners/redistribution/load_balance.hpp"
#include "policy/forecasters.hpp"
#include "policy/predictions.hpp"
#include "policy/registry.hpp"
#include "policy_runs.hpp"
#include "policy_views.hpp"
#include "trial_count.hpp"

using namespace ringsim;
using namespace ringsim::policy;

namespace {

// Four members of 1e8 flop/s holding 100 columns of 1e6 flop each (1 s an iteration), cheap hops:
// computation dominates, looks are periodic (every ceil(gather / (0.03 x 1 s)) iterations).
Ring compute_ring(double hop_latency, double column) { return uniform_ring(4, 100, 1e5, column, hop_latency, 1e8); }

// Each member's speed a wave of period 60 iterations between 0.4 and all of 1e8 flop/s, its own
// phase: snapshot k's speeds.
std::vector<double> slow_wave(int k) {
  std::vector<double> s;
  for (int j = 0; j < 4; ++j) s.push_back(1e8 * (0.7 + 0.3 * std::sin(2.0 * M_PI * (k + 15.0 * j) / 60.0)));
  return s;
}

// A policy fed the wave's snapshots 1..last, `age` iterations old at each.
std::unique_ptr<RedistributionPolicy> fed(const std::string& scheme, Ring& r, int last, int age) {
  auto p = make_policy(scheme, r.facts.iterations);
  for (int k = 1; k <= last; ++k) {
    set_speeds(r, slow_wave(k), k);
    p->after_iteration(view_of(r, 0, k + age, k));
  }
  return p;
}

Prediction plan_for(const Ring& r, const std::vector<double>& speeds, bool fresh, double transfer, int it) {
  const RingFacts& f = r.facts;
  Prediction p;
  p.fresh = fresh;
  p.time = 1.3 * it;
  p.speeds = speeds;
  p.targets = redistribution::balanced_targets(speeds, f.columns, 0.0);
  p.moves = true;
  p.transfer_time = transfer;
  p.tstep_before = compute_time_of(r.loads, speeds, f.flops_per_column) + f.border_time;
  p.tstep_after = compute_time_of(p.targets, speeds, f.flops_per_column) + f.border_time;
  return p;
}

// The rule's two costs after iteration `t`, snapshots 1..last seen, plan `p`: moving now and again
// at the next periodic look, and moving once then, at the trend's speeds (each member's ensemble
// judged on the mean of the next 5 values, window 8); H = 0 when the look is not within those 5
// iterations or the trend did not forecast better than 0.8 times the last value's error.
struct Costs {
  int horizon = 0;
  double twice = 0.0, once = 0.0;
};
Costs slow_wave_costs(const Ring& r, const Prediction& p, int t, int last) {
  const RingFacts& f = r.facts;
  Costs c;
  std::vector<ForecastEnsemble> e(f.n, ForecastEnsemble(ForecastSettings{8, 0.3, 5, 10}));
  for (int k = 1; k <= last; ++k)
    for (std::size_t j = 0; j < f.n; ++j) e[j].observe(slow_wave(k)[j]);
  double trend_error = 0.0, last_error = 0.0;
  for (const ForecastEnsemble& m : e) {
    trend_error += m.error_of(ForecasterKind::linear_trend);
    last_error += m.error_of(ForecasterKind::last_value);
  }
  if (!(trend_error < 0.8 * last_error)) return c;
  const double iteration = compute_time_of(r.loads, p.speeds, f.flops_per_column) + f.border_time;
  const int period = static_cast<int>(std::ceil(gather_cost(f) / (0.03 * iteration)));
  c.horizon = std::min(f.iterations - t, period);
  if (c.horizon > 5) c.horizon = 0;
  if (c.horizon < 1) return c;
  // The plan's speeds were measured at iteration t (fresh) or at the snapshot: moved by the trend
  // from there to iteration t + i, i.e. from step t - last or 0 to step t - last + i of the series.
  const std::size_t from = p.fresh ? static_cast<std::size_t>(t - last) : 0;
  std::vector<double> s(f.n);
  for (int i = 1; i <= c.horizon; ++i) {
    for (std::size_t j = 0; j < f.n; ++j)
      s[j] = p.speeds[j] + e[j].forecast_kind(ForecasterKind::linear_trend, static_cast<std::size_t>(t - last + i)) -
             e[j].forecast_kind(ForecasterKind::linear_trend, from);
    c.twice += compute_time_of(p.targets, s, f.flops_per_column);
    c.once += compute_time_of(r.loads, s, f.flops_per_column);
  }
  const std::vector<Count> at_look = redistribution::balanced_targets(s, f.columns, 0.0);
  const std::vector<long> targets(p.targets.begin(), p.targets.end());
  const double scale = p.transfer_time / move_lower_bound(f, r.loads, p.targets);
  c.twice += 1.5 * p.transfer_time + scale * move_lower_bound(f, targets, at_look);
  c.once += scale * move_lower_bound(f, r.loads, at_look);
  return c;
}

}  // namespace

TEST_CASE("forecast-lasting: on a wave, a plan is taken iff adaptive-lasting takes it or two moves cost less than one") {
  int by_forecast = 0, by_both = 0, refused = 0, looks_far = 0;
  for (double latency : {1e-5, 0.5}) {  // looks every iteration, or every 14 or more (beyond the lead)
    for (int age : {0, 1, 2}) {
      for (bool fresh : {true, false}) {
        for (int m = 0; m < 120; ++m) {
          const double transfer = 0.05 * std::pow(1.25, m % 30);
          const int last = 20 + 5 * (m / 30), t = last + age;
          Ring ra = compute_ring(latency, 0.01), rf = compute_ring(latency, 0.01);
          auto lasting = fed("adaptive-lasting", ra, last, age);
          auto forecast = fed("forecast-lasting", rf, last, age);
          const Prediction p = plan_for(rf, slow_wave(fresh ? t : last), fresh, transfer, t);
          const Costs c = slow_wave_costs(rf, p, t, last);
          if (c.horizon > 0 && std::abs(c.twice - c.once) < 1e-9 * c.once) continue;  // a tie up to rounding
          const bool base = lasting->accept(view_of(ra, 0, t, last), p);
          const bool expected = base || (c.horizon > 0 && c.twice < c.once);
          INFO("latency ", latency, " age ", age, " fresh ", fresh, " transfer ", transfer, " H ", c.horizon,
               " twice ", c.twice, " once ", c.once);
          CHECK(forecast->accept(view_of(rf, 0, t, last), p) == expected);
          by_forecast += expected && !base;
          by_both += base;
          refused += !expected;
          looks_far += c.horizon == 0;
        }
      }
    }
  }
  MESSAGE("taken by the forecast only ", by_forecast, ", by adaptive-lasting ", by_both, ", refused ", refused,
          ", look beyond the lead ", looks_far);
  CHECK(by_forecast > 10);
  CHECK(refused > 10);
  CHECK(looks_far > 10);
}

TEST_CASE("forecast-lasting: where the speeds jump and hold, every answer is adaptive-lasting's") {
  // Piecewise-constant speeds (each member's speed jumps now and then and holds): the trend
  // forecasts no better than the last value, so nothing is moved on a forecast.
  std::mt19937_64 rng(20261129);
  const int rings = testing::trials(300);
  int plans = 0, taken = 0;
  for (int ring = 0; ring < rings; ++ring) {
    Ring ra = compute_ring(std::pow(10.0, std::uniform_real_distribution<double>(-6.0, -2.0)(rng)), 0.01);
    Ring rf = ra;
    auto lasting = make_policy("adaptive-lasting", 100);
    auto forecast = make_policy("forecast-lasting", 100);
    std::vector<double> speeds(4, 1e8);
    const int age = static_cast<int>(rng() % 3);
    for (int k = 1; k + age <= 100; ++k) {
      for (double& s : speeds)
        if (rng() % 10 == 0) s = std::uniform_real_distribution<double>(2e7, 1e8)(rng);
      set_speeds(ra, speeds, k);
      set_speeds(rf, speeds, k);
      const Act a = lasting->after_iteration(view_of(ra, 0, k + age, k));
      REQUIRE(forecast->after_iteration(view_of(rf, 0, k + age, k)) == a);
      if (a == Act::carry_on) continue;
      const Prediction p =
          plan_for(rf, speeds, a == Act::gather_and_decide, std::uniform_real_distribution<double>(0.0, 5.0)(rng), k + age);
      const bool took = lasting->accept(view_of(ra, 0, k + age, k), p);
      REQUIRE(forecast->accept(view_of(rf, 0, k + age, k), p) == took);
      ++plans;
      taken += took;
    }
  }
  MESSAGE(plans, " plans, ", taken, " taken");
  CHECK(plans > rings);
  CHECK(taken > 0);
}

TEST_CASE("forecast-lasting: on 3000 random rings every member answers alike") {
  const int rings = testing::trials(3000, 2);
  const auto acts_seen = members_answer_alike_on_random_rings("forecast-lasting", 20261129, rings);
  CHECK(acts_seen[0] > rings / 30);
  CHECK(acts_seen[1] + acts_seen[2] > rings / 30);
}
