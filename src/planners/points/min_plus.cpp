// The late rule's best points (min_plus.hpp): a (min, +) product with the index that attains it.
#include "planners/points/min_plus.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace ringsim::points {
namespace {

// W doubles and their comparison mask, as GCC's vector extensions lay them out: each operation is
// one instruction on all W lanes (W = 2: SSE2 on any x86-64; W = 4: AVX2). No function takes or
// returns them by value, so no call depends on how an ABI passes them.
template <std::size_t W>
struct Lanes;
template <>
struct Lanes<2> {
  using Value = double __attribute__((vector_size(16)));
  using Mask = std::int64_t __attribute__((vector_size(16)));
};
template <>
struct Lanes<4> {
  using Value = double __attribute__((vector_size(32)));
  using Mask = std::int64_t __attribute__((vector_size(32)));
};

// S is read 8 columns at a time, copied out so that those columns of every B lie together (one
// cache line per B), and each loads' 8 minima stay in registers while it meets every B. A lane
// keeps the sum only when it is strictly below (a blend on the comparison's bits, exact for any
// double), so each (L, x) sees the B in increasing order as a scalar loop would.
template <bool with_targets, std::size_t W>
[[gnu::always_inline]] inline void product(const std::vector<double>& stay, std::size_t count, std::size_t width,
                                           const double* costs, double no_target, std::vector<double>& points,
                                           std::vector<double>* targets, std::vector<double>& column) {
  using V = typename Lanes<W>::Value;
  using M = typename Lanes<W>::Mask;
  constexpr std::size_t columns = 8, groups = columns / W;
  column.resize(count * columns);
  double out[columns];
  for (std::size_t x0 = 0; x0 < width; x0 += columns) {
    const std::size_t used = std::min(columns, width - x0);
    for (std::size_t b = 0; b < count; ++b)
      for (std::size_t j = 0; j < columns; ++j) column[b * columns + j] = j < used ? stay[b * width + x0 + j] : INFINITY;
    for (std::size_t l = 0; l < count; ++l) {
      V best[groups], to[groups];
      std::fill(out, out + columns, INFINITY);
      std::memcpy(best, out, sizeof out);
      std::fill(out, out + columns, no_target);
      std::memcpy(to, out, sizeof out);
      const double* cost = costs + l * count;
      for (std::size_t b = 0; b < count; ++b) {
        if (b == l) continue;
        const double target = static_cast<double>(b);
        for (std::size_t g = 0; g < groups; ++g) {
          V v;
          std::memcpy(&v, &column[b * columns + g * W], sizeof v);
          v = cost[b] + v;
          const M better = v < best[g];
          best[g] = reinterpret_cast<V>((reinterpret_cast<M>(v) & better) | (reinterpret_cast<M>(best[g]) & ~better));
          if (with_targets)
            to[g] = reinterpret_cast<V>((reinterpret_cast<M>(target + V{}) & better) | (reinterpret_cast<M>(to[g]) & ~better));
        }
      }
      std::memcpy(out, best, sizeof out);
      std::copy(out, out + used, &points[l * width + x0]);
      if (with_targets) {
        std::memcpy(out, to, sizeof out);
        std::copy(out, out + used, &(*targets)[l * width + x0]);
      }
    }
  }
}

template <std::size_t W>
[[gnu::always_inline]] inline void best_points_with(const std::vector<double>& stay, std::size_t count,
                                                    std::size_t width, const double* costs, double no_target,
                                                    std::vector<double>& points, std::vector<double>* targets,
                                                    std::vector<double>& scratch) {
  points.resize(count * width);
  if (targets) targets->resize(count * width);
  if (!costs) {
    std::fill(points.begin(), points.end(), INFINITY);
    if (targets) std::fill(targets->begin(), targets->end(), no_target);
  } else if (targets) {
    product<true, W>(stay, count, width, costs, no_target, points, targets, scratch);
  } else {
    product<false, W>(stay, count, width, costs, no_target, points, targets, scratch);
  }
}

}  // namespace

void best_points_two_lanes(const std::vector<double>& stay, std::size_t count, std::size_t width,
                           const double* costs, double no_target, std::vector<double>& points,
                           std::vector<double>* targets, std::vector<double>& scratch) {
  best_points_with<2>(stay, count, width, costs, no_target, points, targets, scratch);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define RINGSIM_FOUR_LANES 1
namespace {
[[gnu::target("avx2")]] void best_points_four_lanes(const std::vector<double>& stay, std::size_t count,
                                                    std::size_t width, const double* costs, double no_target,
                                                    std::vector<double>& points, std::vector<double>* targets,
                                                    std::vector<double>& scratch) {
  best_points_with<4>(stay, count, width, costs, no_target, points, targets, scratch);
}
}  // namespace
#endif

void best_points(const std::vector<double>& stay, std::size_t count, std::size_t width, const double* costs,
                 double no_target, std::vector<double>& points, std::vector<double>* targets,
                 std::vector<double>& scratch) {
#ifdef RINGSIM_FOUR_LANES
  static const bool four_lanes = __builtin_cpu_supports("avx2");
  if (four_lanes) return best_points_four_lanes(stay, count, width, costs, no_target, points, targets, scratch);
#endif
  best_points_with<2>(stay, count, width, costs, no_target, points, targets, scratch);
}
#undef RINGSIM_FOUR_LANES  // unity builds compile the next file in this translation unit

}  // namespace ringsim::points
