// Lower bounds of a candidate insertion's criterion, which let the insertion step (branch and
// bound, branch_and_bound.cpp) skip candidates without evaluating them.
//
// Why they are lower bounds. A candidate's exact evaluation costs a graph search. Its criterion
// is at least Equation 4 with optimistic costs (Equation 4 is itself a lower bound of the exact
// T_step) and, for the exact criterion, at least every member's communication time; those follow
// from upper bounds on the four new bandwidths:
//  - each path's bandwidth is at most its full-capacity widest bottleneck;
//  - k -> i and i -> k cross the same links, so their sum is at most the best path's smallest
//    SHARED capacity: on the full network (RingNetwork::pair_shared_bandwidth), then, for the most
//    promising candidates, on the residual network (residual_bound.cpp);
//  - the two new paths at i (at j) cross one of i's incident links each, whose residual capacity
//    plus what S_i and P_j give back bounds their sum; the four paths at k share k's incident
//    links (Full zones: the SHARED link common to all routes of a host, RingNetwork::pool_capacity);
//  - graph zones: the SHARED bridges every one of those paths crosses (bridge_bounds.cpp).
// Minimizing Equation 4's terms under those constraints has a closed form (two_path_bound, and
// Cauchy-Schwarz for the pool: sum s/f >= (sum sqrt s)^2 / sum f).
//
// Floors (host_floor) bound a host's candidates at many positions at once: bound() computes the
// same expressions from values at least as large, and rounding to nearest is monotone, so a floor
// is at most each candidate's soft bound, bit for bit (RingOptions::audit_floors checks it).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "planners/ring/greedy.hpp"

namespace ringsim::ring::greedy {
namespace {

// min a1/f1 + a2/f2 subject to f1 + f2 <= R, f1 <= U1, f2 <= U2 (r = sqrt(a)), exactly.
double two_path_bound(double a1, double r1, double u1, double a2, double r2, double u2, double R) {
  if (!(R > 0) || !(u1 > 0) || !(u2 > 0)) return kInfinity;
  if (u1 + u2 <= R) return a1 / u1 + a2 / u2;
  const double t = R / (r1 + r2);
  if (t * r1 <= u1 && t * r2 <= u2) return (r1 + r2) * (r1 + r2) / R;
  if (t * r1 > u1) return a1 / u1 + a2 / (R - u1);
  return a1 / (R - u2) + a2 / u2;
}

}  // namespace

// What the bounds read of every ring position in this step.
std::vector<PosInfo> Greedy::position_info() const {
  const std::size_t r = ring_.size();
  std::vector<PosInfo> pos_info(r);
  for (std::size_t pos = 0; pos < r; ++pos) {
    const std::size_t i = ring_[pos], j = succ_of(pos);
    PosInfo& pi = pos_info[pos];
    pi.i = i;
    pi.j = j;
    pi.base = csum_ - (speed_[i] * cost(S_[i]) + speed_[j] * cost(P_[j]));
    pi.s_i = speed_[i];
    pi.r_i = root_[i];
    pi.s_j = speed_[j];
    pi.r_j = root_[j];
    pi.c_pi = cost(P_[i]);
    pi.c_sj = cost(S_[j]);
    if (!net_.fixed_routes()) {
      pi.top_i = bt().top(comp_of(i));
      pi.top_j = bt().top(comp_of(j));
      const std::uint32_t m = meet(comp_of(i), comp_of(j));
      if (m != BridgeTree::kNone) pi.meet_chain = bridges_above(m);
      pi.chain_i = side_capacity(i, S_[i], P_[j]);
      pi.chain_j = side_capacity(j, S_[i], P_[j]);
    }
    if (net_.fixed_routes()) {
      // i keeps P_i and S_pred(i), j keeps S_j and P_succ(j): all cross the pool link.
      pi.avail_i = std::max(0.0, net_.pool_capacity(i) - P_[i].bw - S_[pred_of(pos)].bw);
      pi.avail_j = std::max(0.0, net_.pool_capacity(j) - S_[j].bw - P_[succ_of((pos + 1) % r)].bw);
    } else {
      // Each new path at i crosses one incident link of i; S_i and P_j give back one each.
      pi.avail_i = pi.avail_j = kInfinity;
      if (std::isfinite(net_.pool_capacity(i))) {
        pi.avail_i = S_[i].bw + P_[j].bw;
        for (auto l : incident_[i]) pi.avail_i += residual_[l];
      }
      if (std::isfinite(net_.pool_capacity(j))) {
        pi.avail_j = S_[i].bw + P_[j].bw;
        for (auto l : incident_[j]) pi.avail_j += residual_[l];
      }
    }
  }
  for (std::size_t pos = 0; pos < r; ++pos) {
    pos_info[pos].rest_comm = 0.0;
    for (const auto& t : top_)
      if (t.host != kNone && t.host != pos_info[pos].i && t.host != pos_info[pos].j) {
        pos_info[pos].rest_comm = load_.comm * t.value;  // bitwise what candidate_tstep compares
        break;
      }
  }
  return pos_info;
}

// Lower bound of the criterion after inserting h.k at pi's position: `pair_i` bounds
// f(k->i) + f(i->k), `pair_j` the same at j, `pool` the four new paths together. T_step >=
// Equation 4 and T_step >= every member's communication time (tstep.hpp).
Bound Greedy::bound(const HostInfo& h, const PosInfo& pi, double pair_i, double pair_j, double pool) const {
  const double ri_sum = std::min(pi.avail_i, pair_i), rj_sum = std::min(pi.avail_j, pair_j);
  const double u_pk = std::min(h.from[pi.i], ri_sum), u_si = std::min(h.to[pi.i], ri_sum);
  const double u_sk = std::min(h.from[pi.j], rj_sum), u_pj = std::min(h.to[pi.j], rj_sum);
  const double side_i = two_path_bound(h.s, h.r, u_pk, pi.s_i, pi.r_i, u_si, ri_sum);
  const double side_j = two_path_bound(h.s, h.r, u_sk, pi.s_j, pi.r_j, u_pj, rj_sum);
  const double roots = 2 * h.r + pi.r_i + pi.r_j;
  const double fresh = std::max(side_i + side_j, roots * roots / pool);
  const double t4 = (load_.work + load_.comm * (pi.base + fresh)) / h.denom;
  if (opt_.criterion == GreedyCriterion::eq4) return {t4, 0.0};
  const double ck = std::max(1 / u_pk + 1 / u_sk, 4 / pool);
  const double ci = pi.c_pi + 1 / u_si, cj = pi.c_sj + 1 / u_pj;
  return {std::max(t4, load_.comm * std::max(ck, std::max(ci, cj))), pi.rest_comm};
}

// The first bound of a candidate, from the full-network pair bounds.
Candidate Greedy::first_bound(const HostInfo& h, const PosInfo& pi, std::size_t pos) const {
  const Bound b = bound(h, pi, pair_at(h, pi.top_i, pi.chain_i, h.pair[pi.i]),
                        pair_at(h, pi.top_j, pi.chain_j, h.pair[pi.j]), pool_at(h, pi));
  return Candidate{std::max(b.soft, b.floor), b.soft, b.floor, h.k, pos};
}

HostInfo Greedy::host_info(std::size_t k, double pool) const {
  HostInfo h{k, speed_[k], root_[k], speed_sum_ + speed_[k], pool, net_.from_row(k), net_.to_row(k), net_.pair_row(k)};
  h.chain = pool;
  if (!net_.fixed_routes()) {
    h.chain = std::min(pool, chain_[k]);
    h.top = bt().top(comp_of(k));
  }
  return h;
}

// A lower bound of bound()'s soft value at a set of positions, for host h: Equation 4 with the
// smallest base of those positions and, of the fresh term, only the share of a `pool` at least
// that of each position (pool_at) with the smallest root of their members.
double Greedy::host_floor(const HostInfo& h, double pool, double min_base, double min_root) const {
  const double roots = 2 * h.r + min_root + min_root;
  const double fresh = roots * roots / pool;
  return (load_.work + load_.comm * (min_base + fresh)) / h.denom;
}

// The open hosts (open_host) with their floors, by floor then host; a floor that is not a number
// sorts first. On graph zones pool_at takes k's whole chain except at the positions touching k's
// child of the root (BridgeTree::top): the floor is the smaller of the two sets' floors.
std::vector<std::pair<double, std::size_t>> Greedy::hosts_by_floor(const std::vector<PosInfo>& pos_info) {
  struct Least {
    double base = kInfinity, root = kInfinity;
    void add(const PosInfo& pi) {
      base = std::min(base, pi.base);
      root = std::min({root, pi.r_i, pi.r_j});
    }
  };
  Least all;
  std::vector<Least> touching(net_.fixed_routes() ? 0 : bt().size());
  for (const auto& pi : pos_info) {
    all.add(pi);
    if (touching.empty()) continue;
    if (pi.top_i != BridgeTree::kNone) touching[pi.top_i].add(pi);
    if (pi.top_j != BridgeTree::kNone && pi.top_j != pi.top_i) touching[pi.top_j].add(pi);
  }
  std::vector<std::pair<double, std::size_t>> order;
  for (std::size_t k = 0; k < net_.host_count(); ++k) {
    if (!open_host(k)) continue;
    const HostInfo h = host_info(k, pool_of(k));
    double floor = host_floor(h, h.pool, all.base, all.root);
    if (!touching.empty()) {
      floor = host_floor(h, h.chain, all.base, all.root);
      if (h.top != BridgeTree::kNone) {
        const Least& near = touching[h.top];
        floor = std::min(floor, host_floor(h, h.pool, near.base, near.root));
      }
    }
    order.push_back({std::isnan(floor) ? -kInfinity : floor, k});
  }
  std::sort(order.begin(), order.end());
  return order;
}

// RingOptions::audit_floors: the inequalities the scans of the insertion step stop on, checked at
// every candidate of the step -- a host's floor and its group's floor at the candidate's base are
// at most the candidate's first bound.
void Greedy::audit_floors(const std::vector<std::pair<double, std::size_t>>& host_order,
                          const std::vector<PosInfo>& based, double least_root) const {
  for (const auto& [floor, k] : host_order) {
    const HostInfo h = host_info(k, pool_of(k));
    for (const PosInfo& pi : based) {
      const double group = host_floor(h, !net_.fixed_routes() && touches(h, pi) ? h.pool : h.chain, pi.base, least_root);
      const double soft = first_bound(h, pi, 0).soft;
      if (floor > soft || group > soft)
        throw std::logic_error("ring greedy: a floor above a candidate's bound (host " + std::to_string(k) + ")");
    }
  }
}

}  // namespace ringsim::ring::greedy
