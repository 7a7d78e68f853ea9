// Scheme `adaptive-lasting` (registered in adaptive_lasting.cpp; forecast_lasting.cpp refines it):
// adaptive (adaptive.hpp) with the saving of a move counted lag by lag at the share of it that
// balances have delivered at that lag in this run (LastingShare, lasting_share.hpp), instead of
// over a horizon of one member's persistence; a look bought once the ring's iteration time has
// risen by enough to pay for it (Rise); and a return to the initial balance when the loads held
// have lost to it.
//
// A balance that turns harmful once it stops saving must also be left: either its harm is
// borne (what balances lost, past that lag, against the loads they replaced) or a move is
// paid, about this one's size. Under on/off load on a ring of 32 a balance lasted an
// iteration or two and then gave a member just loaded a larger share than the initial
// balance did; each such move repaid itself against the loads it replaced, but the run lost
// to never moving (what moves_in_hindsight shows). A balance that ages into loads no worse
// than those it replaced (the paper's traces: the next window of changes) costs little or
// nothing, so the charge is the harm measured, not a whole move (experiments/when/NOTES.md).
// Leaving is not free at once: nothing tells the policy that a balance has turned until its
// harm shows (a rise, the return's snapshots), so it is left as the rise rule buys a look, by
// ski rental: the harm is borne until it has cost about a move, then the move is made, twice
// the move at most (Karlin, Manasse, Rudolph and Sleator, 1988); charging one move would
// take balances whose harm outlasts it (experiments/when/NOTES.md, "adaptive-lasting: the saving measured by a backtest").
#pragma once

#include <algorithm>
#include <cmath>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "policy/adaptive.hpp"
#include "policy/lasting_share.hpp"
#include "policy/rise.hpp"

namespace ringsim::policy {

class AdaptiveLasting : public Adaptive {
 public:
  Act after_iteration(const MemberView& v) override {
    const Act act = answer(v);
    if (act != Act::carry_on) rise_ = Rise{rise_.floor};  // measured anew from the loads it leaves
    return act;
  }

  // The return to the initial balance (first_answer asked for it): balanced for the nominal
  // speeds, which is where the run started.
  std::optional<std::vector<double>> balance_for(const MemberView& v) override {
    if (!returning_) return std::nullopt;
    return v.ring->peak;
  }

  bool accept(const MemberView& v, const Prediction& p) override {
    const int left = v.ring->iterations - v.iteration;
    if (returning_) {
      returning_ = false;
      rule_ = "return to the initial balance";
      return p.moves && return_rate_ * left > stale_margin * p.transfer_time;
    }
    const bool pays = Adaptive::accept(v, p);
    // Until columns move, undoing a rise costs at least the move just refused.
    rise_.floor = pays ? 0.0 : std::max(rise_.floor, p.transfer_time);
    return pays;
  }

 protected:
  const char* saving_rule() const override { return "lasting saving"; }
  // A balance that turns harmful once it stops saving must also be left (the file's opening
  // comment): what it delivers, and leaving it charged at its harm, two moves at most.
  PlanSaving plan_saving(const MemberView& v, const Prediction& p, int left) override {
    double ring_persistence = changes_.ring_persistence();
    if (p.fresh) ring_persistence = std::min(ring_persistence, changes_.recent_ring_persistence(p.speeds, p.time));
    const LastingShare::Delivered d =
        lasting_delivered(p.tstep_before - p.tstep_after, left, p.tstep_after, p.transfer_time, ring_persistence,
                          p.fresh ? 0 : v.iteration - v.common_iteration, p.tstep_before);
    return {d.lasting, std::min(2.0 * p.transfer_time, -d.harm)};
  }
  double snapshot_saving(const MemberView& v, double per_iteration, int left, double tstep, double move,
                         double pace) override {
    return lasting_saving(per_iteration, left, tstep, move, changes_.ring_persistence(),
                          v.iteration - v.common_iteration, pace);
  }
  void snapshot_seen(const MemberView& v, const std::vector<double>& speeds) override {
    lasting_share_.observe(*v.common, speeds, past_targets_.back(), v.ring->flops_per_column);
    recent_speeds_.emplace_back(v.common_iteration, speeds);
    if (recent_speeds_.size() > return_window) recent_speeds_.pop_front();
  }
  std::optional<Act> first_answer(const MemberView& v, double gather, double decision, int left) override {
    const RingFacts& f = *v.ring;
    // Back to the initial balance, asked by the last look or by the snapshots.
    if (std::exchange(going_back_, false) || (v.common_iteration > 0 && should_return(v, f, decision, left))) {
      returning_ = true;
      planned_.clear();
      return Act::decide;
    }
    // A look the rise has paid for, if what a move would save (at the share balances deliver, as
    // accept() counts it) can repay the move and the look.
    const double look = gather + decision;
    if (rise_.paid(v, f, look) &&
        lasting_saving(rise_.excess, left, rise_.reference, rise_.move, changes_.ring_persistence(), 0, v.ring_time) >
            fresh_margin * rise_.move + look)
      return look_now(v.iteration);
    return std::nullopt;
  }
  void judged(const MemberView& v, const Prediction& p, bool pays, int left) override {
    going_back_ = p.fresh && !pays && return_at_look(v, p.speeds, left);
  }

  // adaptive-lasting's saving: `per_iteration` on each of the `left` iterations after the move,
  // times the share a balance still delivers at that lag after the speeds it was made for (the
  // snapshot is `age` iterations old and the move lasts `move` s: the first iteration after it is
  // age + 1 + move / pace lags after the snapshot, `pace` the iteration time of the loads now, s).
  // The backtest's lags are iterations run at the pace of the loads it watched, not of the balance
  // planned: a move of 35 s spans 2.5 iterations of 14 s, not 14 iterations of the 2.5 s balance
  // (counted at the balance's pace, the saving would start past the lags a balance has been seen
  // to last: experiments/when/NOTES.md, "A move's span in lags"). Where the backtest has not watched a balance
  // that long, the share is the chance that no member has changed its speed since: the ring keeps
  // all its speeds `ring_persistence` s on average (SpeedChanges::ring_persistence: changes that
  // come together end a balance once; adaptive's own rule counts one member's persistence).
  // Speeds may change at instants (profiles) or per iteration (traces placed by iteration, every
  // family of experiments/when/), which a member cannot tell apart: a lag lasts the balance's
  // iteration (`tstep`) or the iteration watched (`SpeedChanges::pace`), whichever is longer, so
  // that a balance that speeds iterations up is not credited with more lags per change than were
  // watched (experiments/when/NOTES.md, "adaptive-lasting: the saving measured by a backtest").
  // No move is credited for longer than balances have been seen, or speeds known, to last, and none
  // before two snapshots have been watched: a look at a calm start (persistence unknown, infinite)
  // credited a ring of 32 under on/off load with a balance for the 85 iterations left, which the
  // next iteration broke. The harm (LastingShare::Delivered) is scaled alike.
  LastingShare::Delivered lasting_delivered(double per_iteration, int left, double tstep, double move,
                                            double ring_persistence, int age, double pace) const {
    if (!(ring_persistence > 0.0) || !changes_.watched()) return {};
    const double step = std::max(tstep, 1e-300);
    const int first = age + 1 + static_cast<int>(move / std::max(pace, 1e-300));
    const double lag_time = std::max(step, changes_.pace());
    auto unseen = [&](int lag) {
      return std::isfinite(ring_persistence) ? std::exp(-lag * lag_time / ring_persistence) : 1.0;
    };
    const LastingShare::Delivered d = lasting_share_.delivered(first, left, unseen);
    return {per_iteration * d.lasting, per_iteration * d.harm};
  }
  double lasting_saving(double per_iteration, int left, double tstep, double move, double ring_persistence, int age,
                        double pace) const {
    return lasting_delivered(per_iteration, left, tstep, move, ring_persistence, age, pace).lasting;
  }

  // Whether to go back to the initial balance (adaptive-lasting): the loads held have lost to it,
  // on average over the snapshots taken since they were set (at least `return_seen` of the last
  // `return_window`; older ones predate them, and today's loads were chosen knowing speeds they do
  // not show), and that loss over the iterations left repays twice the move back. Tracking a
  // churn can leave the run worse off than never moving, a state no tracking move undoes: under
  // on/off load on a ring of 32, each balance lasted an iteration or two and left a member just
  // loaded with more columns than the initial balance gave it (what moves_in_hindsight shows).
  bool should_return(const MemberView& v, const RingFacts& f, double decision, int left) {
    if (holds_initial(v, f)) return false;
    double lost = 0.0;
    std::size_t seen = 0;
    for (const auto& [iteration, speeds] : recent_speeds_)
      if (iteration > v.last_move) {
        lost += loss_to_initial(v, f, speeds);
        ++seen;
      }
    if (seen < return_seen) return false;
    return return_pays(v, f, lost / static_cast<double>(seen), decision, left);
  }
  // Going back at a look (adaptive-lasting): a look shows the present; when no move for it pays
  // and the loads held lose to the initial balance on its speeds by enough to repay twice the move
  // back over the iterations left, the policy goes back at once. Leaving a balance that has turned
  // is charged as ski rental would leave it (accept: the harm borne until it has cost about a move,
  // then the move); waiting for `return_seen` snapshots since the loads were set, which reach a
  // ring of 32 15 iterations late and average in the iterations when the balance still paid, is
  // not that (experiments/when/NOTES.md, "adaptive-lasting: the saving measured by a backtest").
  bool return_at_look(const MemberView& v, const std::vector<double>& speeds, int left) {
    const RingFacts& f = *v.ring;
    if (holds_initial(v, f)) return false;
    const double decision = f.decision_flops / *std::min_element(speeds.begin(), speeds.end());
    return return_pays(v, f, loss_to_initial(v, f, speeds), decision, left);
  }
  // The loads are a balance for the nominal speeds (known exactly): the initial balance or a tie
  // with it, as a decision for them would find.
  bool holds_initial(const MemberView& v, const RingFacts& f) {
    if (initial_.empty()) initial_ = redistribution::balanced_targets(f.peak, f.columns);
    return redistribution::is_balance_within(*v.loads, f.peak, 0.0);
  }
  // s an iteration that the loads held lose to the initial balance at these speeds.
  double loss_to_initial(const MemberView& v, const RingFacts& f, const std::vector<double>& speeds) const {
    return compute_time_of(*v.loads, speeds, f.flops_per_column) - compute_time_of(initial_, speeds, f.flops_per_column);
  }
  // Whether losing `rate` s an iteration over the iterations left repays twice the move back.
  bool return_pays(const MemberView& v, const RingFacts& f, double rate, double decision, int left) {
    return_rate_ = rate;
    return rate * left > stale_margin * (decision + move_lower_bound(f, *v.loads, initial_));
  }

  static constexpr std::size_t return_window = 10;  // snapshots
  static constexpr std::size_t return_seen = 5;     // ... of them taken since the loads were set
  bool returning_ = false;
  bool going_back_ = false;  // a look asked to go back (return_at_look): at the next iteration
  double return_rate_ = 0.0;  // s an iteration that the loads held lose to the initial balance
  std::vector<Count> initial_;
  std::deque<std::pair<int, std::vector<double>>> recent_speeds_;  // the last snapshots' iteration and speeds
  Rise rise_;
  LastingShare lasting_share_;
};

}  // namespace ringsim::policy
