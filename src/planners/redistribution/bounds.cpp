#include "planners/redistribution/bounds.hpp"

#include <algorithm>

#include "planners/redistribution/ring_math.hpp"
#include "planners/redistribution/system2_circulation.hpp"

namespace ringsim::redistribution {

std::vector<Count> unidirectional_flows(const RingInstance& inst) {
  auto F = prefix_imbalances(imbalances(inst));
  const Count lowest = *std::min_element(F.begin(), F.end());
  for (auto& f : F) f -= lowest;
  return F;
}

double unidirectional_lower_bound(const RingInstance& inst) {
  const auto f = unidirectional_flows(inst);
  double bound = 0.0;
  for (std::size_t i = 0; i < f.size(); ++i)
    bound = std::max(bound, static_cast<double>(f[i]) * inst.cost_next[i]);
  return bound;
}

double lemma3_lower_bound(const RingInstance& inst) {
  const auto delta = imbalances(inst);
  return static_cast<double>(lemma3_steps(delta, prefix_imbalances(delta))) * inst.cost_next.front();
}

namespace {

// min over integer i in [0, d] of max(i * a, (d - i) * b): the slice sends i items through one
// end and d - i through the other; the optimum is next to the real balance point d b / (a + b).
double split_time(Count d, double a, double b) {
  const Count i0 = static_cast<Count>(static_cast<double>(d) * b / (a + b));
  double best = std::max(static_cast<double>(d) * a, static_cast<double>(d) * b);
  for (Count i = std::max<Count>(0, i0 - 1); i <= std::min(d, i0 + 2); ++i)
    best = std::min(best, std::max(static_cast<double>(i) * a, static_cast<double>(d - i) * b));
  return best;
}

}  // namespace

std::optional<double> slides_bidirectional_lower_bound(const RingInstance& inst, std::size_t max_n) {
  const std::size_t n = inst.size();
  if (n > max_n) return std::nullopt;
  const auto delta = imbalances(inst);
  double bound = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t p = inst.prev(k), s = inst.next(k);
    if (delta[k] > 0)
      bound = std::max(bound, static_cast<double>(delta[k]) * std::min(inst.cost_prev[k], inst.cost_next[k]));
    if (delta[k] < 0)
      bound = std::max(bound, static_cast<double>(-delta[k]) * std::min(inst.cost_next[p], inst.cost_prev[s]));
    Count d = delta[k];
    for (std::size_t l = 1; l + 2 <= n; ++l) {  // slice P_k .. P_(k+l)
      const std::size_t last = (k + l) % n, after = (k + l + 1) % n;
      d += delta[last];
      if (d > 0) bound = std::max(bound, split_time(d, inst.cost_prev[k], inst.cost_next[last]));
      if (d < 0) bound = std::max(bound, split_time(-d, inst.cost_next[p], inst.cost_prev[after]));
    }
  }
  return bound;
}

double instance_lower_bound(const RingInstance& inst) {
  if (!inst.bidirectional) return unidirectional_lower_bound(inst);
  double bound = optimal_integer_circulation(inst).tau;
  if (inst.homogeneous()) bound = std::max(bound, lemma3_lower_bound(inst));
  return bound;
}

}  // namespace ringsim::redistribution
