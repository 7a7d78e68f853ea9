// The lasting saving, a rule of the adaptive family (adaptive.hpp; scheme adaptive-lasting and
// what composes it): a move's saving counted lag by lag at the share of it that balances have
// delivered at that lag in this run (LastingShare, lasting_share.hpp), instead of over a horizon of
// one member's persistence; and leaving its balance, once it turns harmful, charged at the harm
// balances showed. Pure: no SimGrid, tested in-process (tests/test_policy_adaptive_lasting.cpp).
//
// A balance that turns harmful once it stops saving must also be left: either its harm is borne
// (what balances lost, past that lag, against the loads they replaced) or a move is paid, about
// this one's size. Under on/off load on a ring of 32 a balance lasted an iteration or two and then
// gave a member just loaded a larger share than the initial balance did; each such move repaid
// itself against the loads it replaced, but the run lost to never moving (what moves_in_hindsight
// shows). A balance that ages into loads no worse than those it replaced (the paper's traces: the
// next window of changes) costs little or nothing, so the charge is the harm measured, not a whole
// move. Leaving is not free at once: nothing tells the policy that a balance has turned until its
// harm shows (a rise, the return's snapshots), so it is left as the rise rule buys a look, by ski
// rental: the harm is borne until it has cost about a move, then the move is made, twice the move
// at most (Karlin, Manasse, Rudolph and Sleator, 1988); charging one move would take balances whose
// harm outlasts it (experiments/when/NOTES.md, "adaptive-lasting: the saving measured by a backtest").
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <utility>
#include <vector>

#include "model/redistribution.hpp"
#include "policy/lasting_share.hpp"
#include "policy/policy.hpp"
#include "policy/speed_changes.hpp"

namespace ringsim::policy {

class LastingSaving {
 public:
  // What a planned move saves over the iterations left, and what leaving its balance later is
  // charged (the file's opening comment: its harm, two moves at most).
  struct Plan {
    double saved = 0.0;
    double leave = 0.0;
  };

  // A new common snapshot, its speeds and their balance: one more move the backtest watches.
  void observe(const MemberView& v, const std::vector<double>& speeds, std::vector<Count> balance) {
    share_.observe(*v.common, speeds, std::move(balance), v.ring->flops_per_column);
  }

  // The plan `p`, `left` iterations before the end: on fresh speeds, the ring's persistence also
  // counts the members whose fresh speed differs from the snapshot's (a burst shows there first).
  Plan of_plan(const MemberView& v, const Prediction& p, int left, const SpeedChanges& changes) const {
    double ring_persistence = changes.ring_persistence();
    if (p.fresh) ring_persistence = std::min(ring_persistence, changes.recent_ring_persistence(p.speeds, p.time));
    const LastingShare::Delivered d =
        delivered(p.tstep_before - p.tstep_after, left, p.tstep_after, p.transfer_time, ring_persistence,
                  p.fresh ? 0 : v.iteration - v.common_iteration, p.tstep_before, changes);
    return {d.lasting, std::min(2.0 * p.transfer_time, -d.harm)};
  }

  // `per_iteration` saved on each of the `left` iterations after the move, times the share a
  // balance still delivers at that lag after the speeds it was made for (the snapshot is `age`
  // iterations old and the move lasts `move` s: the first iteration after it is age + 1 + move /
  // pace lags after the snapshot, `pace` the iteration time of the loads now, s). The backtest's
  // lags are iterations run at the pace of the loads it watched, not of the balance planned: a move
  // of 35 s spans 2.5 iterations of 14 s, not 14 iterations of the 2.5 s balance (counted at the
  // balance's pace, the saving would start past the lags a balance has been seen to last:
  // experiments/when/NOTES.md, "A move's span in lags"). Where the backtest has not watched a
  // balance that long, the share is the chance that no member has changed its speed since: the ring
  // keeps all its speeds `ring_persistence` s on average (SpeedChanges::ring_persistence: changes
  // that come together end a balance once; adaptive's own saving counts one member's persistence).
  // Speeds may change at instants (profiles) or per iteration (traces placed by iteration, every
  // family of experiments/when/), which a member cannot tell apart: a lag lasts the balance's
  // iteration (`tstep`) or the iteration watched (`SpeedChanges::pace`), whichever is longer, so
  // that a balance that speeds iterations up is not credited with more lags per change than were
  // watched (experiments/when/NOTES.md, "adaptive-lasting: the saving measured by a backtest").
  // No move is credited for longer than balances have been seen, or speeds known, to last, and none
  // before two snapshots have been watched: a look at a calm start (persistence unknown, infinite)
  // credited a ring of 32 under on/off load with a balance for the 85 iterations left, which the
  // next iteration broke. The harm (LastingShare::Delivered) is scaled alike.
  LastingShare::Delivered delivered(double per_iteration, int left, double tstep, double move,
                                    double ring_persistence, int age, double pace,
                                    const SpeedChanges& changes) const {
    if (!(ring_persistence > 0.0) || !changes.watched()) return {};
    const double step = std::max(tstep, 1e-300);
    // A move longer than any run (a pace of about 0) starts past every lag that can be counted.
    const double lags_moving = std::min(move / std::max(pace, 1e-300), static_cast<double>(INT_MAX / 4));
    const int first = age + 1 + static_cast<int>(lags_moving);
    const double lag_time = std::max(step, changes.pace());
    auto unseen = [&](int lag) {
      return std::isfinite(ring_persistence) ? std::exp(-lag * lag_time / ring_persistence) : 1.0;
    };
    const LastingShare::Delivered d = share_.delivered(first, left, unseen);
    return {per_iteration * d.lasting, per_iteration * d.harm};
  }
  // The saving alone, the ring's persistence as the snapshots measured it.
  double saving(double per_iteration, int left, double tstep, double move, int age, double pace,
                const SpeedChanges& changes) const {
    return delivered(per_iteration, left, tstep, move, changes.ring_persistence(), age, pace, changes).lasting;
  }

 private:
  LastingShare share_;
};

}  // namespace ringsim::policy
