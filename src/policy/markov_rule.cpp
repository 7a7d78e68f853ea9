// Scheme `markov-rule`, the recommended policy: the late rule played by the members on a load law
// they learn from their reports where the load is two-level Markov, and forecast-lasting wherever
// the late rule does not apply (docs/schemes.md; experiments/when/NOTES.md, "markov-rule").
//
// The rules it composes, and which answers when:
//   - TwoLevelLoad (two_level_load.hpp) reads every common snapshot: each member's two speed levels
//     (its nominal speed and one shared load factor), the members' joint state, the leaving
//     probabilities. It answers nothing; it says which of the two rules below may.
//   - LearnedLateRule (learned_late_rule.hpp) answers once the snapshots show two levels, on rings
//     of at most OnlineOptimal::max_members (2^n joint states): where each member's speed takes
//     two levels and moves between them as a Markov chain, the joint state is all the past says
//     about the future, and Bellman's recursion gives the rule that minimizes the expected makespan
//     with exactly a policy's information (experiments/when/NOTES.md, "the late rule").
//   - forecast-lasting (forecast_lasting.cpp: the adaptive rule with the lasting saving, the rise,
//     the return to the initial balance and the drift forecast) answers everywhere else, as the
//     policy for every other load: until the snapshots show two levels, since nothing tells a
//     two-level load from another before (one member's first change, to any lower speed, would
//     pass for a load factor, and the late rule would play for returns and company that a step to
//     another machine's speed never brings); and for the rest of the run once a speed is neither
//     level, the ring is too large, or the loads are none of the rule's tables. Where that shows
//     before the late rule has answered, the run is forecast-lasting's, decision for decision: the
//     same forecast-lasting answers throughout. Where it shows after, a new forecast-lasting takes
//     over from that iteration: the one that answered first has not watched what the late rule did.
// Each point's `decided_by` says which rule answered (docs/outputs.md).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "policy/adaptive.hpp"
#include "policy/learned_late_rule.hpp"
#include "policy/registry.hpp"
#include "policy/two_level_load.hpp"

namespace ringsim::policy {
namespace {

class MarkovRule final : public RedistributionPolicy {
 public:
  bool piggybacks_reports() const override { return true; }
  bool gathers_both_ways() const override { return true; }  // as gather_cost() prices a look

  Act after_iteration(const MemberView& v) override {
    if (answering_ != Answering::other_load && !load_.read(v)) hand_over();
    if (answering_ == Answering::before_two_levels && load_.two_levels()) answering_ = Answering::late_rule;
    if (answering_ == Answering::late_rule) {
      if (!late_rule_.built() && v.ring->n >= 2) late_rule_.build(v, load_.load_factor());
      if (const std::optional<Act> act = late_rule_.act(v, load_)) return *act;
      hand_over();  // loads no balance of a joint state gave
    }
    return forecast_lasting_->after_iteration(v);
  }

  std::optional<std::vector<double>> balance_for(const MemberView& v) override {
    if (answering_ != Answering::late_rule) return forecast_lasting_->balance_for(v);
    if (late_rule_.looking()) {
      const std::optional<points::LoadStates> s =
          v.gathered ? load_.state_of(v.ring->peak, *v.gathered, 0.0) : std::nullopt;
      if (!s) load_.rule_out();  // the look showed a third level: forecast-lasting from the next iteration
      late_rule_.looked(v, s);
    }
    return late_rule_.balance_for();
  }

  bool accept(const MemberView& v, const Prediction& p) override {
    if (answering_ != Answering::late_rule) return forecast_lasting_->accept(v, p);
    return late_rule_.accept(p);
  }
  std::string decided_by() const override {
    if (answering_ != Answering::late_rule) return "forecast-lasting: " + forecast_lasting_->decided_by();
    return "late rule";
  }

 private:
  // Who answers, in the order a run may go through them (the file's opening comment).
  enum class Answering { before_two_levels, late_rule, other_load };

  // forecast-lasting for the rest of the run: the one that has answered until now, or a new one
  // where the late rule answered.
  void hand_over() {
    if (answering_ == Answering::late_rule) forecast_lasting_ = forecast_lasting_policy();
    answering_ = Answering::other_load;
  }

  Answering answering_ = Answering::before_two_levels;
  TwoLevelLoad load_;
  LearnedLateRule late_rule_;
  std::unique_ptr<Adaptive> forecast_lasting_ = forecast_lasting_policy();
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
