#include "planners/kpbs/lower_bound.hpp"

#include <algorithm>

namespace ringsim::kpbs {

KpbsLowerBound kpbs_lower_bound(const KpbsInstance& inst) {
  KpbsLowerBound b;
  const std::size_t n1 = inst.senders(), n2 = inst.receivers();
  std::vector<double> col_total(n2, 0.0);
  std::vector<std::size_t> col_degree(n2, 0);
  for (std::size_t i = 0; i < n1; ++i) {
    double row_total = 0.0;
    std::size_t row_degree = 0;
    for (std::size_t j = 0; j < n2; ++j) {
      const double t = inst.times[i][j];
      if (t <= 0) continue;
      row_total += t;
      ++row_degree;
      col_total[j] += t;
      ++col_degree[j];
      b.P += t;
      ++b.m;
    }
    b.W = std::max(b.W, row_total);
    b.Delta = std::max(b.Delta, row_degree);
  }
  for (std::size_t j = 0; j < n2; ++j) {
    b.W = std::max(b.W, col_total[j]);
    b.Delta = std::max(b.Delta, col_degree[j]);
  }
  const std::size_t k = std::max<std::size_t>(inst.k, 1);
  b.eta_d = std::max(b.W, b.P / static_cast<double>(k));
  b.eta_e = std::max(b.Delta, b.m == 0 ? 0 : (b.m - 1) / k + 1);  // ceil(m / k) without overflow
  b.eta = b.eta_d + inst.beta * static_cast<double>(b.eta_e);
  return b;
}

}  // namespace ringsim::kpbs
