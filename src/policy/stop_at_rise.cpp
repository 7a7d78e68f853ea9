// Stop-At-Rise: Nicol and Saltz, "Dynamic remapping of parallel computations with varying resource
// demands", IEEE Transactions on Computers 37(9), 1988. After a remap, step j of the computation
// runs slower than it would balanced by its degradation delta_j; remapping after n steps costs, per
// step of that cycle, W(n) = (C + delta_1 + ... + delta_n) / n, with C the remap's cost. The
// rule remaps at the first n where W(n) > W(n - 1): at the first local minimum of the average
// cost per step, which Nicol and Saltz report close to the best fixed remapping period.
//
// In a ring, each step is an iteration whose reports every member holds (the common snapshot,
// member_reports.cpp): delta_k is the slowest member's computation on the current loads at the
// speeds of snapshot k, minus the same on their balance (nothing when the loads are a balance
// within the speeds' measurement error, as a decision would see them), and C is what every policy
// predicts for the move to the newest snapshot's balance: the planner's work at the slowest
// member's speed and the move's one-port lower bound. C is one number for the whole comparison
// (the cost of remapping now), so W(n) > W(n - 1) reads (n - 1) delta_n > C + S_(n-1), with
// S_(n-1) the degradations before: with a step of degradation D after s - 1 balanced steps it
// holds, at the step, iff (s - 1) D > C, and never later if not then.
#include <algorithm>
#include <vector>

#include "planners/redistribution/load_balance.hpp"
#include "policy/predictions.hpp"
#include "policy/registry.hpp"

namespace ringsim::policy {
namespace {

class StopAtRise final : public RedistributionPolicy {
 public:
  bool piggybacks_reports() const override { return true; }

  Act after_iteration(const MemberView& v) override {
    const RingFacts& f = *v.ring;
    if (v.last_move != last_move_) {  // a remap starts a new cycle
      last_move_ = v.last_move;
      degradation_sum_ = 0.0;
      steps_ = 0;
    }
    // One step per snapshot of an iteration computed on the current loads.
    if (v.common_iteration <= observed_ || v.common_iteration <= v.last_move || f.n < 2) return Act::carry_on;
    observed_ = v.common_iteration;
    const std::vector<double> speeds = speeds_of(*v.common);
    const std::vector<Count> targets = redistribution::rebalanced_targets(*v.loads, speeds, speed_error_of(*v.common));
    const double degradation = imbalance_excess(*v.loads, targets, speeds, f.flops_per_column);
    const double before = degradation_sum_;
    degradation_sum_ += degradation;
    ++steps_;
    if (steps_ < 2 || v.iteration >= f.iterations) return Act::carry_on;
    const double cost = predicted_move_cost(f, *v.loads, targets, speeds);
    return average_rises(cost, before, degradation, steps_) ? Act::decide : Act::carry_on;
  }

 private:
  // W(n) > W(n - 1), with W(n) = (C + S_(n-1) + delta_n) / n, multiplied out (n >= 2).
  static bool average_rises(double cost, double sum_before, double degradation, int n) {
    const double steps = static_cast<double>(n);
    return (steps - 1.0) * (cost + sum_before + degradation) > steps * (cost + sum_before);
  }


  double degradation_sum_ = 0.0;  // S_n of the current cycle, s
  int steps_ = 0;                 // n: snapshots seen in the current cycle
  int observed_ = 0;              // the newest snapshot's iteration
  int last_move_ = 0;
};

}  // namespace

SchemeEntry stop_at_rise_scheme() {
  return online_policy("stop-at-rise",
                       "reports piggybacked; Nicol and Saltz's rule: move at the first rise of the average "
                       "degradation per iteration since the last move, the move's predicted cost included",
                       Knows::reports,
                       [](const SchemeArgs&) { return std::make_unique<StopAtRise>(); });
}

}  // namespace ringsim::policy
