// Rent or buy: redistribute once a move would already have paid for itself. HiPC 2004 (Section 7)
// leaves "how frequently redistributions must occur" open; this rule answers it as the ski-rental
// problem does (Karlin, Manasse, Rudolph and Sleator, 1988): keep paying the rent (the time an
// imbalance costs each iteration) until what has been paid reaches the price of buying (the
// move's cost), then buy. In the ski-rental model (one change of speeds lasting an unknown time,
// a constant rent), paying the rent up to the price and then the price is at most twice what the
// best choice in hindsight pays; a change that does not last never accumulates the rent. Real
// runs are not that model (many changes, observations that lag): the experiments measure it.
//
// What is paid is measured, not predicted: for each common snapshot k since the last move
// (every member holds the same ones, member_reports.cpp), the loads balanced for k's speeds are a
// move that could have been made at k; its regret is what the iterations since would have saved
// with those loads, at the speeds the later snapshots showed: the sum over later snapshots m of
// T(current loads, s_m) - T(balanced for s_k, s_m), T the slowest member's computation. Under
// lasting changes (the paper's traces, a drift) a regret grows with every iteration; under a churn
// faster than a move pays back (on/off load on many hosts) yesterday's balance is no better than
// today's loads, and no regret grows. The move is taken when the largest regret reaches its cost
// (the decision's work, the move's one-port lower bound, and the look if one is taken), and when
// the iterations left can pay it back at the latest snapshot's gain. The columns go to the
// balance of the freshest speeds: an all-gather first when that look costs no more than the move
// (so that looking and moving cost at most twice the move), else the latest snapshot. A planned
// move is carried out when the regret also covers the planner's own predicted time; otherwise the
// policy waits until it does.
#include <algorithm>
#include <cmath>
#include <vector>

#include "planners/redistribution/load_balance.hpp"
#include "policy/predictions.hpp"
#include "policy/registry.hpp"

namespace ringsim::policy {
namespace {

class RentOrBuy final : public RedistributionPolicy {
 public:
  // Looks (all-gathers) are taken periodically when they cost at most this share of the
  // iterations between them: the policy's information budget (as adaptive's).
  static constexpr double information_share = 0.03;

  bool piggybacks_reports() const override { return true; }
  bool gathers_both_ways() const override { return true; }

  Act after_iteration(const MemberView& v) override {
    const RingFacts& f = *v.ring;
    const int left = f.iterations - v.iteration;
    if (v.last_move != last_move_) {  // columns moved: the regrets were of the former loads
      last_move_ = v.last_move;
      anchors_.clear();
      price_floor_ = 0.0;
    }
    // A snapshot of an iteration computed on the current loads (after the last move), newer than
    // what the looks showed.
    if (v.common_iteration > observed_ && v.common_iteration > v.last_move) {
      observe(f, speeds_of(*v.common), speed_error_of(*v.common), v.common_iteration, *v.loads);
    }
    if (left <= 0 || f.n < 2) return Act::carry_on;
    const double look = gather_cost(f);
    const std::vector<double>& speeds = anchors_.empty() ? f.peak : anchors_.back().speeds;
    const double iteration = compute_time_of(*v.loads, speeds, f.flops_per_column) + f.border_time;
    const double period = std::ceil(look / (information_share * iteration));
    if (period <= left && v.iteration - last_look_ >= period) {
      last_look_ = v.iteration;
      return Act::gather_and_decide;
    }
    if (anchors_.empty()) return Act::carry_on;
    const Anchor& latest = anchors_.back();
    if (std::equal(latest.targets.begin(), latest.targets.end(), v.loads->begin())) return Act::carry_on;
    const double move = predicted_move_cost(f, *v.loads, latest.targets, latest.speeds);
    // Deciding on the snapshot needs the snapshot to be the newest observation (a look may be
    // newer, or the only one yet): otherwise look again.
    const bool fresh = look <= move || observed_ != v.common_iteration;
    const double price = std::max(move + (fresh ? look : 0.0), price_floor_);
    if (largest_regret() < price) return Act::carry_on;
    // The rest of the run must be able to pay the move back at the latest snapshot's gain.
    const double gain = compute_time_of(*v.loads, latest.speeds, f.flops_per_column) -
                        compute_time_of(latest.targets, latest.speeds, f.flops_per_column);
    if (gain * left < price) return Act::carry_on;
    if (fresh) last_look_ = v.iteration;
    return fresh ? Act::gather_and_decide : Act::decide;
  }

  bool accept(const MemberView& v, const Prediction& p) override {
    // A look shows this iteration's speeds: one more observation, the newest.
    if (p.fresh && v.iteration > observed_) observe(*v.ring, p.speeds, p.speed_error, v.iteration, *v.loads);
    const int left = v.ring->iterations - v.iteration;
    const double cost = p.transfer_time + p.decision_time;
    const bool pays = p.moves && largest_regret() >= cost && (p.tstep_before - p.tstep_after) * left > cost;
    if (!pays && p.moves && largest_regret() >= cost) price_floor_ = std::max(price_floor_, cost);
    return pays;
  }

 private:
  struct Anchor {
    std::vector<double> speeds;   // observed at that iteration
    std::vector<Count> targets;   // balanced for them (the loads, when a balance within their errors)
    double regret = 0.0;          // what moving to them then would have saved since, s
  };

  // Speeds observed at `iteration` on the current loads: every earlier anchor's regret grows by
  // what its balance would have saved in that iteration, and the observation becomes an anchor
  // (its own regret starts with the next observation: a balance is worth what it saves after it
  // is made, which a churn faster than the observations never lets grow). Its balance is the one
  // a decision would move to: the current loads when they are a balance for speeds within the
  // observed ones' error (rebalanced_targets), so that the measurement's rounding is no move.
  void observe(const RingFacts& f, const std::vector<double>& speeds, double error, int iteration,
               const std::vector<long>& loads) {
    observed_ = iteration;
    const double now = compute_time_of(loads, speeds, f.flops_per_column);
    for (Anchor& a : anchors_) a.regret += now - compute_time_of(a.targets, speeds, f.flops_per_column);
    drop_dominated_latest();
    anchors_.push_back({speeds, redistribution::rebalanced_targets(loads, speeds, error), 0.0});
  }

  // Called when the latest anchor stops being the latest (only the latest's speeds and targets
  // are read; any other anchor counts through its regret alone): of two anchors with the same
  // targets, the one with the smaller regret can never again hold the largest one, so it is
  // dropped. Both grow by the same amount at every later observation (the same computation on
  // the same targets and speeds, until a move clears them all), and rounding is monotonic: if
  // r <= r' then r + x <= r' + x in floating point as well. So largest_regret(), and every
  // decision, is unchanged. Speeds that hold keep giving the same balance, so the anchors then
  // number the distinct balances seen since the last move rather than the observations; the
  // update stays O(anchors n) per observation, and anchors are not bounded otherwise: an anchor
  // with other targets may overtake any other under speeds still to come.
  void drop_dominated_latest() {
    if (anchors_.size() < 2) return;
    const Anchor& latest = anchors_.back();
    for (auto a = anchors_.begin(); a + 1 != anchors_.end(); ++a) {
      if (a->targets != latest.targets) continue;
      if (latest.regret <= a->regret) {
        anchors_.pop_back();
        return;
      }
      if (a->regret <= latest.regret) {
        anchors_.erase(a);
        return;
      }
      // A NaN regret compares with nothing: both are kept, as largest_regret() ignores it anyway.
    }
  }

  double largest_regret() const {
    double regret = 0.0;
    for (const Anchor& a : anchors_) regret = std::max(regret, a.regret);
    return regret;
  }

  std::vector<Anchor> anchors_;  // one per observation since the last move, but dominated ones
  int observed_ = 0;             // the newest observation's iteration
  int last_move_ = 0;
  int last_look_ = 0;
  double price_floor_ = 0.0;     // a plan's predicted cost that its regret did not cover
};

}  // namespace

SchemeEntry rent_or_buy_scheme() {
  return online_policy("rent-or-buy",
                       "reports piggybacked; move once a move made at an earlier snapshot would already have paid its cost",
                       Knows::reports,
                       [](const SchemeArgs&) { return std::make_unique<RentOrBuy>(); });
}

}  // namespace ringsim::policy
