// The slides' first heuristic (H1, "building the ring without taking link sharing into account"):
// "we build the complete graph whose edges are labeled with the bandwidths of the best
// communication paths; we apply the heuristic for complete graphs; we allocate the bandwidths".
// Objective optimized: T_step with the complete-graph costs -- the complete-graph greedy (best
// pair, then repeated cheapest insertion by exact T_step, ties by lowest host id then position),
// the best size by that objective. Then the chosen ring is laid on the network and evaluated with
// sharing (finish_with_sharing). The slides' H2, which accounts for sharing, is `greedy` (or
// `greedy-global`, the variant "with quadratic programming").
#include <algorithm>
#include <cmath>

#include "planners/ring/complete_graph.hpp"

namespace ringsim::ring {

RingPlan plan_ignore_sharing(const RingNetwork& net, const Workload& load, const RingOptions& opt) {
  const CompleteGraph g(net, load);
  const std::size_t p = g.size();
  RingPlan plan;
  plan.method = "ignore-sharing";
  plan.objective_by_size.assign(p, NAN);
  std::size_t fastest = 0;
  for (std::size_t h = 1; h < p; ++h)
    if (g.speed(h) > g.speed(fastest)) fastest = h;
  std::vector<std::size_t> best{fastest};
  double best_t = g.tstep(best);
  plan.objective_by_size[0] = best_t;
  if (p >= 2) {
    std::vector<std::size_t> ring;
    double pair_t = kInfinity;
    for (std::size_t a = 0; a < p; ++a)
      for (std::size_t b = a + 1; b < p; ++b) {
        const double t = g.tstep({a, b});
        if (t < pair_t) {
          pair_t = t;
          ring = {a, b};
        }
      }
    std::vector<bool> in(p, false);
    in[ring[0]] = in[ring[1]] = true;
    plan.objective_by_size[1] = pair_t;
    if (pair_t < best_t) {
      best_t = pair_t;
      best = ring;
    }
    std::vector<std::size_t> trial;
    const double W = load.work, H = load.comm;
    auto member_c = [&](std::size_t pos) {
      const std::size_t r = ring.size();
      return g.cost(ring[pos], ring[(pos + 1) % r]) + g.cost(ring[pos], ring[(pos + r - 1) % r]);
    };
    while (ring.size() < p) {
      const std::size_t r = ring.size();
      // Equation 4 in O(1) per candidate; the exact T when a share would be negative.
      double csum = 0.0, ssum = 0.0;
      std::vector<std::pair<double, std::size_t>> top;  // the three largest C, by position
      for (std::size_t pos = 0; pos < r; ++pos) {
        const double c = member_c(pos);
        csum += g.speed(ring[pos]) * c;
        ssum += g.speed(ring[pos]);
        top.emplace_back(c, pos);
      }
      std::partial_sort(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(3, r)), top.end(),
                        [](const auto& x, const auto& y) { return x.first > y.first; });
      top.resize(std::min<std::size_t>(3, r));
      double step_t = kInfinity;
      std::size_t bk = p, bpos = 0;
      for (std::size_t k = 0; k < p; ++k) {
        if (in[k]) continue;
        for (std::size_t pos = 0; pos < r; ++pos) {
          const std::size_t pj = (pos + 1) % r, i = ring[pos], j = ring[pj];
          const double ci = member_c(pos) - g.cost(i, j) + g.cost(i, k);
          const double cj = member_c(pj) - g.cost(j, i) + g.cost(j, k);
          const double ck = g.cost(k, i) + g.cost(k, j);
          const double sum = csum - g.speed(i) * member_c(pos) - g.speed(j) * member_c(pj) + g.speed(i) * ci +
                             g.speed(j) * cj + g.speed(k) * ck;
          double t = (W + H * sum) / (ssum + g.speed(k));
          double cmax = std::max({ci, cj, ck});
          for (const auto& tp : top)
            if (tp.second != pos && tp.second != pj) {
              cmax = std::max(cmax, tp.first);
              break;
            }
          if (H * cmax > t) {
            trial = ring;
            trial.insert(trial.begin() + static_cast<std::ptrdiff_t>(pos + 1), k);
            t = g.tstep(trial);
          }
          if (t < step_t) {
            step_t = t;
            bk = k;
            bpos = pos;
          }
        }
      }
      ring.insert(ring.begin() + static_cast<std::ptrdiff_t>(bpos + 1), bk);
      in[bk] = true;
      plan.objective_by_size[ring.size() - 1] = step_t;
      if (step_t < best_t) {
        best_t = step_t;
        best = ring;
      }
    }
  }
  plan.ring = best;
  plan.objective_name = "tstep_ignoring_sharing";
  plan.objective = best_t;
  finish_with_sharing(net, load, opt, plan);
  return plan;
}

}  // namespace ringsim::ring
