#include "planners/redistribution/system2_circulation.hpp"

#include <algorithm>
#include <limits>

namespace ringsim::redistribution {

double system2_time(const RingInstance& inst, const std::vector<Count>& F, Count x) {
  const std::size_t n = inst.size();
  double tau = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t p = inst.prev(i), s = inst.next(i);
    const Count right = F[i] + x;  // net flow on edge (P_i, P_(i+1))
    const Count left = F[p] + x;   // net flow on edge (P_(i-1), P_i)
    const double send = (right > 0 ? static_cast<double>(right) * inst.cost_next[i] : 0.0) +
                        (left < 0 ? static_cast<double>(-left) * inst.cost_prev[i] : 0.0);
    const double recv = (left > 0 ? static_cast<double>(left) * inst.cost_next[p] : 0.0) +
                        (right < 0 ? static_cast<double>(-right) * inst.cost_prev[s] : 0.0);
    tau = std::max({tau, send, recv});
  }
  return tau;
}

Count items_sent(const std::vector<Count>& delta, const std::vector<Count>& F, std::size_t i, Count x) {
  const std::size_t p = i == 0 ? F.size() - 1 : i - 1;
  return std::max({Count{0}, delta[i], F[i] + x, -(F[p] + x)});
}

namespace {

// First x in [lo, hi] where pred(x) holds, for a monotone predicate (hi if none before it).
template <class Pred>
Count first_true(Count lo, Count hi, Pred pred) {
  while (lo < hi) {
    const Count mid = lo + (hi - lo) / 2;
    if (pred(mid)) hi = mid; else lo = mid + 1;
  }
  return lo;
}

}  // namespace

CirculationOptimum optimal_integer_circulation(const RingInstance& inst) {
  const auto delta = imbalances(inst);
  const auto F = prefix_imbalances(delta);
  const auto [mn, mx] = std::minmax_element(F.begin(), F.end());
  // Outside [-max F, -min F] every flow has the same sign and moving x outwards only adds items.
  const Count lo = -*mx, hi = -*mn;
  auto tau = [&](Count x) { return system2_time(inst, F, x); };

  CirculationOptimum best;
  // Convexity: the forward difference tau(x+1) - tau(x) is non-decreasing in x.
  best.x_min = first_true(lo, hi, [&](Count x) { return tau(x + 1) >= tau(x); });
  best.tau = tau(best.x_min);
  best.x_max = first_true(best.x_min, hi, [&](Count x) { return tau(x + 1) > tau(x); });

  // Light circulations form an interval too: P_i sends at most L_i items iff
  // -F_(i-1) - L_i <= x <= L_i - F_i (items_sent is a max of affine functions of x).
  Count light_lo = std::numeric_limits<Count>::min(), light_hi = std::numeric_limits<Count>::max();
  for (std::size_t i = 0; i < F.size(); ++i) {
    const Count fp = F[i == 0 ? F.size() - 1 : i - 1];
    light_lo = std::max(light_lo, -fp - inst.loads[i]);
    light_hi = std::min(light_hi, inst.loads[i] - F[i]);
  }
  const Count a = std::max(best.x_min, light_lo), b = std::min(best.x_max, light_hi);
  best.light = a <= b;
  best.x = best.light ? a : best.x_min;
  return best;
}

}  // namespace ringsim::redistribution
