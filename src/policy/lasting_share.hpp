// The lasting saving's backtest (src/policy/lasting_saving.hpp): the share of a balance's promised saving
// that balances made on earlier common snapshots delivered, lag by lag. Pure: no SimGrid, tested
// in-process (tests/test_policy_adaptive_lasting.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <deque>
#include <utility>
#include <vector>

#include "model/redistribution.hpp"
#include "policy/policy.hpp"
#include "policy/predictions.hpp"

namespace ringsim::policy {

// How long a balance lasts, measured (scheme adaptive-lasting): a backtest on the common
// snapshots, which every member holds alike. Each of the last `window` snapshots k is a move that
// could have been made then, from the loads L_k of that iteration to the balance B_k of its
// speeds s_k; it promised a saving of T(L_k, s_k) - T(B_k, s_k) per iteration (T the slowest
// member's computation), and the snapshot h iterations later shows what it would have saved
// there, T(L_k, s_(k+h)) - T(B_k, s_(k+h)). The share delivered at lag h is the sum of the latter,
// each counted up to its own promise either way (a balance's share is in [-1, 1]), over the sum of
// the promises, over every k watched that long: near 1 at every lag
// when speeds change and then hold (the paper's windows, a drift); falling to 0 and below within a
// few lags when they churn faster than a balance lasts (on/off load on many hosts: yesterday's
// balance gives today's slow member more columns). The loads are those of k, not today's: today's
// were chosen knowing the speeds after k, and would make every earlier balance look bad.
//
// Each balance up to its promise. A balance that promised little (its loads already near it) can
// save or lose many times that once the speeds have changed, through columns it moved for other
// reasons; summed as they were, a few such balances set the share at the long lags, where only
// old balances are watched; so each counts at most its promise either way (a share in [-1, 1]).
// The run that showed it: experiments/when/NOTES.md, "adaptive-lasting: the saving measured by a backtest".
//
// Cost. Each saving is computed once, when the snapshot that shows it arrives (O(window n) per
// snapshot); a decision only adds them up (O(window^2), no n). The sums per lag are added up anew
// for each decision rather than kept: when the window slides, the snapshot that leaves it holds
// every lag's first term, and taking it back out of a floating-point sum would not give the sum
// of the terms that remain, added in order (the results must not change).
class LastingShare {
 public:
  static constexpr std::size_t window = 40;

  void observe(const std::vector<Report>& snapshot, const std::vector<double>& speeds, std::vector<Count> targets,
               double flops_per_column) {
    std::vector<long> loads;
    for (const Report& rep : snapshot) loads.push_back(rep.load);
    if (past_.size() == window) past_.pop_front();
    for (Seen& k : past_)
      if (k.promising)
        k.saved.push_back(compute_time_of(k.loads, speeds, flops_per_column) -
                          compute_time_of(k.targets, speeds, flops_per_column));
    const double before = compute_time_of(loads, speeds, flops_per_column);
    const double promise = before - compute_time_of(targets, speeds, flops_per_column);
    // A balance that promised (next to) nothing tells nothing about how long balances last.
    const bool promising = promise > 1e-3 * before;
    past_.push_back({std::move(targets), std::move(loads), promise, promising, {}});
  }

  // Sum over lags first .. first + count - 1 (iterations after a snapshot) of the share of a
  // balance's saving still delivered at that lag: measured where some balance of the window was
  // watched that long, else `unseen(lag)`; up to the first lag at which balances delivered nothing
  // (a share of 0 or below), not beyond. The policy decides again at every snapshot: once a balance
  // stops saving, the next move balances for the speeds then, so what a stale balance would lose
  // after that lag is not this move's to lose; counted, those losses would refuse the cheap moves
  // that track a churn (experiments/when/NOTES.md, "adaptive-lasting").
  // `lasting`: the sum of shares above; `harm`: the shares below 0 at the measured lags after that
  // stop (0 or less): what a balance that has turned costs, per unit of its promise, against the
  // loads it replaced, until the last lag watched (LastingSaving charges it, up to two moves).
  struct Delivered {
    double lasting = 0.0;
    double harm = 0.0;
  };
  template <class Unseen>
  Delivered delivered(int first, int count, Unseen unseen) const {
    const std::size_t lags = past_.size();
    std::vector<double> num(lags, 0.0), den(lags, 0.0);
    for (const Seen& k : past_) {
      if (!k.promising) continue;
      for (std::size_t h = 1; h <= k.saved.size(); ++h) {
        den[h] += k.promise;
        num[h] += k.promise * std::clamp(k.saved[h - 1] / k.promise, -1.0, 1.0);
      }
    }
    auto measured = [&](int h) { return std::clamp(num[static_cast<std::size_t>(h)] / den[static_cast<std::size_t>(h)], -1.0, 1.0); };
    auto watched = [&](int h) { return static_cast<std::size_t>(h) < lags && den[static_cast<std::size_t>(h)] > 0.0; };
    Delivered d;
    int j = 0;
    for (; j < count; ++j) {
      const int h = std::max(first + j, 1);
      const double share = watched(h) ? measured(h) : unseen(h);
      if (share <= 0.0) break;
      d.lasting += share;
    }
    for (; j < count; ++j) {
      const int h = std::max(first + j, 1);
      if (watched(h)) d.harm += std::min(measured(h), 0.0);
    }
    return d;
  }

 private:
  // Snapshot k: the balance B_k of its speeds, its loads L_k, its promise and, when that counts,
  // what B_k saved at each later snapshot of the window (saved[h - 1] at lag h).
  struct Seen {
    std::vector<Count> targets;
    std::vector<long> loads;
    double promise = 0.0;
    bool promising = false;
    std::vector<double> saved;
  };
  std::deque<Seen> past_;
};

}  // namespace ringsim::policy
