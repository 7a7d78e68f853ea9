// The adaptive rule: redistribute when, on what every member knows, the time a move is expected
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
// would otherwise be chased twice, amid it and after it (experiments/when/NOTES.md, "The adaptive policy",
// has the measurements and the seeds these numbers were checked on).
//
// The family. The schemes adaptive, adaptive-lasting and forecast-lasting are this rule composed
// with the rules each names (AdaptiveRules, below; adaptive.cpp, adaptive_lasting.cpp and
// forecast_lasting.cpp say why each composes what it does; docs/schemes.md compares them):
//   - the lasting saving (lasting_saving.hpp) counts a move's saving at the share balances have
//     delivered lag by lag in this run, instead of over one member's persistence, and charges
//     leaving a balance that turns harmful;
//   - the rise (rise.hpp) buys a look once the ring's iteration time has risen by enough to pay
//     for it, before the snapshots show why;
//   - the return to the initial balance (return_to_initial.hpp) goes back to where the run started
//     once the loads held have lost to it;
//   - the drift forecast (drift_forecast.hpp) carries out a plan the saving refuses when a drift
//     forecast to go on repays moving now and again at the next look.
// Each answers at its place in the rule: the return and the rise before the periodic look
// (after_iteration), the return's plan on its own terms, then the saving, then the drift forecast
// for a plan the saving refused (accept).
#pragma once

#include <algorithm>
#include <cmath>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "planners/redistribution/load_balance.hpp"
#include "policy/drift_forecast.hpp"
#include "policy/lasting_saving.hpp"
#include "policy/policy.hpp"
#include "policy/predictions.hpp"
#include "policy/return_to_initial.hpp"
#include "policy/rise.hpp"
#include "policy/speed_changes.hpp"

namespace ringsim::policy {

// The rules a policy of the family plays beside the adaptive rule; an absent one is not played.
struct AdaptiveRules {
  std::optional<LastingSaving> lasting;  // else a move saves over one member's persistence
  std::optional<Rise> rise;
  std::optional<ReturnToInitial> return_to_initial;
  std::optional<DriftForecast> drift;
};

class Adaptive final : public RedistributionPolicy {
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

  explicit Adaptive(AdaptiveRules rules = {}) : rules_(std::move(rules)) {}

  bool piggybacks_reports() const override { return true; }
  bool gathers_both_ways() const override { return true; }

  Act after_iteration(const MemberView& v) override {
    const Act act = answer(v);
    // A rise is measured anew from the loads a decision leaves.
    if (rules_.rise && act != Act::carry_on) *rules_.rise = Rise{rules_.rise->floor};
    return act;
  }

  std::optional<std::vector<double>> balance_for(const MemberView& v) override {
    if (rules_.return_to_initial) return rules_.return_to_initial->balance_for(v);
    return std::nullopt;
  }

  bool accept(const MemberView& v, const Prediction& p) override {
    const int left = v.ring->iterations - v.iteration;
    if (rules_.return_to_initial && rules_.return_to_initial->returning()) {
      rule_ = "return to the initial balance";
      return rules_.return_to_initial->accept(p, left);
    }
    const double margin = p.fresh ? fresh_margin : stale_margin;
    const PlanSaving s = plan_saving(v, p, left);
    const bool saves = p.moves && s.saved > margin * p.transfer_time + s.leave;
    const bool drift = p.moves && !saves && rules_.drift && rules_.drift->drifts(v.ring->n) &&
                       rules_.drift->repays_moving_twice(v, p, left, look_period_of(v, p.speeds), fresh_margin);
    const bool pays = saves || drift;
    rule_ = drift ? "drift forecast" : rules_.lasting ? "lasting saving" : "saving";
    if (rules_.return_to_initial) rules_.return_to_initial->plan_weighed(v, p, pays, left);
    if (!pays && !planned_.empty()) refused_ = planned_;
    // Until columns move, undoing a rise costs at least the move just refused.
    if (rules_.rise) rules_.rise->floor = pays ? 0.0 : std::max(rules_.rise->floor, p.transfer_time);
    return pays;
  }
  // The rule that answered the last accept(): `saving` or `lasting saving`, `drift forecast`, or
  // `return to the initial balance` (docs/outputs.md, `decided_by`).
  std::string decided_by() const override { return rule_; }

 private:
  // What a planned move saves over the iterations left, and what leaving its balance later is
  // charged (nothing, unless the lasting saving counts it).
  struct PlanSaving {
    double saved = 0.0;
    double leave = 0.0;
  };
  PlanSaving plan_saving(const MemberView& v, const Prediction& p, int left) const {
    if (rules_.lasting) {
      const LastingSaving::Plan s = rules_.lasting->of_plan(v, p, left, changes_);
      return {s.saved, s.leave};
    }
    double persistence = changes_.persistence();
    if (p.fresh) persistence = std::min(persistence, changes_.recent_persistence(p.speeds, p.time));
    return {expected_saving(p.tstep_before - p.tstep_after, left, p.tstep_after, p.transfer_time, persistence), 0.0};
  }
  // What a move would save: `per_iteration` (s) on each iteration after it (`tstep` s each), the
  // move `move` s, on speeds `age` iterations old, `pace` the iteration time of the loads now.
  double saving(double per_iteration, int left, double tstep, double move, int age, double pace) const {
    if (rules_.lasting) return rules_.lasting->saving(per_iteration, left, tstep, move, age, pace, changes_);
    return expected_saving(per_iteration, left, tstep, move, changes_.persistence());
  }

  // After iteration v.iteration: look, plan, or carry on (the file's opening comment).
  Act answer(const MemberView& v) {
    const RingFacts& f = *v.ring;
    const int left = f.iterations - v.iteration;
    if (left <= 0 || f.n < 2) return Act::carry_on;
    std::vector<double> speeds = f.peak;  // before any report is common: the nominal speeds
    double error = 0.0;                   // known exactly
    if (v.common_iteration > 0) {
      speeds = speeds_of(*v.common);
      error = speed_error_of(*v.common);
      if (v.common_iteration > observed_) snapshot_seen(v, speeds, error);
      observed_ = v.common_iteration;
    }
    const double now = compute_time_of(*v.loads, speeds, f.flops_per_column);
    const double gather = gather_cost(f);
    const double decision = f.decision_flops / *std::min_element(speeds.begin(), speeds.end());
    if (rules_.return_to_initial && rules_.return_to_initial->due(v, decision, left)) {
      planned_.clear();
      return Act::decide;
    }
    if (rules_.rise && rise_pays_a_look(v, gather + decision, left)) return look_now(v.iteration);
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
    const double gain =
        saving(now - after, left, after + f.border_time, move, v.iteration - v.common_iteration, now + f.border_time);
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

  // A new common snapshot: its speed changes, its balance, and what the rules watch of it.
  void snapshot_seen(const MemberView& v, const std::vector<double>& speeds, double error) {
    const RingFacts& f = *v.ring;
    changes_.observe(*v.common);
    // Speeds the clock could not resolve (error 1: a compute time lost in the clock's rounding,
    // at tiny ratios behind long reports) tell no balance: the loads stand.
    past_targets_.push_back(error < 1.0 ? redistribution::balanced_targets(speeds, f.columns, error) : *v.loads);
    if (past_targets_.size() > stable_snapshots + 1) past_targets_.pop_front();
    if (rules_.lasting) rules_.lasting->observe(v, speeds, past_targets_.back());
    if (rules_.return_to_initial) rules_.return_to_initial->observe(v.common_iteration, speeds);
    if (rules_.drift) rules_.drift->observe(speeds);
  }

  // Whether the rise has paid for a look (`look`: the gather and the planner run, s), and what a
  // move would save, counted as a plan's saving is, can repay the move and the look.
  bool rise_pays_a_look(const MemberView& v, double look, int left) {
    Rise& rise = *rules_.rise;
    return rise.paid(v, *v.ring, look) &&
           saving(rise.excess, left, rise.reference, rise.move, 0, v.ring_time) > fresh_margin * rise.move + look;
  }

  // Iterations between two periodic looks: a look costs `gather` s, an iteration `iteration` s.
  static double look_period(double gather, double iteration) {
    return std::ceil(gather / (information_share * iteration));
  }
  // The same at the pace of the loads now on these speeds.
  static double look_period_of(const MemberView& v, const std::vector<double>& speeds) {
    const RingFacts& f = *v.ring;
    return look_period(gather_cost(f), compute_time_of(*v.loads, speeds, f.flops_per_column) + f.border_time);
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

  AdaptiveRules rules_;
  const char* rule_ = "";
  std::deque<std::vector<Count>> past_targets_;
  SpeedChanges changes_;
  int observed_ = 0;
  int last_gather_ = 0;
  std::vector<Count> planned_, refused_;
};

// The family's schemes, each the adaptive rule and the rules it names.
std::unique_ptr<Adaptive> adaptive_policy();          // adaptive.cpp
std::unique_ptr<Adaptive> adaptive_lasting_policy();  // adaptive_lasting.cpp
std::unique_ptr<Adaptive> forecast_lasting_policy();  // forecast_lasting.cpp

}  // namespace ringsim::policy
