// The return to the initial balance, a rule of the adaptive family (adaptive.hpp; scheme
// adaptive-lasting and what composes it): go back to the balance of the nominal speeds, where the
// run started, once the loads held have lost to it by enough to repay twice the move back. Pure:
// no SimGrid, tested in-process (tests/test_policy_adaptive_lasting.cpp, tests/cli/run_return_tests.sh).
//
// Why. Tracking a churn can leave the run worse off than never moving, a state no tracking move
// undoes: under on/off load on a ring of 32, each balance lasted an iteration or two and left a
// member just loaded with more columns than the initial balance gave it (what moves_in_hindsight
// shows). The lasting saving (lasting_saving.hpp) charges leaving a balance that has turned; this
// rule is the way out it prices.
//
// When. Two ways, each asking that the loss over the iterations left repay twice the move back:
//   - on the snapshots: the loads held lose to the initial balance on average over the snapshots
//     taken since they were set (at least `seen` of the last `window`; older ones predate them, and
//     today's loads were chosen knowing speeds they do not show);
//   - at a look whose plan did not pay: a look shows the present, and the policy goes back at the
//     next iteration. Leaving a balance that has turned is charged as ski rental would leave it
//     (the harm borne until it has cost about a move, then the move); waiting for `seen` snapshots
//     since the loads were set, which reach a ring of 32 15 iterations late and average in the
//     iterations when the balance still paid, is not that (experiments/when/NOTES.md,
//     "adaptive-lasting: the saving measured by a backtest").
#pragma once

#include <algorithm>
#include <cstddef>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "planners/redistribution/load_balance.hpp"
#include "policy/policy.hpp"
#include "policy/predictions.hpp"

namespace ringsim::policy {

class ReturnToInitial {
 public:
  static constexpr std::size_t window = 10;  // snapshots
  static constexpr std::size_t seen = 5;     // ... of them taken since the loads were set
  static constexpr double margin = 2.0;      // the loss must repay the move back this many times

  // A new common snapshot's speeds.
  void observe(int iteration, const std::vector<double>& speeds) {
    recent_speeds_.emplace_back(iteration, speeds);
    if (recent_speeds_.size() > window) recent_speeds_.pop_front();
  }

  // Whether to go back now (asked by the last look, or by the snapshots): the next decision then
  // balances for the nominal speeds (balance_for) and accept() weighs it.
  bool due(const MemberView& v, double decision, int left) {
    if (!std::exchange(going_back_, false) && !(v.common_iteration > 0 && snapshots_ask(v, decision, left)))
      return false;
    returning_ = true;
    return true;
  }
  bool returning() const { return returning_; }

  // The speeds the return balances for: the nominal ones, which is where the run started.
  std::optional<std::vector<double>> balance_for(const MemberView& v) const {
    if (!returning_) return std::nullopt;
    return v.ring->peak;
  }

  // Whether the return's plan is carried out: the loss, at the rate that asked for it, repays
  // twice the plan's predicted transfer.
  bool accept(const Prediction& p, int left) {
    returning_ = false;
    return p.moves && rate_ * left > margin * p.transfer_time;
  }

  // After a plan of the policy's own was weighed: a look whose plan did not pay may ask to go back.
  void plan_weighed(const MemberView& v, const Prediction& p, bool pays, int left) {
    going_back_ = p.fresh && !pays && look_asks(v, p.speeds, left);
  }

 private:
  // The snapshots' way (the file's opening comment).
  bool snapshots_ask(const MemberView& v, double decision, int left) {
    const RingFacts& f = *v.ring;
    if (holds_initial(v, f)) return false;
    double lost = 0.0;
    std::size_t counted = 0;
    for (const auto& [iteration, speeds] : recent_speeds_)
      if (iteration > v.last_move) {
        lost += loss_to_initial(v, f, speeds);
        ++counted;
      }
    if (counted < seen) return false;
    return pays(v, f, lost / static_cast<double>(counted), decision, left);
  }
  // The look's way, on the speeds it brought.
  bool look_asks(const MemberView& v, const std::vector<double>& speeds, int left) {
    const RingFacts& f = *v.ring;
    if (holds_initial(v, f)) return false;
    const double decision = f.decision_flops / *std::min_element(speeds.begin(), speeds.end());
    return pays(v, f, loss_to_initial(v, f, speeds), decision, left);
  }
  // The loads are a balance for the nominal speeds (known exactly): the initial balance or a tie
  // with it, as a decision for them would find.
  bool holds_initial(const MemberView& v, const RingFacts& f) {
    if (initial_.empty()) initial_ = redistribution::balanced_targets(f.peak, f.columns);
    return redistribution::is_balance_within(*v.loads, f.peak, 0.0);
  }
  // s an iteration that the loads held lose to the initial balance at these speeds.
  double loss_to_initial(const MemberView& v, const RingFacts& f, const std::vector<double>& speeds) const {
    return compute_time_of(*v.loads, speeds, f.flops_per_column) -
           compute_time_of(initial_, speeds, f.flops_per_column);
  }
  // Whether losing `rate` s an iteration over the iterations left repays twice the move back.
  bool pays(const MemberView& v, const RingFacts& f, double rate, double decision, int left) {
    rate_ = rate;
    return rate * left > margin * (decision + move_lower_bound(f, *v.loads, initial_));
  }

  bool returning_ = false;
  bool going_back_ = false;  // a look asked to go back: at the next iteration
  double rate_ = 0.0;        // s an iteration that the loads held lose to the initial balance
  std::vector<Count> initial_;
  std::deque<std::pair<int, std::vector<double>>> recent_speeds_;  // the last snapshots' iteration and speeds
};

}  // namespace ringsim::policy
