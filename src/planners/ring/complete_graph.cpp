#include "planners/ring/complete_graph.hpp"

#include <algorithm>
#include <cmath>

#include "planners/ring/fractions.hpp"
#include "planners/ring/tstep.hpp"

namespace ringsim::ring {

CompleteGraph::CompleteGraph(const RingNetwork& net, const Workload& load)
    : p_(net.host_count()), load_(load), c_(p_ * p_, 0.0), speed_(p_) {
  for (std::size_t i = 0; i < p_; ++i) {
    speed_[i] = net.speed(i);
    for (std::size_t j = 0; j < p_; ++j)
      if (i != j) c_[i * p_ + j] = 1.0 / net.full_bandwidth(i, j);
  }
}

double CompleteGraph::tstep(const std::vector<std::size_t>& ring) const {
  const std::size_t q = ring.size();
  if (q == 1) return load_.work / speed_[ring[0]];
  compute_.resize(q);
  comm_.resize(q);
  for (std::size_t m = 0; m < q; ++m) {
    const std::size_t h = ring[m];
    compute_[m] = load_.work / speed_[h];
    comm_[m] = load_.comm * (cost(h, ring[(m + 1) % q]) + cost(h, ring[(m + q - 1) % q]));
  }
  return exact_tstep(compute_, comm_);
}

double tour_weight(const CompleteGraph& g, const std::vector<std::size_t>& tour) {
  double w = 0.0;
  for (std::size_t m = 0; m < tour.size(); ++m) w += g.tsp_weight(tour[m], tour[(m + 1) % tour.size()]);
  return w;
}

namespace {

std::vector<std::size_t> nearest_neighbour_tour(const CompleteGraph& g, std::size_t start) {
  const std::size_t p = g.size();
  std::vector<bool> used(p, false);
  std::vector<std::size_t> tour{start};
  used[start] = true;
  while (tour.size() < p) {
    const std::size_t last = tour.back();
    std::size_t next = p;
    for (std::size_t h = 0; h < p; ++h)
      if (!used[h] && (next == p || g.tsp_weight(last, h) < g.tsp_weight(last, next))) next = h;
    used[next] = true;
    tour.push_back(next);
  }
  return tour;
}

// Relative improvement threshold: moves must gain more than rounding noise.
constexpr double kEps = 1e-12;

bool two_opt(const CompleteGraph& g, std::vector<std::size_t>& t) {
  const std::size_t n = t.size();
  bool improved = false;
  for (std::size_t a = 0; a + 2 < n; ++a)
    for (std::size_t b = a + 2; b < n; ++b) {
      if (a == 0 && b == n - 1) continue;
      const std::size_t a1 = t[a], a2 = t[a + 1], b1 = t[b], b2 = t[(b + 1) % n];
      const double before = g.tsp_weight(a1, a2) + g.tsp_weight(b1, b2);
      const double after = g.tsp_weight(a1, b1) + g.tsp_weight(a2, b2);
      if (after < before - kEps * before) {
        std::reverse(t.begin() + static_cast<std::ptrdiff_t>(a + 1), t.begin() + static_cast<std::ptrdiff_t>(b + 1));
        improved = true;
      }
    }
  return improved;
}

bool or_opt(const CompleteGraph& g, std::vector<std::size_t>& t) {
  const std::size_t n = t.size();
  for (std::size_t len = 1; len <= 3 && len + 2 <= n; ++len)
    for (std::size_t s = 0; s < n; ++s) {
      // Segment t[s..s+len-1] (cyclic), between prev and next.
      std::vector<std::size_t> seg(len);
      for (std::size_t x = 0; x < len; ++x) seg[x] = t[(s + x) % n];
      const std::size_t prev = t[(s + n - 1) % n], next = t[(s + len) % n];
      const double removed = g.tsp_weight(prev, seg.front()) + g.tsp_weight(seg.back(), next) - g.tsp_weight(prev, next);
      // The rest of the tour in order, starting after the segment.
      std::vector<std::size_t> rest;
      for (std::size_t x = 0; x < n - len; ++x) rest.push_back(t[(s + len + x) % n]);
      for (std::size_t e = 0; e + 1 < rest.size() + 1; ++e) {
        const std::size_t u = rest[e], v = rest[(e + 1) % rest.size()];
        if (u == prev && v == next) continue;  // its own place
        const double fwd = g.tsp_weight(u, seg.front()) + g.tsp_weight(seg.back(), v) - g.tsp_weight(u, v);
        const double bwd = g.tsp_weight(u, seg.back()) + g.tsp_weight(seg.front(), v) - g.tsp_weight(u, v);
        const double gain_f = removed - fwd, gain_b = removed - bwd;
        const double scale = std::max(removed, 1e-300);
        if (gain_f > kEps * scale || gain_b > kEps * scale) {
          std::vector<std::size_t> out;
          for (std::size_t x = 0; x <= e; ++x) out.push_back(rest[x]);
          if (gain_f >= gain_b)
            out.insert(out.end(), seg.begin(), seg.end());
          else
            out.insert(out.end(), seg.rbegin(), seg.rend());
          for (std::size_t x = e + 1; x < rest.size(); ++x) out.push_back(rest[x]);
          t = std::move(out);
          return true;
        }
      }
    }
  return false;
}

}  // namespace

std::vector<std::size_t> local_search_tour(const CompleteGraph& g) {
  const std::size_t p = g.size();
  std::vector<std::size_t> best;
  double best_w = kInfinity;
  const std::size_t starts = std::min<std::size_t>(p, p <= 200 ? p : 10);
  for (std::size_t s = 0; s < starts; ++s) {
    auto t = nearest_neighbour_tour(g, s * p / starts);
    if (p >= 4) {
      bool again = true;
      for (int round = 0; again && round < 10000; ++round) {
        again = two_opt(g, t);
        again = or_opt(g, t) || again;
      }
    }
    const double w = tour_weight(g, t);
    if (w < best_w * (1 - kEps)) {
      best_w = w;
      best = t;
    }
  }
  // Canonical rotation: start at the smallest host id.
  std::rotate(best.begin(), std::min_element(best.begin(), best.end()), best.end());
  return best;
}

void finish_with_sharing(const RingNetwork& net, const Workload& load, const RingOptions& opt, RingPlan& plan) {
  set_pair_paths(net, plan);
  if (plan.ring.size() >= 2) {
    const auto rep = allocate_optimal(net, load, plan, opt.global_gap);
    plan.fraction_gap = rep.gap;
    if (rep.solver_trouble)
      plan.note += std::string(plan.note.empty() ? "" : "; ") +
                   "GLPK failed numerically in the global fraction solve: its best allocation so far was kept";
    plan.fractions = "global optimum for the chosen paths (barrier method)";
  } else {
    plan.fractions = "none (a single host does not communicate)";
  }
  evaluate_plan(net, load, plan);
}

}  // namespace ringsim::ring
