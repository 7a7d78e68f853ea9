#include "planners/redistribution/load_balance.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>

#include "model/errors.hpp"

namespace ringsim::redistribution {

namespace {

// Two times k / s measured with a relative speed error e can be the same time for the true speeds
// when the larger is at most (1 + e) / (1 - e) times the smaller.
double near_tie_ratio(double error) { return (1.0 + error) / (1.0 - error); }

// The greedy's step among near ties (heap: its order; `near(a, b)`: entry b could tie with the
// top a for the true speeds): the top, or the lowest member index among the entries that could
// tie with it, which is the member exact speeds tying there would choose. The others stay.
template <class Heap, class Near>
std::size_t take_among_near_ties(Heap& heap, Near near) {
  using Key = std::pair<double, std::size_t>;
  const Key top = heap.top();
  heap.pop();
  if (heap.empty() || !near(top.first, heap.top().first)) return top.second;  // no tie: the usual step
  std::vector<Key> tied{top};
  while (!heap.empty() && near(top.first, heap.top().first)) {
    tied.push_back(heap.top());
    heap.pop();
  }
  const auto chosen = std::min_element(tied.begin(), tied.end(),
                                       [](const Key& a, const Key& b) { return a.second < b.second; });
  const std::size_t member = chosen->second;
  tied.erase(chosen);
  for (const Key& k : tied) heap.push(k);
  return member;
}

// The greedy's start: each member's share of the total, floored, at least 1. A share that the true
// speeds could make a whole number is one: the floors of exact speeds at a tie, whatever side of it
// the measured ones fall. A share that no Count holds (speeds whose product with the total
// overflows) is marked -1.
std::vector<Count> proportional_floors(const std::vector<double>& speeds, double sum, Count total, double ratio) {
  std::vector<Count> load(speeds.size());
  for (std::size_t i = 0; i < speeds.size(); ++i) {
    const double share = std::floor(static_cast<double>(total) * speeds[i] / sum * ratio);
    load[i] = share < 0x1p62 ? std::max<Count>(1, static_cast<Count>(share)) : -1;
  }
  return load;
}

// Loads summed, or -1 when one is -1 or the sum passes 2^62.
Count sum_of(const std::vector<Count>& load) {
  Count sum = 0;
  for (Count l : load) {
    if (l < 0 || l > (Count{1} << 62) - sum) return -1;
    sum += l;
  }
  return sum;
}

// The greedy moves one column per step: from proportional floors it takes at most a few per
// member, but floors rounded at totals near 2^62 or speeds 1e300 apart can be off by billions.
constexpr Count kMaxGreedySteps = Count{1} << 20;

bool load_within_steps(const std::vector<Count>& load, Count total) {
  const Count assigned = sum_of(load);
  if (assigned < 0) return false;
  const Count gap = assigned > total ? assigned - total : total - assigned;
  return gap <= kMaxGreedySteps + 4 * static_cast<Count>(load.size());
}

// Members' loads max(1, floor(theta * s_i / s_max)) at the largest threshold theta whose loads sum
// to at most `total`, found by bisection over theta in [0, total]: columns taken in increasing
// order of k / s_i up to theta, so the greedy that adds the rest one by one (at most a few per
// member: one ulp of theta moves each floor by at most one or two) ends where it would from any
// such prefix.
std::vector<Count> floors_at_threshold(const std::vector<double>& speeds, Count total) {
  const double fastest = *std::max_element(speeds.begin(), speeds.end());
  const auto loads_at = [&](double theta) {
    std::vector<Count> load(speeds.size());
    for (std::size_t i = 0; i < speeds.size(); ++i)
      load[i] = std::max<Count>(1, static_cast<Count>(std::floor(std::min(theta * (speeds[i] / fastest), 0x1p62))));
    return load;
  };
  const auto fits = [&](double theta) {
    const Count s = sum_of(loads_at(theta));
    return s >= 0 && s <= total;
  };
  double lo = 0.0, hi = static_cast<double>(total);
  while (true) {
    const double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    (fits(mid) ? lo : hi) = mid;
  }
  return loads_at(lo);
}

}  // namespace

std::vector<Count> balanced_targets(const std::vector<double>& speeds, Count total) {
  return balanced_targets(speeds, total, 0.0);
}

// Start from the proportional floors (clamped to 1), then move single columns: add to the
// processor whose time after the addition is smallest, or remove from the one with the largest
// time. For min-max objectives with separable increasing costs this incremental greedy is exact
// (each step is the best marginal choice and marginal costs are monotone). Exact ties go to the
// lowest index. With an error, speeds measured around a tie give the balance of the exact speeds
// at the tie: near ties (times within near_tie_ratio of the best) go to the lowest index too, and
// a share within that ratio below a whole number starts at it, as the exact share does (the
// true total over speeds sum, and so every share, is within that ratio of the measured one). No
// column taken is then more than near_tie_ratio above one left: the result is a balance within
// the error, optimal up to that ratio.
std::vector<Count> balanced_targets(const std::vector<double>& speeds, Count total, double error) {
  const std::size_t n = speeds.size();
  if (n == 0) throw InputError("no processors to balance");
  if (total < static_cast<Count>(n))
    throw InputError("cannot give " + std::to_string(n) + " processors at least one column each out of " +
                     std::to_string(total));
  if (total > kMaxTotalItems)
    throw InputError("cannot balance " + std::to_string(total) + " columns: at most " + std::to_string(kMaxTotalItems) +
                     " (2^62), the most items ringsim plans");
  if (!(error >= 0.0 && error < 1.0)) throw std::logic_error("a balance's speed error must be in [0, 1)");
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(speeds[i]) || speeds[i] <= 0.0)
      throw InputError("speed " + std::to_string(i) + " must be a finite positive number");
    sum += speeds[i];
  }
  const double ratio = near_tie_ratio(error);
  std::vector<Count> load = proportional_floors(speeds, sum, total, ratio);
  Count assigned = sum_of(load);
  if (!load_within_steps(load, total)) {
    load = floors_at_threshold(speeds, total);
    assigned = sum_of(load);
  }
  using Key = std::pair<double, std::size_t>;
  if (assigned < total) {
    // Smallest time after one more column first; ties to the lowest index.
    std::priority_queue<Key, std::vector<Key>, std::greater<>> heap;
    for (std::size_t i = 0; i < n; ++i) heap.push({static_cast<double>(load[i] + 1) / speeds[i], i});
    const auto near = [ratio](double least, double t) { return t <= least * ratio; };
    for (; assigned < total; ++assigned) {
      const std::size_t i = take_among_near_ties(heap, near);
      ++load[i];
      heap.push({static_cast<double>(load[i] + 1) / speeds[i], i});
    }
  } else if (assigned > total) {
    // Largest current time first, among processors that keep at least one column; ties to the
    // lowest index.
    auto cmp = [](const Key& a, const Key& b) { return a.first < b.first || (a.first == b.first && a.second > b.second); };
    std::priority_queue<Key, std::vector<Key>, decltype(cmp)> heap(cmp);
    for (std::size_t i = 0; i < n; ++i)
      if (load[i] > 1) heap.push({static_cast<double>(load[i]) / speeds[i], i});
    const auto near = [ratio](double largest, double t) { return t * ratio >= largest; };
    for (; assigned > total; --assigned) {
      const std::size_t i = take_among_near_ties(heap, near);
      if (--load[i] > 1) heap.push({static_cast<double>(load[i]) / speeds[i], i});
    }
  }
  return load;
}

// The condition. balanced_targets gives loads L that no single column moved from one member to
// another can improve: max over {i : L_i > 1} of L_i / s_i <= min over j of (L_j + 1) / s_j (the
// greedy adds a column where (L_j + 1) / s_j is least and removes one where L_i / s_i is largest).
// These are the divisor apportionments (d'Hondt's, with at least one column each): a threshold
// theta with L_i / s_i <= theta <= (L_i + 1) / s_i for every member (L_i > 1 on the left). Every
// such L minimizes max_i L_i / s_i; two of them differ only where k / s_i = theta for several
// members (a tie, which balanced_targets breaks by index). Loads are a balance for some speeds
// s'_i in [s_i (1 - e), s_i (1 + e)] iff some theta fits every member for some s'_i:
// theta >= L_i / (s_i (1 + e)) for L_i > 1 and theta <= (L_j + 1) / (s_j (1 - e)), that is
//   max over {i : L_i > 1} of L_i / s_i <= (1 + e) / (1 - e) min over j of (L_j + 1) / s_j.
//
// Why a redistribution point keeps such loads. Measured speeds carry the rounding of the
// simulated clock: a member whose speed never changed measures it a few units in the last place
// off, and balanced_targets, which must break every tie, then hands a near-tied column to another
// member, one way at one point and back at the next, moving a column for nothing. Loads that are
// a balance for speeds the measurement cannot tell from the ones measured stay.
//
// Why it cannot suppress a real rebalancing. Kept loads are within a factor (1 + e) / (1 - e) of
// the best iteration time T* for the measured speeds: if an optimal balance B differs from L, some
// member j has B_j >= L_j + 1, so T* >= (L_j + 1) / s_j >= (1 - e) theta, while every L_i / s_i
// with L_i > 1 is at most (1 + e) theta (and a member at one column costs 1 / s_i in every
// balance). So a move is skipped only when no move could gain more than the measurement
// resolves. With exact speeds (e = 0: oracle targets, nominal speeds) loads are kept only where
// they tie with balanced_targets, and moving would gain nothing.
bool is_balance_within(const std::vector<Count>& loads, const std::vector<double>& speeds, double error) {
  if (loads.size() != speeds.size()) throw std::logic_error("loads and speeds of a balance differ in size");
  if (!(error >= 0.0 && error <= 1.0)) throw std::logic_error("a balance's speed error must be in [0, 1]");
  double largest_given = 0.0;                                       // over members that can give
  double least_taken = std::numeric_limits<double>::infinity();     // over members that can take
  for (std::size_t i = 0; i < loads.size(); ++i) {
    if (!std::isfinite(speeds[i]) || speeds[i] <= 0.0)
      throw InputError("speed " + std::to_string(i) + " must be a finite positive number");
    if (loads[i] < 1) throw std::logic_error("a member holds no column");
    const double load = static_cast<double>(loads[i]);
    if (loads[i] > 1) largest_given = std::max(largest_given, load / speeds[i]);
    least_taken = std::min(least_taken, (load + 1.0) / speeds[i]);
  }
  return error == 1.0 || largest_given <= least_taken * near_tie_ratio(error);
}

std::vector<Count> rebalanced_targets(const std::vector<Count>& loads, const std::vector<double>& speeds,
                                      double error) {
  if (is_balance_within(loads, speeds, error)) return loads;
  return balanced_targets(speeds, std::accumulate(loads.begin(), loads.end(), Count{0}), error);
}

// The clock is a double: SimGrid ends a computation that runs alone on its host at its start plus
// work over speed (its own precisions, surf/precision and maxmin/precision, only snap remaining
// work below their product, 1e-14 flop, and compare dates), so a compute time read as the
// difference of two clock values is off by the rounding of values of the clock's size: 2
// DBL_EPSILON clock covers half a unit in the last place for the quotient's sum with the start,
// for each reading and for their difference. The true time is within t +- delta, so the true
// speed, work / time, within the measured one times t / (t + delta) .. t / (t - delta), that is
// within (1 +- delta / (t - delta)); DBL_EPSILON more covers the rounding of the speed's own
// product and quotient (work = columns x flops per column, over the time). On the paper's runs
// with traces placed by iteration, the measured speeds differ from the true ones by at most a
// quarter of this bound.
double measured_speed_error(double compute_time, double clock) {
  const double delta = 2.0 * DBL_EPSILON * std::abs(clock);
  if (!(compute_time > 2.0 * delta)) return 1.0;
  return std::min(1.0, delta / (compute_time - delta) + DBL_EPSILON);
}

}  // namespace ringsim::redistribution
