// Boulmier, Abdennadher and Chopard's criterion: "Optimal Load Balancing and Assessment of
// Existing Load Balancing Criteria" (arXiv 2104.01688, 2021), as their benchmark YALBB states it
// (github.com/xetqL/yalbb, include/yalbb/criterion.hpp, `BastienMenon`, run as "BBCriterion").
// After a balancing, each iteration i measures the imbalance max_p t_p - mean_p t_p of the
// processes' computation times; the first iteration after the balancing sets the baseline B, the
// imbalance balancing could not remove, and every later one adds U_i = max(0, imbalance_i - B).
// With tau the iterations since the baseline's and S the sum of the U_i so far, it balances when
//   tau U_i - S >= C,
// C the balancing's cost. The rule is the first-order condition of the paper's model: a cycle of
// length tau costs (C + S) / tau per iteration, and that average stops falling once the newest
// iteration's U exceeds it, tau U_tau - S_tau >= C up to the newest term. It is Nicol and Saltz's
// Stop-At-Rise (stop_at_rise.cpp) measured another way: against the imbalance right after the
// balancing rather than against a balance for the present speeds, so imbalance that is already
// there at the baseline is never moved for.
//
// In a ring: an iteration is a common snapshot (member_reports.cpp) of an iteration computed on
// the current loads, its processes' times the members' reported computation times; the run's
// first snapshot sets the first baseline (the initial loads are a balance, as YALBB balances
// before its first iteration). C is what every policy predicts for the move to the newest
// snapshot's balance (the planner's work at the slowest member's speed and the move's one-port
// lower bound); where that balance is the loads themselves nothing is moved.
#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planners/redistribution/load_balance.hpp"
#include "policy/predictions.hpp"
#include "policy/registry.hpp"

namespace ringsim::policy {
namespace {

// max_p t_p - mean_p t_p over the reports' computation times.
double max_minus_mean(const std::vector<Report>& reports) {
  double longest = 0.0, sum = 0.0;
  for (const Report& r : reports) {
    longest = std::max(longest, r.compute_time);
    sum += r.compute_time;
  }
  return longest - sum / static_cast<double>(reports.size());
}

class Boulmier final : public RedistributionPolicy {
 public:
  bool piggybacks_reports() const override { return true; }

  Act after_iteration(const MemberView& v) override {
    const RingFacts& f = *v.ring;
    if (v.last_move != last_move_) {  // a move starts a new cycle, with a new baseline
      last_move_ = v.last_move;
      start_cycle();
    }
    if (v.common_iteration <= observed_ || v.common_iteration <= v.last_move || f.n < 2 || !v.common ||
        v.common->size() != f.n)
      return Act::carry_on;
    observed_ = v.common_iteration;
    const double imbalance = max_minus_mean(*v.common);
    if (!baseline_) baseline_ = imbalance;
    const double u = std::max(0.0, imbalance - *baseline_);
    sum_ += u;
    if (tau_ * u - sum_ < cost_of_balancing(v) || v.iteration >= f.iterations) {
      ++tau_;
      return Act::carry_on;
    }
    start_cycle();  // as YALBB does on deciding, whether or not the move is then made
    return Act::decide;
  }

 private:
  void start_cycle() {
    baseline_.reset();
    sum_ = 0.0;
    tau_ = 0.0;
  }

  // C for the move to the snapshot's balance; infinite where the loads already are a balance for
  // the snapshot's speeds within their error (a decision would keep them).
  static double cost_of_balancing(const MemberView& v) {
    const std::vector<double> speeds = speeds_of(*v.common);
    const double error = speed_error_of(*v.common);
    if (redistribution::is_balance_within(*v.loads, speeds, error)) return std::numeric_limits<double>::infinity();
    const std::vector<Count> targets = redistribution::balanced_targets(speeds, v.ring->columns, error);
    return predicted_move_cost(*v.ring, *v.loads, targets, speeds);
  }

  std::optional<double> baseline_;  // B: the imbalance of the cycle's first snapshot, s
  double sum_ = 0.0;                // S: the U of the cycle's snapshots so far, s
  double tau_ = 0.0;                // snapshots since the baseline's
  int observed_ = 0;                // the newest snapshot's iteration
  int last_move_ = 0;
};

}  // namespace

SchemeEntry boulmier_scheme() {
  return online_policy("boulmier",
                       "reports piggybacked; Boulmier, Abdennadher and Chopard's criterion: move once the "
                       "imbalance over its level after the last move, times the iterations since, exceeds its "
                       "sum since by the move's predicted cost",
                       Knows::reports,
                       [](const SchemeArgs&) { return std::make_unique<Boulmier>(); });
}

}  // namespace ringsim::policy
