#include "oracles/kpbs_bruteforce.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace ringsim::oracles {

std::optional<double> kpbs_brute_force(const KpbsInstance& inst, int grid, std::size_t max_states) {
  struct Edge {
    std::size_t from, to;
    int amount;
  };
  std::vector<Edge> edges;
  auto on_grid = [grid](double x) {
    const double g = x * grid;
    if (std::abs(g - std::round(g)) > 1e-9) throw std::invalid_argument("brute force: value not on the grid");
    return static_cast<long>(std::lround(g));
  };
  for (std::size_t i = 0; i < inst.times.size(); ++i)
    for (std::size_t j = 0; j < inst.times[i].size(); ++j)
      if (inst.times[i][j] > 0) {
        const long a = on_grid(inst.times[i][j]);
        if (a > 15) throw std::invalid_argument("brute force: entry too large");
        edges.push_back({i, j, static_cast<int>(a)});
      }
  if (edges.size() > 16) throw std::invalid_argument("brute force: too many entries");
  const long beta = on_grid(inst.beta);
  const std::size_t m = edges.size();
  if (m == 0) return 0.0;

  // Mixed radix: state = sum of left_e * stride_e; every step lowers some left_e, hence the index.
  std::vector<std::size_t> stride(m);
  std::size_t states = 1;
  for (std::size_t e = 0; e < m; ++e) {
    stride[e] = states;
    states *= static_cast<std::size_t>(edges[e].amount + 1);
    if (states > max_states) return std::nullopt;
  }

  // Every matching of at most k edges, with the mask of the edges it blocks (its own and those
  // sharing a node with it).
  struct Matching {
    std::uint32_t mask, blocked;
    std::size_t size;
  };
  std::vector<Matching> matchings;
  for (std::uint32_t mask = 1; mask < (1u << m); ++mask) {
    std::uint32_t blocked = 0;
    bool ok = true;
    std::size_t size = 0;
    for (std::size_t e = 0; e < m && ok; ++e) {
      if (!(mask >> e & 1u)) continue;
      ++size;
      for (std::size_t f = 0; f < m; ++f)
        if (edges[f].from == edges[e].from || edges[f].to == edges[e].to) {
          if (f != e && (mask >> f & 1u)) ok = false;
          blocked |= 1u << f;
        }
    }
    if (ok && size <= inst.k) matchings.push_back({mask, blocked, size});
  }

  const long inf = std::numeric_limits<long>::max();
  std::vector<long> best(states, inf);
  best[0] = 0;
  std::vector<int> left(m);
  for (std::size_t s = 1; s < states; ++s) {
    std::uint32_t pending = 0;
    for (std::size_t e = 0, rest = s; e < m; ++e) {
      left[e] = static_cast<int>(rest % static_cast<std::size_t>(edges[e].amount + 1));
      rest /= static_cast<std::size_t>(edges[e].amount + 1);
      if (left[e] > 0) pending |= 1u << e;
    }
    long value = inf;
    for (const auto& M : matchings) {
      if ((M.mask & ~pending) != 0) continue;
      if (M.size < inst.k && (pending & ~M.blocked) != 0) continue;  // not maximal
      int largest = 0;
      for (std::size_t e = 0; e < m; ++e)
        if (M.mask >> e & 1u) largest = std::max(largest, left[e]);
      for (int a = 1; a <= largest; ++a) {
        std::size_t next = s;
        for (std::size_t e = 0; e < m; ++e)
          if (M.mask >> e & 1u) next -= static_cast<std::size_t>(std::min(left[e], a)) * stride[e];
        value = std::min(value, beta + a + best[next]);
      }
    }
    best[s] = value;
  }
  return static_cast<double>(best[states - 1]) / grid;
}

}  // namespace ringsim::oracles
