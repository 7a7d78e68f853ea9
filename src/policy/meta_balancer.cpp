// Meta-Balancer's rule: Menon, Jain, Zheng, Kalé, "Automated Load Balancing Invocation based on
// Application Characteristics", IEEE Cluster 2012 (Charm++, src/ck-ldb/MetaBalancer.C). After
// each balancing it collects, every iteration, the maximum load and the average load (scaled by
// the imbalance balancing leaves), fits each with a line, and balances next after the period tau
// at which the area between the two lines, the time imbalance is predicted to cost from the last
// balancing, equals the balancing's cost C:
//   (m / 2) tau^2 + b tau = C,   tau = (-b + sqrt(b^2 + 2 m C)) / m   (tau = C / b when m = 0),
// with m and b the slope and the value at the cycle's start of the line max - average. The line
// is fitted from the two halves of the samples: slope 2 (mean of the second half - mean of the
// first) / the iterations they span, through the first half's mean at a quarter of the samples.
// A period is derived once more than four samples are known; a line that gives none (no real
// root, a negative one, or a line that falls below zero before tau) gives way to the constant
// prediction tau = C / (mean excess), as in Charm++, and a mean excess of zero to no period.
//
// In a ring: the samples are the common snapshots (member_reports.cpp) of iterations computed
// on the current loads; a sample's excess is the slowest member's computation on the loads minus
// that on their balance for the snapshot's speeds (zero when the loads are a balance within the
// speeds' measurement error), which is Charm++'s max load minus the average scaled by what
// balancing attains; C is what every policy predicts for the move to the newest snapshot's
// balance (the planner's work at the slowest speed and the move's one-port lower bound). The
// period is derived again at every new snapshot, as Meta-Balancer does with each iteration's
// statistics, and the members decide once the iterations since the last move reach it.
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "planners/redistribution/load_balance.hpp"
#include "policy/predictions.hpp"
#include "policy/registry.hpp"

namespace ringsim::policy {
namespace {

struct Sample {
  int since_move = 0;  // the snapshot's iteration minus the last move's
  double excess = 0.0;
};

// The two-halves line through the samples: slope per iteration and value at the cycle's start.
struct Line {
  double slope = 0.0;
  double start = 0.0;
};

Line two_halves_line(const std::vector<Sample>& samples) {
  const std::size_t total = samples.size(), half = total / 2;
  double first = 0.0, second = 0.0;
  for (std::size_t i = 0; i < half; ++i) first += samples[i].excess;
  for (std::size_t i = half; i < total; ++i) second += samples[i].excess;
  first /= static_cast<double>(half);
  second /= static_cast<double>(total - half);
  const double span = 1.0 + samples.back().since_move - samples.front().since_move;
  Line l;
  l.slope = 2.0 * (second - first) / span;
  l.start = first - l.slope * static_cast<double>(total) / 4.0;
  return l;
}

// The period where the area under the line from the cycle's start reaches `cost`, or none: the
// positive root of (m / 2) tau^2 + b tau - C, written 2 C / (b + sqrt(b^2 + 2 m C)) where b > 0,
// the same root without the cancellation of -b + sqrt(...) when m is tiny (and C / b at m = 0).
std::optional<int> period_of_line(const Line& l, double cost) {
  const double a = l.slope / 2.0, b = l.start;
  const double discriminant = b * b + 4.0 * a * cost;
  if (discriminant < 0.0) return std::nullopt;
  double tau = 0.0;
  if (b > 0.0) tau = 2.0 * cost / (b + std::sqrt(discriminant));
  else if (a > 0.0) tau = (-b + std::sqrt(discriminant)) / (2.0 * a);
  else return std::nullopt;  // the area never grows
  if (!(tau >= 0.0) || !std::isfinite(tau)) return std::nullopt;
  if (l.slope < 0.0 && tau > -l.start / l.slope) return std::nullopt;  // the excess would be gone first
  return static_cast<int>(tau);
}

class MetaBalancer final : public RedistributionPolicy {
 public:
  static constexpr std::size_t least_samples = 5;  // "more than four" before a period is derived

  bool piggybacks_reports() const override { return true; }

  Act after_iteration(const MemberView& v) override {
    const RingFacts& f = *v.ring;
    if (v.last_move != last_move_) {  // a move starts a new cycle
      last_move_ = v.last_move;
      samples_.clear();
      period_.reset();
    }
    if (v.common_iteration > observed_ && v.common_iteration > v.last_move && f.n >= 2) {
      observed_ = v.common_iteration;
      const std::vector<double> speeds = speeds_of(*v.common);
      const std::vector<Count> targets = redistribution::rebalanced_targets(*v.loads, speeds, speed_error_of(*v.common));
      const double excess = imbalance_excess(*v.loads, targets, speeds, f.flops_per_column);
      samples_.push_back({v.common_iteration - v.last_move, excess});
      if (samples_.size() >= least_samples) period_ = derive_period(predicted_move_cost(f, *v.loads, targets, speeds));
    }
    if (!period_ || v.iteration >= f.iterations) return Act::carry_on;
    return v.iteration - v.last_move >= *period_ ? Act::decide : Act::carry_on;
  }

 private:
  std::optional<int> derive_period(double cost) const {
    double mean = 0.0;
    for (const Sample& s : samples_) mean += s.excess;
    mean /= static_cast<double>(samples_.size());
    if (!(mean > 0.0)) return std::nullopt;  // nothing to balance
    if (const auto tau = period_of_line(two_halves_line(samples_), cost)) return tau;
    return static_cast<int>(cost / mean);
  }

  std::vector<Sample> samples_;  // the current cycle's
  std::optional<int> period_;    // iterations after the last move
  int observed_ = 0;
  int last_move_ = 0;
};

}  // namespace

SchemeEntry meta_balancer_scheme() {
  return online_policy("meta-balancer",
                       "reports piggybacked; Charm++'s Meta-Balancer: move after the period at which the imbalance "
                       "predicted by a line since the last move adds up to the move's predicted cost",
                       Knows::reports,
                       [](const SchemeArgs&) { return std::make_unique<MetaBalancer>(); });
}

}  // namespace ringsim::policy
