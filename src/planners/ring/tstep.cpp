#include "planners/ring/tstep.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace ringsim::ring {
namespace {

// r solving sum_i max(0, (r - b_i)/a_i) = 1, by sorting the b_i (water filling): with the m
// smallest b_i active, r_m = (1 + sum b_i/a_i) / sum 1/a_i; the first m with r_m <= b_(m+1) is it.
double water_level(const std::vector<double>& a, const std::vector<double>& b, std::vector<std::size_t>& order) {
  const std::size_t q = a.size();
  order.resize(q);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return b[x] < b[y] || (b[x] == b[y] && x < y); });
  double num = 1.0, den = 0.0, r = std::numeric_limits<double>::infinity();
  for (std::size_t m = 0; m < q; ++m) {
    const std::size_t i = order[m];
    if (!std::isfinite(b[i])) break;
    num += b[i] / a[i];
    den += 1.0 / a[i];
    r = num / den;
    if (m + 1 == q || r <= b[order[m + 1]]) break;
  }
  return r;
}

}  // namespace

double exact_tstep(const std::vector<double>& compute, const std::vector<double>& comm) {
  if (compute.empty() || compute.size() != comm.size()) throw std::logic_error("exact_tstep: bad sizes");
  std::vector<std::size_t> order;
  const double r = water_level(compute, comm, order);
  return std::max(r, *std::max_element(comm.begin(), comm.end()));
}

ShareBalance balance_shares(const std::vector<double>& compute, const std::vector<double>& comm) {
  if (compute.empty() || compute.size() != comm.size()) throw std::logic_error("balance_shares: bad sizes");
  const std::size_t q = compute.size();
  ShareBalance out;
  double num = 1.0, den = 0.0;
  for (std::size_t i = 0; i < q; ++i) {
    num += comm[i] / compute[i];
    den += 1.0 / compute[i];
  }
  out.eq4 = num / den;
  std::vector<std::size_t> order;
  const double r = water_level(compute, comm, order);
  out.tstep = std::max(r, *std::max_element(comm.begin(), comm.end()));
  out.alpha.assign(q, 0.0);
  if (!std::isfinite(out.tstep)) return out;
  double sum = 0.0;
  for (std::size_t i = 0; i < q; ++i) {
    out.alpha[i] = std::max(0.0, (r - comm[i]) / compute[i]);
    sum += out.alpha[i];
  }
  for (auto& x : out.alpha) x /= sum;  // exact up to rounding; makes the sum 1 to the last bits
  return out;
}

}  // namespace ringsim::ring
