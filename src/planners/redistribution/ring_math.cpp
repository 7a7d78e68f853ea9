#include "planners/redistribution/ring_math.hpp"

#include <algorithm>

namespace ringsim::redistribution {

std::vector<Count> imbalances(const RingInstance& inst) {
  std::vector<Count> d(inst.size());
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = inst.imbalance(i);
  return d;
}

std::vector<Count> prefix_imbalances(const std::vector<Count>& delta) {
  std::vector<Count> F(delta.size());
  Count s = 0;
  for (std::size_t i = 0; i < delta.size(); ++i) F[i] = s += delta[i];
  return F;
}

EdgeFlows flows_for_circulation(const std::vector<Count>& F, Count x) {
  const std::size_t n = F.size();
  EdgeFlows f{std::vector<Count>(n, 0), std::vector<Count>(n, 0)};
  for (std::size_t i = 0; i < n; ++i) {
    const Count g = F[i] + x;
    if (g > 0) f.send_next[i] = g;
    if (g < 0) f.send_prev[i + 1 == n ? 0 : i + 1] = -g;
  }
  return f;
}

Count max_slice_imbalance(const std::vector<Count>& F) {
  if (F.empty()) return 0;
  const auto [lo, hi] = std::minmax_element(F.begin(), F.end());
  return *hi - *lo;
}

Count lemma3_steps(const std::vector<Count>& delta, const std::vector<Count>& F) {
  Count single = 0;
  for (Count d : delta) single = std::max(single, d < 0 ? -d : d);
  return std::max(single, (max_slice_imbalance(F) + 1) / 2);
}

}  // namespace ringsim::redistribution
