#include "planners/redistribution/forwarding_runs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ringsim::redistribution {
namespace {

// Runs that continue one another at the same pace are one run.
void append(std::vector<DepartureRun>& runs, const DepartureRun& r) {
  if (r.count <= 0) return;
  if (!runs.empty()) {
    DepartureRun& b = runs.back();
    const double next = b.start + static_cast<double>(b.count) * b.period;
    if (b.period == r.period && std::abs(next - r.start) <= 1e-12 * std::max(1.0, std::abs(r.start))) {
      b.count += r.count;
      return;
    }
  }
  runs.push_back(r);
}

// The first k in [0, cnt] at which behind(k) (true, then false as k grows) is false: from `estimate`
// by single steps, which rounding needs only a few of; by bisection where the estimate is far off
// (costs so far apart that one is lost in the other's sums), never a step per item.
template <class Behind>
Count first_not_behind(const Behind& behind, double estimate, Count cnt) {
  constexpr int kSteps = 64;
  Count k = !(estimate > 0.0) ? 0 : estimate >= static_cast<double>(cnt) ? cnt : static_cast<Count>(std::ceil(estimate));
  int steps = 0;
  while (k > 0 && !behind(k - 1) && ++steps <= kSteps) --k;
  while (k < cnt && behind(k) && ++steps <= kSteps) ++k;
  if (steps <= kSteps) return k;
  Count lo = 0, hi = cnt;
  while (lo < hi) {
    const Count mid = lo + (hi - lo) / 2;
    if (behind(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

}  // namespace

std::vector<DepartureRun> forward_by_runs(const ForwardingFeed& in, Count sends, double c) {
  std::vector<DepartureRun> out;
  if (sends <= 0) return out;
  if (in.source) {
    out.push_back({0, sends, in.t0, c});
    return out;
  }
  const Count own = std::min(in.held, sends);
  double carry = -std::numeric_limits<double>::infinity();  // d(m-1) + c
  if (own > 0) {
    out.push_back({0, own, 0.0, c});
    carry = static_cast<double>(own) * c;
  }
  Count m = own;
  for (const DepartureRun& up : in.upstream) {
    if (m >= sends) break;
    const Count cnt = std::min(up.count, sends - m);
    const double s = up.start + in.c_up;  // arrival of the run's first item
    const double p = up.period;
    if (p <= c) {  // arrivals no slower than sending: back to back from the first of them
      const double d0 = std::max(carry, s);
      append(out, {m, cnt, d0, c});
      carry = d0 + static_cast<double>(cnt) * c;
    } else if (carry <= s) {  // caught up: at the arrivals' pace
      append(out, {m, cnt, s, p});
      carry = s + static_cast<double>(cnt - 1) * p + c;
    } else {  // back to back until the arrivals overtake, then at their pace
      auto behind = [&](Count k) { return s + static_cast<double>(k) * p < carry + static_cast<double>(k) * c; };
      const Count k = first_not_behind(behind, (carry - s) / (p - c), cnt);
      append(out, {m, k, carry, c});
      if (k < cnt) {
        append(out, {m + k, cnt - k, s + static_cast<double>(k) * p, p});
        carry = s + static_cast<double>(cnt - 1) * p + c;
      } else {
        carry += static_cast<double>(k) * c;
      }
    }
    m += cnt;
  }
  return out;
}

}  // namespace ringsim::redistribution
