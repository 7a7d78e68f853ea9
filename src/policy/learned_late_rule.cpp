// The late rule played on a learned law (learned_late_rule.hpp: the rule and its reasons).
#include "policy/learned_late_rule.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <utility>

#include "policy/predictions.hpp"

namespace ringsim::policy {

using points::LateRule;
using points::LoadStates;
using points::OnOffLaw;
using points::OnlineOptimal;

struct LearnedLateRule::Solved {
  RingFacts facts;
  std::vector<long> initial;
  double load_factor = 0.0;
  std::shared_ptr<const OnlineOptimal> tables;
  OnOffLaw law;
  int from = 0;
  LateRule rule;
};

namespace {

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

}  // namespace

void LearnedLateRule::build(const MemberView& v, double load_factor) {
  const RingFacts& f = *v.ring;
  auto shared = last_solved();
  auto s = std::make_shared<Solved>();
  s->facts = f;
  s->initial = *v.loads;
  s->load_factor = load_factor;
  if (shared && same_facts(shared->facts, f) && shared->initial == s->initial && shared->load_factor == load_factor) {
    s->tables = shared->tables;
  } else {
    OnOffLaw law;
    law.load_factor = load_factor;
    s->tables =
        std::make_shared<const OnlineOptimal>(run_model_of(f, s->initial), f.peak, law, OnlineOptimal::TablesOnly{});
  }
  solved_ = std::move(s);
}

std::optional<Act> LearnedLateRule::act(const MemberView& v, const TwoLevelLoad& load) {
  target_ = LateRule::go_on;
  looking_ = false;
  const RingFacts& f = *v.ring;
  if (f.n < 2 || load.load_factor() <= 0.0 || v.iteration >= f.iterations) return Act::carry_on;
  int known_at = load.common_at();
  LoadStates known = load.common_state();
  if (looked_at_ > known_at) {
    known_at = looked_at_;
    known = looked_state_;
  }
  if (known_at == 0) return Act::carry_on;
  const std::size_t l = solved_->tables->loads_index(*v.loads);
  if (l >= solved_->tables->loads_count()) return std::nullopt;
  solve_if_moved(v, load.law());
  const int age = std::min(v.iteration - known_at, common_snapshot_lag(f.n));
  const int act = solved_->rule.act(v.iteration, l, age, known);
  if (act == LateRule::look) {
    looking_ = true;
    return Act::gather_and_decide;
  }
  target_ = act;
  return act == LateRule::go_on ? Act::carry_on : Act::decide;
}

void LearnedLateRule::looked(const MemberView& v, const std::optional<LoadStates>& state) {
  looking_ = false;
  target_ = LateRule::go_on;
  if (!state) return;
  looked_at_ = v.iteration;
  looked_state_ = *state;
  const std::size_t l = solved_->tables->loads_index(*v.loads);
  target_ = solved_->rule.after_look(v.iteration, l, *state);
}

std::optional<std::vector<double>> LearnedLateRule::balance_for() const {
  if (target_ == LateRule::go_on) return std::nullopt;
  return solved_->tables->speeds_balanced_to(static_cast<std::size_t>(target_));
}

// Solves the rule for the law as counted when none is solved yet, or when a leaving probability
// has drifted from the one solved for.
void LearnedLateRule::solve_if_moved(const MemberView& v, const OnOffLaw& law) {
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
std::shared_ptr<LearnedLateRule::Solved>& LearnedLateRule::last_solved() {
  static std::shared_ptr<Solved> last;
  return last;
}

}  // namespace ringsim::policy
