// How long speeds hold, counted on the common snapshots (the adaptive family's rule and its
// lasting saving: adaptive.hpp, lasting_saving.hpp). Pure: no SimGrid, tested in-process (tests/test_policy_speed_changes.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <deque>
#include <utility>
#include <vector>

#include "policy/policy.hpp"

namespace ringsim::policy {

// How long a balance lasts: the members' speed changes counted on the common snapshots, which
// every member sees alike, over the last `window` snapshots (speeds change in bursts: a calm
// spell after a burst is long-lived again). A change counts once it has settled (a reading more
// than 5% off the previous one and within 5% of the next), so a computation that straddled it
// counts once.
class SpeedChanges {
 public:
  static constexpr std::size_t window = 10;

  void observe(const std::vector<Report>& snapshot) {
    int changes = 0;
    if (before_.size() == snapshot.size() && last_.size() == snapshot.size())
      for (std::size_t j = 0; j < snapshot.size(); ++j)
        changes += differ(last_[j], before_[j]) && !differ(snapshot[j], last_[j]);
    double time = 0.0;
    for (const Report& rep : snapshot) time += rep.time / static_cast<double>(snapshot.size());
    recent_.push_back({time, changes});
    if (recent_.size() > window) recent_.pop_front();
    if (first_time_ < 0.0) first_time_ = time;
    total_changes_ += changes;
    last_time_ = time;
    before_ = std::move(last_);
    last_ = snapshot;
  }
  // Mean seconds a member keeps its speed, over the window. With no change seen there, what was
  // watched is all that is known: the estimate is the member-seconds watched, as if one change
  // were about to come (so a short look at a calm start promises little; infinite before any).
  double persistence() const {
    if (recent_.empty()) return INFINITY;
    int changes = 0;
    for (std::size_t k = 1; k < recent_.size(); ++k) changes += recent_[k].second;
    const double watched = static_cast<double>(last_.size()) * (recent_.back().first - recent_.front().first);
    return watched / std::max(changes, 1);
  }
  // Whether two snapshots have been watched: before that, nothing is known of how long speeds hold.
  bool watched() const { return recent_.size() >= 2; }
  // Seconds an iteration took, on average over the snapshots watched (one iteration apart).
  double pace() const {
    if (recent_.size() < 2) return 0.0;
    return (recent_.back().first - recent_.front().first) / static_cast<double>(recent_.size() - 1);
  }
  // Whether speeds change in a burst: over the last `k` snapshots, changes settle more than
  // `factor` times as often as over every snapshot seen (a calm start, or a steady churn, is none).
  bool in_burst(std::size_t k, double factor) const {
    if (total_changes_ == 0) return true;  // the first changes, not yet settled: all is burst
    if (recent_.size() <= k) return false;
    int recent_changes = 0;
    for (std::size_t m = recent_.size() - k; m < recent_.size(); ++m) recent_changes += recent_[m].second;
    const double recent_span = recent_.back().first - recent_[recent_.size() - 1 - k].first;
    const double span = last_time_ - first_time_;
    if (!(recent_span > 0.0) || !(span > 0.0)) return false;
    return recent_changes / recent_span > factor * total_changes_ / span;
  }
  // Mean seconds the ring keeps all its speeds, over the window: the seconds watched per snapshot
  // in which some member's speed settled at a new value (with none, the seconds watched). A balance
  // is for all n speeds and ends at the first change of any; members' changes come together (a
  // window of changes, a load on several hosts at once), and counting each as its own end of the
  // balance (one member's persistence over n) would promise the paper's traces a balance of under
  // two iterations where the next window is 20 away (experiments/when/NOTES.md, "Changes that come
  // together"). Changes apart count apart.
  double ring_persistence() const {
    if (recent_.empty()) return INFINITY;
    int changed = 0;
    for (std::size_t k = 1; k < recent_.size(); ++k) changed += recent_[k].second > 0;
    return (recent_.back().first - recent_.front().first) / std::max(changed, 1);
  }
  // The same two, from the changes between the last snapshot and fresh speeds measured at `now`:
  // a burst shows here before the snapshots catch up with it.
  double recent_persistence(const std::vector<double>& fresh, double now) const {
    const Fresh c = changed_since(fresh, now);
    return c.members == 0 ? INFINITY : static_cast<double>(fresh.size()) * c.seconds / c.members;
  }
  double recent_ring_persistence(const std::vector<double>& fresh, double now) const {
    const Fresh c = changed_since(fresh, now);
    return c.members == 0 ? INFINITY : c.seconds;
  }

 private:
  struct Fresh {
    int members = 0;       // whose fresh speed differs from the last snapshot's
    double seconds = 0.0;  // since the last snapshot's reports, on average
  };
  Fresh changed_since(const std::vector<double>& fresh, double now) const {
    if (last_.size() != fresh.size() || last_.empty()) return {};
    Fresh c;
    for (std::size_t j = 0; j < fresh.size(); ++j) {
      c.members += std::abs(fresh[j] - last_[j].speed) > 0.05 * last_[j].speed;
      c.seconds += (now - last_[j].time) / static_cast<double>(fresh.size());
    }
    c.seconds = std::max(c.seconds, 0.0);
    return c;
  }
  static bool differ(const Report& a, const Report& b) { return std::abs(a.speed - b.speed) > 0.05 * b.speed; }
  std::vector<Report> before_, last_;
  std::deque<std::pair<double, int>> recent_;  // per snapshot: its mean time, changes settled in it
  int total_changes_ = 0;
  double first_time_ = -1.0, last_time_ = 0.0;
};

}  // namespace ringsim::policy
