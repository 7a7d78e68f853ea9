// The late rule (planners/points/on_off_recursion.hpp, expected_late) played by the members on the
// law they learn (scheme markov-rule, markov_rule.cpp; TwoLevelLoad, two_level_load.hpp). Bellman's
// recursion over (loads, newest joint state known, its age) gives the rule that minimizes the
// expected makespan with exactly a policy's information: the common snapshot, floor(n/2) - 1
// iterations late, for free; the present for a look (an all-gather both ways); a point that
// balances for any joint state's speeds, or returns to the loads the rule took over with. Pure:
// no SimGrid, tested in-process (tests/test_markov_rule.cpp).
//
// The costs are the ring's facts (column and border costs, the planner's work, the gather's
// rounds) in hindsight's model, so that the recursion and the simulation price a point the same
// way. The rule is solved again from the present when a leaving probability has moved by more than
// `resolve` of the one last solved for (certainty equivalence: the rule acts on its estimate as if
// it were the law). Each member solves the same recursion on the same inputs; the solution is
// shared between the members of one process, since each would compute the same one. The solving is
// not counted in simulated time, as no policy's own bookkeeping is; a point's planner run
// (decision_flops) is.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "planners/points/on_off_recursion.hpp"
#include "policy/policy.hpp"
#include "policy/two_level_load.hpp"

namespace ringsim::policy {

class LearnedLateRule {
 public:
  // Re-solve when an estimated leaving probability moved by more than this share (the value
  // `online-optimal` plays its learning rule with, so the two are the same rule).
  static constexpr double resolve = 0.2;

  // Whether the tables are built: once the load has shown its two levels (build).
  bool built() const { return solved_ != nullptr; }
  // The recursion's tables for this ring, from the loads now (those the rule takes over with) and
  // the load factor learned.
  void build(const MemberView& v, double load_factor);

  // The rule's answer after this iteration, on the newest joint state known (a look's, or the
  // common snapshot's once it is as new); none where the loads are not among the tables' (no balance
  // of a joint state gave them), which the rule cannot answer for.
  std::optional<Act> act(const MemberView& v, const TwoLevelLoad& load);

  // Whether the rule asked for a look (Act::gather_and_decide) not yet read; looked() reads what
  // it brought: its joint state, on which the rule answers, or none where it showed a third level
  // (the rule then goes on).
  bool looking() const { return looking_; }
  void looked(const MemberView& v, const std::optional<points::LoadStates>& state);

  // The speeds of the joint state whose balance the rule moves to, or none (go on).
  std::optional<std::vector<double>> balance_for() const;
  // Whether a plan is carried out: the rule chose a point and the plan moves columns.
  bool accept(const Prediction& p) const { return target_ != points::LateRule::go_on && p.moves; }

 private:
  // One recursion's inputs and answer, shared by the members that ask for the same.
  struct Solved;

  void solve_if_moved(const MemberView& v, const points::OnOffLaw& law);
  static std::shared_ptr<Solved>& last_solved();

  std::shared_ptr<Solved> solved_;
  int looked_at_ = 0;
  points::LoadStates looked_state_ = 0;
  bool looking_ = false;
  int target_ = points::LateRule::go_on;
};

}  // namespace ringsim::policy
