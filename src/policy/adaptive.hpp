// The adaptive policy: redistribute when, on what every member knows, the time a move is expected
// to save exceeds what deciding, looking and moving cost (the planners' predictions). HiPC 2004
// (Section 7) leaves "how frequently redistributions must occur" open; the slides' profitability
// test T_redistribution + n_left T'_step <= n_left T_step is its starting point.
//
// Information. Each member's report rides on the border messages, so after iteration t every
// member holds every report of iteration t - floor(n/2) + 1 (member_reports.cpp): the policy
// decides on that common snapshot, every member alike, with no extra message. Where the network
// dominates, watching costs nothing but the report bytes. A "look" is an all-gather both ways
// (floor(n/2) rounds of report messages) that shows the present; it is taken
//   - periodically, every ceil(G / (3% of an iteration)) iterations (G the look's cost from the
//     routes): every iteration where computation dominates, never where the network does;
//   - before a move seen in a snapshot older than 3 iterations (a ring of 32: 15 iterations), or
//     whenever the look costs less than a quarter of the move.
//
// Saving. A move from loads L to the balanced targets T of speeds s saves per iteration
// d = max_j L_j w / s_j - max_j T_j w / s_j (w flop per column; the border exchange is the same
// before and after), over the iterations left, or fewer: a balance lasts about as long as a member
// keeps its speed, P seconds, estimated from the settled speed changes in the last 10 snapshots
// (with none seen, the member-seconds watched); and speeds must hold while the columns move (a
// member keeps its speed through a move of m seconds with probability exp(-m / P)):
//   saving = d * min(n_left, P / T'_step) * exp(-m / P).
// The snapshot's move is planned (decision_flops at every member) when its saving exceeds twice the
// decision, a one-port lower bound of the move (the slides' bidirectional bound) and the look if
// one is needed; the plan is carried out when the saving, on the planners' predicted T_redistribution
// and T'_step, exceeds 1.5 times T_redistribution on fresh reports (twice on the snapshot), and P
// also counts the members whose fresh speed differs from the snapshot's (a burst shows there
// first). A refused plan is not planned again until the snapshot's targets change.
//
// Bursts. While the speeds change in a burst (over the last 2 snapshots, changes settle at least
// twice as often as over the whole run so far: the first changes after a calm start are one, a
// steady churn is not) and the snapshots' balanced targets still move (by more than 40% of the
// move they ask for, over those 2 snapshots), no move is planned: a plan then chases speeds that
// are still changing: on a ring of 32, whose snapshots are 15 iterations old, a window of changes
// would otherwise be chased twice, amid it and after it (experiments/when/NOTES.md, "The adaptive
// policy", has the measurements and the seeds these numbers were checked on).
#pragma once

#include <algorithm>
#include <cmath>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "planners/redistribution/load_balance.hpp"
#include "policy/policy.hpp"
#include "policy/predictions.hpp"
#include "policy/speed_changes.hpp"

namespace ringsim::policy {

// Scheme `adaptive`; adaptive_lasting.cpp refines how a move's saving is counted and adds the
// rise and the return to the initial balance through the hooks below.
class Adaptive : public RedistributionPolicy {
 public:
  static constexpr double information_share = 0.03;  // of the run's time spent on periodic all-gathers
  static constexpr double stale_margin = 2.0;        // a move seen in the snapshot must save twice its cost
  static constexpr double look_margin = 2.0;         // a move seen in old reports is worth a look
  static constexpr double fresh_margin = 1.5;        // a move planned on fresh reports must save 1.5 times its cost
  static constexpr double look_share = 0.25;         // a look costing less than this share of the move is taken
  static constexpr int max_report_age = 3;           // iterations: older snapshots are checked by a gather
  static constexpr std::size_t stable_snapshots = 2;  // snapshots over which targets must hold still
  static constexpr double stable_share = 0.4;         // ... moving by at most this share of the move
  static constexpr double burst_factor = 2.0;         // a burst: changes this many times as often as ever

  bool piggybacks_reports() const override { return true; }
  bool gathers_both_ways() const override { return true; }

  Act after_iteration(const MemberView& v) override { return answer(v); }

  bool accept(const MemberView& v, const Prediction& p) override {
    const int left = v.ring->iterations - v.iteration;
    const double margin = p.fresh ? fresh_margin : stale_margin;
    const PlanSaving s = plan_saving(v, p, left);
    const bool saves = p.moves && s.saved > margin * p.transfer_time + s.leave;
    const bool otherwise = p.moves && !saves && repaid_otherwise(v, p, left);
    const bool pays = saves || otherwise;
    rule_ = otherwise ? otherwise_rule() : saving_rule();
    judged(v, p, pays, left);
    if (!pays && !planned_.empty()) refused_ = planned_;
    return pays;
  }
  std::string decided_by() const override { return rule_; }

 protected:
  // The names of the rules accept() weighs with, for decided_by(): the saving's, and that of
  // repaid_otherwise.
  virtual const char* saving_rule() const { return "saving"; }
  virtual const char* otherwise_rule() const { return "repaid otherwise"; }
  const char* rule_ = "";
  // What a planned move saves over the iterations left, and what leaving its balance later is
  // charged (adaptive: nothing).
  struct PlanSaving {
    double saved = 0.0;
    double leave = 0.0;
  };
  virtual PlanSaving plan_saving(const MemberView& v, const Prediction& p, int left) {
    (void)v;
    double persistence = changes_.persistence();
    if (p.fresh) persistence = std::min(persistence, changes_.recent_persistence(p.speeds, p.time));
    return {expected_saving(p.tstep_before - p.tstep_after, left, p.tstep_after, p.transfer_time, persistence), 0.0};
  }
  // What the common snapshot's move would save: `per_iteration` (s) on each iteration after it
  // (`tstep` s each, `pace` the iteration time of the loads now), the move `move` s.
  virtual double snapshot_saving(const MemberView& v, double per_iteration, int left, double tstep, double move,
                                 double pace) {
    (void)v;
    (void)pace;
    return expected_saving(per_iteration, left, tstep, move, changes_.persistence());
  }
  // A new common snapshot was observed (its balance is past_targets_.back()).
  virtual void snapshot_seen(const MemberView& v, const std::vector<double>& speeds) {
    (void)v;
    (void)speeds;
  }
  // An answer that comes before the periodic look, or none.
  virtual std::optional<Act> first_answer(const MemberView& v, double gather, double decision, int left) {
    (void)v;
    (void)gather;
    (void)decision;
    (void)left;
    return std::nullopt;
  }
  // Whether a plan that its saving does not repay is carried out on other grounds (adaptive: never).
  virtual bool repaid_otherwise(const MemberView& v, const Prediction& p, int left) {
    (void)v;
    (void)p;
    (void)left;
    return false;
  }
  // After accept() has weighed a plan.
  virtual void judged(const MemberView& v, const Prediction& p, bool pays, int left) {
    (void)v;
    (void)p;
    (void)pays;
    (void)left;
  }

  Act answer(const MemberView& v) {
    const RingFacts& f = *v.ring;
    const int left = f.iterations - v.iteration;
    if (left <= 0 || f.n < 2) return Act::carry_on;
    std::vector<double> speeds = f.peak;  // before any report is common: the nominal speeds
    double error = 0.0;                   // known exactly
    if (v.common_iteration > 0) {
      speeds = speeds_of(*v.common);
      error = speed_error_of(*v.common);
      if (v.common_iteration > observed_) {
        changes_.observe(*v.common);
        // Speeds the clock could not resolve (error 1: a compute time lost in the clock's rounding,
        // at tiny ratios behind long reports) tell no balance: the loads stand.
        past_targets_.push_back(error < 1.0 ? redistribution::balanced_targets(speeds, f.columns, error) : *v.loads);
        if (past_targets_.size() > stable_snapshots + 1) past_targets_.pop_front();
        snapshot_seen(v, speeds);
      }
      observed_ = v.common_iteration;
    }
    const double now = compute_time_of(*v.loads, speeds, f.flops_per_column);
    const double gather = gather_cost(f);
    const double decision = f.decision_flops / *std::min_element(speeds.begin(), speeds.end());
    if (const std::optional<Act> first = first_answer(v, gather, decision, left)) return *first;
    // A fresh look every P iterations, P such that gathering costs at most `information_share`
    // of the iterations between two looks: often where computation dominates, never where the
    // network does.
    const double period = look_period(gather, now + f.border_time);
    if (period <= left && v.iteration - last_gather_ >= period) return look_now(v.iteration);
    // Reports no newer than the last all-gather tell nothing that gather did not.
    if (v.common_iteration == 0 || v.common_iteration <= last_gather_) return Act::carry_on;
    const std::vector<Count>& targets = past_targets_.back();  // the common snapshot's, balanced
    // Loads that are a balance for speeds within the reports' errors: nothing to move, as the
    // decision would find.
    if (redistribution::is_balance_within(*v.loads, speeds, error) || targets == refused_) return Act::carry_on;
    if (changes_.in_burst(stable_snapshots, burst_factor) && still_moving(targets, *v.loads)) return Act::carry_on;
    const double after = compute_time_of(targets, speeds, f.flops_per_column);
    const double move = decision + move_lower_bound(f, *v.loads, targets);
    const double gain = snapshot_saving(v, now - after, left, after + f.border_time, move, now + f.border_time);
    // Speeds drift in bursts: a plan on reports older than a few iterations may move columns
    // towards processors that have slowed since (and did, on the paper's traces, on a ring of 32);
    // then the present is looked at first, and that look is part of the cost. A look that costs
    // little against the move is taken anyway (on/off load changes within a few iterations).
    const bool recent = v.iteration - v.common_iteration <= max_report_age && gather > look_share * move;
    const double cost = move + (recent ? 0.0 : gather);
    if (gain <= (recent ? stale_margin : look_margin) * cost) return Act::carry_on;
    planned_ = targets;
    if (recent) return Act::decide;
    last_gather_ = v.iteration;
    return Act::gather_and_decide;
  }

  // Iterations between two periodic looks: a look costs `gather` s, an iteration `iteration` s.
  static double look_period(double gather, double iteration) {
    return std::ceil(gather / (information_share * iteration));
  }

  // An all-gather now, planned on its reports alone (no snapshot's targets pending).
  Act look_now(int iteration) {
    last_gather_ = iteration;
    planned_.clear();
    return Act::gather_and_decide;
  }

  // What a move saves, `per_iteration` on each iteration after it, if speeds hold: over the
  // iterations left, or over the time a member keeps its speed (`persistence`, s) when that is
  // shorter; and only if the speeds have not changed while the columns moved (each member keeps
  // its speed through a move of `move` seconds with probability exp(-move / persistence)).
  static double expected_saving(double per_iteration, int left, double tstep, double move, double persistence) {
    if (!(persistence > 0.0)) return 0.0;  // nothing watched yet: nothing to promise
    const double iterations = std::min(static_cast<double>(left), persistence / std::max(tstep, 1e-300));
    return per_iteration * iterations * std::exp(-move / persistence);
  }

  // Whether the snapshots' targets still move: over the last `stable_snapshots` snapshots they
  // moved by more than `stable_share` of the move they ask for now (a burst of speed changes in
  // progress: a plan now would chase speeds that are still changing).
  bool still_moving(const std::vector<Count>& targets, const std::vector<long>& loads) const {
    if (past_targets_.size() <= stable_snapshots) return false;
    double drift = 0.0, move = 0.0;
    for (std::size_t j = 0; j < targets.size(); ++j) {
      drift += std::abs(static_cast<double>(targets[j]) - static_cast<double>(past_targets_.front()[j]));
      move += std::abs(static_cast<double>(targets[j]) - static_cast<double>(loads[j]));
    }
    return drift > stable_share * move;
  }

  std::deque<std::vector<Count>> past_targets_;
  SpeedChanges changes_;
  int observed_ = 0;
  int last_gather_ = 0;
  std::vector<Count> planned_, refused_;
};

}  // namespace ringsim::policy
