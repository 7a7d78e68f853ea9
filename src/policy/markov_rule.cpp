// Scheme `markov-rule`, the recommended policy: the late rule (planners/points/on_off_recursion.hpp,
// expected_late) played by the members themselves, on a load law they learn from their reports.
// Where each member's speed takes two levels, its nominal speed and one shared fraction of it (the
// load factor), and moves between them as a Markov chain, the joint state of the members is all the
// past says about the future, and Bellman's recursion over (loads, newest state known, its age)
// gives the rule that minimizes the expected makespan with exactly a policy's information: the
// common snapshot, floor(n/2) - 1 iterations late, for free; the present for an all-gather; a point
// that balances for any joint state's speeds, or returns to the loads the rule took over with.
//
// What a member knows is all it uses. The two levels: the nominal speed (RingFacts::peak) and the
// load factor, the first measured speed below it over the nominal one. The law: the leaving
// probabilities counted over consecutive common snapshots (LawCounts: Jeffreys' prior, so few
// observations never make a state last forever). The costs: the ring's facts (column and border
// costs, the planner's work, the gather's rounds) in hindsight's model, so the rule's recursion and
// the simulation price a point the same way. The law is re-solved from the present when a
// leaving probability has moved by more than `resolve` of the one last solved for (certainty
// equivalence: the rule acts on its estimate as if it were the law).
//
// Where the recursion does not apply it is not guessed at: `forecast-lasting`, the policy for every
// other load, answers until the reports show two levels (nothing tells a two-level load from another
// before): a member below its nominal speed, then a second member at the same fraction or a loaded
// member back at its nominal speed. One member's first change, to any lower speed, would pass for a
// load factor, and the rule would play for returns and company that a step to another machine's
// speed never brings. It answers for the rest of the run on rings of more than
// OnlineOptimal::max_members (2^n joint states) or once a report's speed is neither level within
// its measurement error (drifting or many-level load, changes within an iteration). Where that
// shows before the rule has answered, the run is forecast-lasting's, decision for decision.
//
// Each member solves the same recursion on the same inputs; the solution is shared between the
// members of one process, since each would compute the same one. The solving is not counted in
// simulated time, as no policy's own bookkeeping is; a point's planner run (decision_flops) is.
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "planners/points/on_off_recursion.hpp"
#include "policy/predictions.hpp"
#include "policy/registry.hpp"

namespace ringsim::policy {
namespace {

using points::LateRule;
using points::LoadStates;
using points::OnOffLaw;
using points::OnlineOptimal;

// The relative gap, beyond a report's own error, within which a speed counts as a level: the
// rounding of load * flops / time.
constexpr double level_slack = 1e-6;
// Re-solve when an estimated leaving probability moved by more than this share (the value
// `online-optimal` plays its learning rule with, so the two are the same rule).
constexpr double resolve = 0.2;

bool near(double speed, double level, double error) {
  return std::abs(speed - level) <= (error + level_slack) * level;
}

// The run as the recursion prices it, from the facts every member holds and the loads it started on.
points::RunModel run_model_of(const RingFacts& f, const std::vector<long>& initial) {
  points::RunModel m;
  m.iterations = f.iterations;
  m.columns = f.columns;
  m.flops_per_column = f.flops_per_column;
  m.initial_loads.assign(initial.begin(), initial.end());
  m.cost_next = f.cost_next;
  m.cost_prev = f.cost_prev;
  m.border_time = f.border_time;
  m.decision_flops = f.decision_flops;
  return m;
}

// One recursion's inputs and answer, shared by the members that ask for the same.
struct Solved {
  RingFacts facts;
  std::vector<long> initial;
  double load_factor = 0.0;
  std::shared_ptr<const OnlineOptimal> tables;
  OnOffLaw law;
  int from = 0;
  LateRule rule;
};

bool same_facts(const RingFacts& a, const RingFacts& b) {
  return a.n == b.n && a.iterations == b.iterations && a.columns == b.columns &&
         a.flops_per_column == b.flops_per_column && a.decision_flops == b.decision_flops && a.peak == b.peak &&
         a.cost_next == b.cost_next && a.cost_prev == b.cost_prev && a.border_time == b.border_time &&
         a.latency_next == b.latency_next && a.latency_prev == b.latency_prev &&
         a.bandwidth_next == b.bandwidth_next && a.bandwidth_prev == b.bandwidth_prev &&
         a.report_bytes == b.report_bytes;
}

bool same_law(const OnOffLaw& a, const OnOffLaw& b) {
  return a.load_factor == b.load_factor && a.leave_available == b.leave_available &&
         a.leave_loaded == b.leave_loaded && a.loaded_at_start == b.loaded_at_start;
}

class MarkovRule final : public RedistributionPolicy {
 public:
  bool piggybacks_reports() const override { return true; }
  bool gathers_both_ways() const override { return true; }  // as gather_cost() prices a look

  Act after_iteration(const MemberView& v) override {
    if (!started_) {
      started_ = true;
      waiting_ = make_policy("forecast-lasting", v.ring->iterations);
    }
    if (!fallback_ && !follows_rule(v)) hand_over(v);
    if (fallback_) return fallback_->after_iteration(v);
    // Until the reports show two levels, nothing tells a two-level load from any other:
    // forecast-lasting answers, and goes on answering if the load turns out otherwise.
    if (!two_levels_ && waiting_) return waiting_->after_iteration(v);
    waiting_.reset();
    return rule_act(v);
  }

  std::optional<std::vector<double>> balance_for(const MemberView& v) override {
    if (RedistributionPolicy* other = answering()) return other->balance_for(v);
    if (looking_) {
      looking_ = false;
      target_ = LateRule::go_on;
      const std::optional<LoadStates> s = v.gathered ? state_of(v.ring->peak, *v.gathered, 0.0) : std::nullopt;
      if (!s) {
        misfit_ = true;  // the look showed a third level: hand over at the next iteration
        return std::nullopt;
      }
      looked_at_ = v.iteration;
      looked_state_ = *s;
      const std::size_t l = solved_->tables->loads_index(*v.loads);
      target_ = solved_->rule.after_look(v.iteration, l, *s);
    }
    if (target_ == LateRule::go_on) return std::nullopt;
    return solved_->tables->speeds_balanced_to(static_cast<std::size_t>(target_));
  }

  bool accept(const MemberView& v, const Prediction& p) override {
    if (RedistributionPolicy* other = answering()) return other->accept(v, p);
    return target_ != LateRule::go_on && p.moves;
  }
  // The late rule, or forecast-lasting and its rule where it answered (see the file's opening).
  std::string decided_by() const override {
    if (RedistributionPolicy* other = answering()) return "forecast-lasting: " + other->decided_by();
    return "late rule";
  }

 private:
  void hand_over(const MemberView& v) {
    fallback_ = waiting_ ? std::move(waiting_) : make_policy("forecast-lasting", v.ring->iterations);
  }
  // The policy answering for this one at this iteration, if not the rule.
  RedistributionPolicy* answering() const { return fallback_ ? fallback_.get() : waiting_.get(); }

  // The rule's answer after this iteration (or the fallback's, where the loads left its tables).
  Act rule_act(const MemberView& v) {
    target_ = LateRule::go_on;
    looking_ = false;
    const RingFacts& f = *v.ring;
    if (f.n < 2 || load_factor_ <= 0.0 || v.iteration >= f.iterations) return Act::carry_on;
    // The newest state known: a look's, or the common snapshot's once it is as new.
    int known_at = common_at_;
    LoadStates known = common_state_;
    if (looked_at_ > common_at_) {
      known_at = looked_at_;
      known = looked_state_;
    }
    if (known_at == 0) return Act::carry_on;
    const std::size_t l = solved_->tables->loads_index(*v.loads);
    if (l >= solved_->tables->loads_count()) {  // loads no balance of a joint state gave
      hand_over(v);
      return fallback_->after_iteration(v);
    }
    solve_if_moved(v);
    const int age = std::min(v.iteration - known_at, common_snapshot_lag(f.n));
    const int act = solved_->rule.act(v.iteration, l, age, known);
    if (act == LateRule::look) {
      looking_ = true;
      return Act::gather_and_decide;
    }
    target_ = act;
    return act == LateRule::go_on ? Act::carry_on : Act::decide;
  }

  // Whether every member's speed is one of its two levels: the joint state, or none. Learns the
  // load factor from the first speed clearly below a nominal one.
  std::optional<LoadStates> state_of(const std::vector<double>& peak, const std::vector<double>& speeds,
                                     double error) {
    LoadStates s = 0;
    for (std::size_t i = 0; i < speeds.size(); ++i) {
      if (near(speeds[i], peak[i], error)) continue;
      if (load_factor_ <= 0.0 && speeds[i] < peak[i]) load_factor_ = speeds[i] / peak[i];
      if (load_factor_ <= 0.0 || !near(speeds[i], load_factor_ * peak[i], error)) return std::nullopt;
      s |= LoadStates{1} << i;
    }
    return s;
  }

  // Reads the new common snapshot; false once the load is not two-level Markov as the rule needs.
  bool follows_rule(const MemberView& v) {
    const RingFacts& f = *v.ring;
    if (misfit_ || f.n > OnlineOptimal::max_members) return false;
    if (v.common_iteration > common_at_ && v.common && v.common->size() == f.n) {
      const std::optional<LoadStates> s = state_of(f.peak, speeds_of(*v.common), speed_error_of(*v.common));
      if (!s) return false;
      note_levels(*s);
      if (counts_ && v.common_iteration == common_at_ + 1) counts_->add(common_state_, *s);
      if (!counts_) counts_.emplace(f.n);
      common_at_ = v.common_iteration;
      common_state_ = *s;
    }
    if (two_levels_ && !solved_ && f.n >= 2) build_tables(v);
    return true;
  }

  // Whether the snapshot state `s` (after common_state_) shows the load's two levels: two members
  // at the load factor at once or in turn, or a loaded member back at its nominal speed.
  void note_levels(LoadStates s) {
    if (two_levels_) return;
    if (first_loaded_ == 0) first_loaded_ = s;
    two_levels_ = (s & (s - 1)) != 0 || (s & ~first_loaded_) != 0 || (common_state_ & ~s) != 0;
  }

  void build_tables(const MemberView& v) {
    const RingFacts& f = *v.ring;
    auto shared = last_solved();
    auto s = std::make_shared<Solved>();
    s->facts = f;
    s->initial = *v.loads;
    s->load_factor = load_factor_;
    if (shared && same_facts(shared->facts, f) && shared->initial == s->initial && shared->load_factor == load_factor_) {
      s->tables = shared->tables;
    } else {
      OnOffLaw law;
      law.load_factor = load_factor_;
      s->tables = std::make_shared<const OnlineOptimal>(run_model_of(f, s->initial), f.peak, law,
                                                        OnlineOptimal::TablesOnly{});
    }
    solved_ = std::move(s);
  }

  // Solves the rule for the law as counted when none is solved yet, or when a leaving probability
  // has drifted from the one solved for.
  void solve_if_moved(const MemberView& v) {
    const OnOffLaw law = counts_->law(load_factor_);
    if (solved_->from > 0 && !points::law_drifted(law, solved_->law, resolve)) return;
    const std::shared_ptr<Solved>& shared = last_solved();
    if (shared && shared != solved_ && shared->tables == solved_->tables && shared->from == v.iteration &&
        same_law(shared->law, law)) {
      solved_ = shared;
      return;
    }
    auto s = std::make_shared<Solved>(*solved_);
    s->law = law;
    s->from = v.iteration;
    s->rule = s->tables->late_rule(common_snapshot_lag(v.ring->n), gather_cost(*v.ring), law, v.iteration, true);
    solved_ = s;
    last_solved() = s;
  }

  // The newest solution any member of this process computed (members solve in turn, on the same
  // inputs, so the rest find the first one's).
  static std::shared_ptr<Solved>& last_solved() {
    static std::shared_ptr<Solved> last;
    return last;
  }

  // forecast-lasting: `waiting_` until the load shows two levels, `fallback_` once it shows it is not
  // (or on a ring too large), each asked from the start where it can be.
  std::unique_ptr<RedistributionPolicy> fallback_, waiting_;
  double load_factor_ = 0.0;
  std::optional<points::LawCounts> counts_;
  int common_at_ = 0, looked_at_ = 0;
  LoadStates common_state_ = 0, looked_state_ = 0;
  LoadStates first_loaded_ = 0;  // the members of the first snapshot that showed one loaded
  bool two_levels_ = false;
  std::shared_ptr<Solved> solved_;
  bool started_ = false, looking_ = false, misfit_ = false;
  int target_ = LateRule::go_on;
};

}  // namespace

SchemeEntry markov_rule_scheme() {
  return online_policy("markov-rule",
                       "the recommended policy: the best rule for a two-level Markov load (on/off), learned from the "
                       "reports and solved by Bellman's recursion on rings of at most 8, once the reports show two "
                       "levels; forecast-lasting before, and on any other load or ring",
                       Knows::reports,
                       [](const SchemeArgs&) { return std::make_unique<MarkovRule>(); });
}

}  // namespace ringsim::policy
