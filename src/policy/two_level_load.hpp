// A two-level Markov load as the members learn it (scheme markov-rule, markov_rule.cpp): each
// member's speed is its nominal speed (RingFacts::peak) or one fraction of it shared by all (the
// load factor), and the members' joint state moves as a Markov chain. From the common snapshots,
// which every member holds alike, the members learn the load factor (the first measured speed
// below a nominal one, over it), each snapshot's joint state, and the leaving probabilities counted
// over consecutive snapshots (points::LawCounts: Jeffreys' prior, so that few observations never
// make a state last forever). Pure: no SimGrid, tested in-process (tests/test_markov_rule.cpp).
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <vector>

#include "planners/points/on_off_recursion.hpp"
#include "policy/policy.hpp"
#include "policy/predictions.hpp"

namespace ringsim::policy {

class TwoLevelLoad {
 public:
  // The relative gap, beyond a report's own error, within which a speed counts as a level: the
  // rounding of load * flops / time.
  static constexpr double level_slack = 1e-6;

  // Reads the view's common snapshot when it is new. False once the load is not two-level Markov
  // as the late rule needs: a speed that is neither level within its measurement error (drifting
  // or many-level load, changes within an iteration), a look that showed one (rule_out), or a ring
  // of more than OnlineOptimal::max_members (the recursion's 2^n joint states).
  bool read(const MemberView& v) {
    const RingFacts& f = *v.ring;
    if (ruled_out_ || f.n > points::OnlineOptimal::max_members) return false;
    if (v.common_iteration > common_at_ && v.common && v.common->size() == f.n) {
      const std::optional<points::LoadStates> s = state_of(f.peak, speeds_of(*v.common), speed_error_of(*v.common));
      if (!s) return false;
      note_levels(*s);
      if (counts_ && v.common_iteration == common_at_ + 1) counts_->add(common_state_, *s);
      if (!counts_) counts_.emplace(f.n);
      common_at_ = v.common_iteration;
      common_state_ = *s;
    }
    return true;
  }
  // The load is not two-level (a look showed a third level): read() says so from now on.
  void rule_out() { ruled_out_ = true; }

  // Whether the snapshots have shown the load's two levels: two members at the load factor at once
  // or in turn, or a loaded member back at its nominal speed. One member's first change, to any
  // lower speed, would pass for a load factor: a step to another machine's speed, which never
  // returns and brings no company.
  bool two_levels() const { return two_levels_; }

  // The joint state these speeds show (bit i: member i at the load factor), or none where a speed
  // is neither level within `error`. Learns the load factor from the first speed clearly below a
  // nominal one.
  std::optional<points::LoadStates> state_of(const std::vector<double>& peak, const std::vector<double>& speeds,
                                             double error) {
    points::LoadStates s = 0;
    for (std::size_t i = 0; i < speeds.size(); ++i) {
      if (near(speeds[i], peak[i], error)) continue;
      if (load_factor_ <= 0.0 && speeds[i] < peak[i]) load_factor_ = speeds[i] / peak[i];
      if (load_factor_ <= 0.0 || !near(speeds[i], load_factor_ * peak[i], error)) return std::nullopt;
      s |= points::LoadStates{1} << i;
    }
    return s;
  }

  double load_factor() const { return load_factor_; }  // 0: not yet seen
  int common_at() const { return common_at_; }          // the newest snapshot read (0: none)
  points::LoadStates common_state() const { return common_state_; }
  // The law as counted so far (once a snapshot has been read).
  points::OnOffLaw law() const { return counts_->law(load_factor_); }

 private:
  static bool near(double speed, double level, double error) {
    return std::abs(speed - level) <= (error + level_slack) * level;
  }
  // Whether the snapshot state `s` (after common_state_) shows the two levels (two_levels()).
  void note_levels(points::LoadStates s) {
    if (two_levels_) return;
    if (first_loaded_ == 0) first_loaded_ = s;
    two_levels_ = (s & (s - 1)) != 0 || (s & ~first_loaded_) != 0 || (common_state_ & ~s) != 0;
  }

  double load_factor_ = 0.0;
  std::optional<points::LawCounts> counts_;
  int common_at_ = 0;
  points::LoadStates common_state_ = 0;
  points::LoadStates first_loaded_ = 0;  // the members of the first snapshot that showed one loaded
  bool two_levels_ = false;
  bool ruled_out_ = false;
};

}  // namespace ringsim::policy
