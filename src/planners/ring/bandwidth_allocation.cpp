#include "planners/ring/bandwidth_allocation.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "planners/ring/ring_network.hpp"

namespace ringsim::ring {
namespace {

int popcount(std::uint64_t m) {
  int c = 0;
  for (; m; m &= m - 1) ++c;
  return c;
}

// One set per mask (the smallest capacity), ordered by size then mask: children before parents.
std::vector<SharedSet> normalize(std::vector<SharedSet> sets) {
  std::map<std::uint64_t, double> best;
  for (const auto& s : sets) {
    if (s.mask == 0) continue;
    auto it = best.find(s.mask);
    if (it == best.end())
      best.emplace(s.mask, s.capacity);
    else
      it->second = std::min(it->second, s.capacity);
  }
  std::vector<SharedSet> out;
  for (const auto& [m, c] : best) out.push_back({m, c});
  std::stable_sort(out.begin(), out.end(),
                   [](const SharedSet& x, const SharedSet& y) { return popcount(x.mask) < popcount(y.mask); });
  return out;
}

bool laminar_normalized(const std::vector<SharedSet>& sets) {
  for (std::size_t x = 0; x < sets.size(); ++x)
    for (std::size_t y = x + 1; y < sets.size(); ++y) {
      const auto both = sets[x].mask & sets[y].mask;
      if (both != 0 && both != sets[x].mask && both != sets[y].mask) return false;
    }
  return true;
}

// Exact bottom-up water filling on a laminar family (see the header).
std::vector<double> laminar_allocation(const std::vector<double>& weight, const std::vector<double>& cap,
                                       const std::vector<SharedSet>& sets) {
  const std::size_t n = weight.size();
  std::vector<double> root(n), limit(n, kInfinity);
  for (std::size_t p = 0; p < n; ++p) root[p] = std::sqrt(weight[p]);
  std::vector<std::pair<double, double>> terms;  // (t_p, r_p): the term r_p * min(s, t_p)
  for (const auto& set : sets) {
    terms.clear();
    for (std::size_t p = 0; p < n; ++p)
      if (set.mask >> p & 1) terms.emplace_back(std::min(limit[p], cap[p] / root[p]), root[p]);
    if (!(set.capacity > 0)) {
      for (std::size_t p = 0; p < n; ++p)
        if (set.mask >> p & 1) limit[p] = 0.0;
      continue;
    }
    std::sort(terms.begin(), terms.end());
    // h(s) = sum r_p min(s, t_p): find s with h(s) = capacity, or +inf when h(inf) <= capacity.
    // Between consecutive t's, h is linear: acc (the terms already flat) + s * (the others' r).
    std::vector<double> suffix(terms.size() + 1, 0.0);
    for (std::size_t m = terms.size(); m-- > 0;) suffix[m] = suffix[m + 1] + terms[m].second;
    double acc = 0.0, level = kInfinity;
    for (std::size_t m = 0; m < terms.size(); ++m) {
      const double s = (set.capacity - acc) / suffix[m];
      if (s <= terms[m].first) {
        level = s;
        break;
      }
      acc += terms[m].second * terms[m].first;
    }
    for (std::size_t p = 0; p < n; ++p)
      if (set.mask >> p & 1) limit[p] = std::min(limit[p], level);
  }
  std::vector<double> f(n);
  for (std::size_t p = 0; p < n; ++p) f[p] = std::min(cap[p], root[p] * limit[p]);
  return f;
}

// Dual coordinate ascent for families that are not laminar (caps included as singleton sets).
// Coordinate ascent stops after this many sweeps when it has not met its 1e-13 tolerance. 300 gives
// the same answers as 20000 on every platform of the tests and figures (the non-laminar families of
// graph zones converge in far fewer) and keeps the heavily overlapping fixed routes of a dragonfly
// from taking seconds per candidate; the projection below keeps every answer feasible.
constexpr int kDualSweeps = 300;

std::vector<double> dual_allocation(const std::vector<double>& weight, const std::vector<double>& cap,
                                    std::vector<SharedSet> sets) {
  const std::size_t n = weight.size();
  for (std::size_t p = 0; p < n; ++p)
    if (std::isfinite(cap[p])) sets.push_back({std::uint64_t{1} << p, cap[p]});
  sets = normalize(std::move(sets));
  std::vector<double> root(n);
  for (std::size_t p = 0; p < n; ++p) root[p] = std::sqrt(weight[p]);
  std::vector<bool> covered(n, false);
  std::vector<double> mu(sets.size()), price(n, 0.0);
  for (std::size_t s = 0; s < sets.size(); ++s) {
    double sum = 0.0;
    for (std::size_t p = 0; p < n; ++p)
      if (sets[s].mask >> p & 1) {
        sum += root[p];
        covered[p] = true;
      }
    const double c = std::max(sets[s].capacity, 1e-300);
    mu[s] = (sum / c) * (sum / c);
    for (std::size_t p = 0; p < n; ++p)
      if (sets[s].mask >> p & 1) price[p] += mu[s];
  }
  // The paths of each set, listed once: the bisections below read them some 50 times per sweep.
  std::vector<std::size_t> member_start(sets.size() + 1, 0), members;
  for (std::size_t s = 0; s < sets.size(); ++s) {
    for (std::size_t p = 0; p < n; ++p)
      if (sets[s].mask >> p & 1) members.push_back(p);
    member_start[s + 1] = members.size();
  }
  std::vector<double> base(n);
  for (int sweep = 0; sweep < kDualSweeps; ++sweep) {
    double change = 0.0;
    for (std::size_t s = 0; s < sets.size(); ++s) {
      const auto mask = sets[s].mask;
      const double c = std::max(sets[s].capacity, 1e-300);
      const std::size_t* first = members.data() + member_start[s];
      const std::size_t* last = members.data() + member_start[s + 1];
      for (const std::size_t* q = first; q != last; ++q) base[*q] = price[*q] - mu[s];
      // Whether the set's usage at multiplier m, sum over its paths of r_p / sqrt(price_p - mu_s + m)
      // in path order, exceeds c. The terms are >= 0, so the partial sums only grow (in floating
      // point too): stopping at the first one above c gives the answer the whole sum gives.
      auto exceeds = [&](double m) {
        double u = 0.0;
        for (const std::size_t* q = first; q != last; ++q) {
          const double pr = base[*q] + m;
          u += pr > 0 ? root[*q] / std::sqrt(pr) : kInfinity;
          if (u > c) return true;
        }
        return false;
      };
      double next = 0.0;
      if (exceeds(0.0)) {
        double sum = 0.0;
        for (std::size_t p = 0; p < n; ++p)
          if (mask >> p & 1) sum += root[p];
        double lo = 0.0, hi = (sum / c) * (sum / c);
        for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; ++it) {
          const double mid = 0.5 * (lo + hi);
          (exceeds(mid) ? lo : hi) = mid;
        }
        next = hi;
      }
      change = std::max(change, std::abs(next - mu[s]) / std::max(next, 1e-300));
      for (std::size_t p = 0; p < n; ++p)
        if (mask >> p & 1) price[p] += next - mu[s];
      mu[s] = next;
    }
    if (change < 1e-13) break;
  }
  std::vector<double> f(n, kInfinity);
  for (std::size_t p = 0; p < n; ++p)
    if (covered[p]) f[p] = price[p] > 0 ? std::min(cap[p], root[p] / std::sqrt(price[p])) : cap[p];
  // Onto the feasible set: each path shrinks by the worst overload among its sets.
  std::vector<double> factor(n, 1.0);
  for (const auto& set : sets) {
    double u = 0.0;
    for (std::size_t p = 0; p < n; ++p)
      if (set.mask >> p & 1) u += f[p];
    if (u > set.capacity)
      for (std::size_t p = 0; p < n; ++p)
        if (set.mask >> p & 1) factor[p] = std::min(factor[p], set.capacity / u);
  }
  for (std::size_t p = 0; p < n; ++p) f[p] *= factor[p];
  return f;
}

// The masks of the sets (set_cap[m] finite), in increasing order. A subset's mask is below its
// superset's, so in a laminar family every set comes after the sets inside it, as the water
// filling needs (sets that do not nest are disjoint: their order does not matter).
int set_masks(int n, const double* set_cap, int* masks) {
  if (n < 1 || n > 4) throw std::logic_error("min_weighted_cost_allocation_small: 1 to 4 paths");
  int count = 0;
  for (int m = 1; m < (1 << n); ++m)
    if (set_cap[m] < kInfinity) masks[count++] = m;
  return count;
}

}  // namespace

void min_weighted_cost_allocation_small(int n, const double* weight, const double* cap, const double* set_cap,
                                        double* f, const double* root) {
  if (laminar_allocation_small(n, weight, cap, set_cap, f, root)) return;
  int masks[16];
  const int count = set_masks(n, set_cap, masks);
  // The iterative solve gets the sets by size (the order it has always had).
  std::stable_sort(masks, masks + count, [](int x, int y) {
    return popcount(static_cast<std::uint64_t>(x)) < popcount(static_cast<std::uint64_t>(y));
  });
  std::vector<SharedSet> sets;
  for (int x = 0; x < count; ++x) sets.push_back({static_cast<std::uint64_t>(masks[x]), set_cap[masks[x]]});
  const auto g = dual_allocation(std::vector<double>(weight, weight + n), std::vector<double>(cap, cap + n), sets);
  std::copy(g.begin(), g.end(), f);
}

bool laminar_allocation_small(int n, const double* weight, const double* cap, const double* set_cap, double* f,
                              const double* given_root) {
  int masks[16];
  const int count = set_masks(n, set_cap, masks);
  for (int x = 0; x < count; ++x)
    for (int y = x + 1; y < count; ++y) {
      const int both = masks[x] & masks[y];
      if (both != 0 && both != masks[x] && both != masks[y]) return false;
    }
  double root[4], limit[4] = {kInfinity, kInfinity, kInfinity, kInfinity};
  for (int p = 0; p < n; ++p) root[p] = given_root != nullptr ? given_root[p] : std::sqrt(weight[p]);
  for (int x = 0; x < count; ++x) {
    const int mask = masks[x];
    const double capacity = set_cap[mask];
    std::pair<double, double> terms[4];
    int nt = 0;
    for (int p = 0; p < n; ++p)
      if (mask >> p & 1) terms[nt++] = {std::min(limit[p], cap[p] / root[p]), root[p]};
    double level = 0.0;
    if (capacity > 0) {
      for (int a = 1; a < nt; ++a)  // insertion sort of at most 4 terms
        for (int b = a; b > 0 && terms[b] < terms[b - 1]; --b) std::swap(terms[b], terms[b - 1]);
      double suffix[5];
      suffix[nt] = 0.0;
      for (int m = nt; m-- > 0;) suffix[m] = suffix[m + 1] + terms[m].second;
      double acc = 0.0;
      level = kInfinity;
      for (int m = 0; m < nt; ++m) {
        const double s = (capacity - acc) / suffix[m];
        if (s <= terms[m].first) {
          level = s;
          break;
        }
        acc += terms[m].second * terms[m].first;
      }
    }
    for (int p = 0; p < n; ++p)
      if (mask >> p & 1) limit[p] = std::min(limit[p], level);
  }
  for (int p = 0; p < n; ++p) f[p] = std::min(cap[p], root[p] * limit[p]);
  return true;
}

bool laminar(const std::vector<SharedSet>& sets) { return laminar_normalized(normalize(sets)); }

std::vector<double> min_weighted_cost_allocation_dual(const std::vector<double>& weight, const std::vector<double>& cap,
                                                      std::vector<SharedSet> sets) {
  return dual_allocation(weight, cap, std::move(sets));
}

std::vector<double> min_weighted_cost_allocation(const std::vector<double>& weight, const std::vector<double>& cap,
                                                 std::vector<SharedSet> sets) {
  if (weight.size() != cap.size() || weight.size() > 64)
    throw std::logic_error("min_weighted_cost_allocation: bad sizes");
  for (double w : weight)
    if (!(w > 0)) throw std::logic_error("min_weighted_cost_allocation: weights must be > 0");
  sets = normalize(std::move(sets));
  if (laminar_normalized(sets)) return laminar_allocation(weight, cap, sets);
  return dual_allocation(weight, cap, std::move(sets));
}

std::vector<double> maxmin_allocation(const RingNetwork& net, const std::vector<std::vector<std::size_t>>& paths,
                                      const std::vector<double>& capacity) {
  const std::size_t n = paths.size();
  std::vector<double> rate(n, 0.0), fat_cap(n, kInfinity);
  std::vector<bool> frozen(n, false);
  std::map<std::size_t, std::vector<std::size_t>> on_link;  // SHARED link -> paths (deterministic order)
  for (std::size_t p = 0; p < n; ++p)
    for (auto l : paths[p]) {
      if (net.fatpipe(l))
        fat_cap[p] = std::min(fat_cap[p], capacity[l]);
      else
        on_link[l].push_back(p);
    }
  struct LinkState {
    std::size_t link;
    std::vector<std::size_t> users;
    bool saturated;
  };
  std::vector<LinkState> links;
  for (auto& [l, users] : on_link) links.push_back({l, users, false});
  std::size_t active = n;
  while (active > 0) {
    double delta = kInfinity;
    for (const auto& ls : links) {
      if (ls.saturated) continue;
      double used = 0.0;
      std::size_t growing = 0;
      for (auto p : ls.users) {
        used += rate[p];
        if (!frozen[p]) ++growing;
      }
      if (growing > 0) delta = std::min(delta, std::max(0.0, capacity[ls.link] - used) / static_cast<double>(growing));
    }
    for (std::size_t p = 0; p < n; ++p)
      if (!frozen[p]) delta = std::min(delta, fat_cap[p] - rate[p]);
    if (!std::isfinite(delta)) throw std::logic_error("maxmin_allocation: a path crosses no link");
    for (std::size_t p = 0; p < n; ++p)
      if (!frozen[p]) rate[p] += delta;
    std::size_t before = active;
    for (auto& ls : links) {
      if (ls.saturated) continue;
      double used = 0.0;
      bool growing = false;
      for (auto p : ls.users) {
        used += rate[p];
        growing = growing || !frozen[p];
      }
      if (growing && used >= capacity[ls.link] * (1 - 1e-12)) {
        ls.saturated = true;
        for (auto p : ls.users)
          if (!frozen[p]) {
            frozen[p] = true;
            --active;
          }
      }
    }
    for (std::size_t p = 0; p < n; ++p)
      if (!frozen[p] && rate[p] >= fat_cap[p] * (1 - 1e-12)) {
        frozen[p] = true;
        --active;
      }
    if (active == before) throw std::logic_error("maxmin_allocation: no progress");
  }
  // Rounding may leave a link a few ulps over: scale those paths down.
  std::vector<double> factor(n, 1.0);
  for (const auto& ls : links) {
    double used = 0.0;
    for (auto p : ls.users) used += rate[p];
    if (used > capacity[ls.link])
      for (auto p : ls.users) factor[p] = std::min(factor[p], capacity[ls.link] / used);
  }
  for (std::size_t p = 0; p < n; ++p) rate[p] = std::min(rate[p] * factor[p], fat_cap[p]);
  return rate;
}

}  // namespace ringsim::ring
