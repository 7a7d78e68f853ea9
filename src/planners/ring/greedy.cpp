// The SharedRing greedy heuristic (Legrand, Renard, Robert, Vivien, Section 4), with its two
// refinements (Section 4.3).
//
// Section 4.1: the best pair (choose_pair), then, while hosts remain, the cheapest insertion of a
// host k between ring neighbours i -> j (choose_insertion). An insertion's cost is Equation 4
// (RingOptions::criterion = eq4, the default) or the exact T_step with alpha_i >= 0 (criterion =
// exact; tstep.hpp: T_step = max(Equation 4, largest communication time)). Equation 4 after an
// insertion (candidate_tstep): w_cumul gains k; the sum loses the terms of the two paths between
// i and j and gains those of k, i and j with the new costs. Every ring size's exact T_step is
// recorded (tstep_by_size) and the answer is the best ring over all sizes q = 1..p (q = 1: the
// fastest host alone), since T_step is not monotone in q (report, Figure 11); RingOptions::size
// and max_size narrow the sizes (the growth stops at the largest one allowed).
//
// Section 4.2 (evaluate): S_i and P_j give their bandwidth back to the residual network; one
// widest-path search from k gives k -> i and k -> j, and their reverses serve as i -> k and
// j -> k (on an undirected network the reverse of a widest path is a widest path; SimGrid's
// SHARED links are shared by both directions). Their fractions minimize the four paths' terms of
// Equation 4 under the residual capacities (bandwidth_allocation.hpp, exact); the other 2r - 2
// paths keep theirs. On Full zones (fixed routes) the four paths are the platform's routes.
//
// Section 4.3 (refine): after every insertion, all fractions are recomputed (max-min or global).
// Each insertion is chosen exactly without evaluating all (p - r) r candidates (greedy.hpp).
#include "planners/ring/greedy.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "model/errors.hpp"
#include "planners/ring/bandwidth_allocation.hpp"
#include "planners/ring/fractions.hpp"
#include "planners/ring/tstep.hpp"

namespace ringsim::ring {
namespace greedy {

Greedy::Greedy(const RingNetwork& net, const Workload& load, Refinement refinement, const RingOptions& opt)
    : net_(net), load_(load), refinement_(refinement), opt_(opt), search_(net), tree_(net), res_tree_(net) {
  const std::size_t p = net.host_count();
  speed_.resize(p);
  root_.resize(p);
  for (std::size_t h = 0; h < p; ++h) {
    speed_[h] = net.speed(h);
    root_[h] = std::sqrt(speed_[h]);
  }
  full_.resize(net.link_count());
  for (std::size_t l = 0; l < full_.size(); ++l) full_[l] = net.capacity(l);
  residual_ = full_;
  pos_of_.assign(p, kNone);
  S_.resize(p);
  P_.resize(p);
  incident_.resize(p);
  if (!net.fixed_routes())
    for (std::size_t h = 0; h < p; ++h)
      for (const auto* a = net.arcs_begin(net.host_node(h)); a != net.arcs_end(net.host_node(h)); ++a)
        incident_[h].push_back(a->link);
  if (net.fixed_routes() && opt.prune) {
    twins_.build(net, speed_, full_);
    start_memo();
  }
}

RingPlan Greedy::run() {
  const std::size_t p = net_.host_count();
  // The allowed sizes lo..hi (RingOptions::size, max_size): the growth stops at hi, the answer is
  // the best ring of a size in lo..hi. Without them, every size 1..p.
  const std::size_t lo = opt_.size ? *opt_.size : 1;
  const std::size_t hi = opt_.size ? *opt_.size : opt_.max_size ? *opt_.max_size : p;
  if (hi > p)
    throw InputError((opt_.size ? "--size " : "--max-size ") + std::to_string(hi) + ": the platform has only " +
                     std::to_string(p) + " candidate hosts (hosts that reach each other both ways)");
  RingPlan best;
  best.tstep_by_size.assign(hi, NAN);
  // q = 1: the fastest host alone.
  std::size_t fastest = 0;
  for (std::size_t h = 1; h < p; ++h)
    if (speed_[h] > speed_[fastest]) fastest = h;
  double best_t = kInfinity;
  best.tstep_by_size[0] = load_.work / speed_[fastest];
  if (lo <= 1) {
    best.ring = {fastest};
    best_t = best.tstep_by_size[0];
  }
  if (hi >= 2 && choose_pair()) {
    refine();
    double t = current_tstep();
    best.tstep_by_size[1] = t;
    if (lo <= 2 && t < best_t) {
      best_t = t;
      snapshot(best);
    }
    while (ring_.size() < hi) {
      const Insertion ins = choose_insertion();
      if (!std::isfinite(ins.tstep)) break;  // no host can be inserted any more
      apply(ins);
      refine();
      t = current_tstep();
      best.tstep_by_size[ring_.size() - 1] = t;
      if (opt_.progress) opt_.progress(progress());
      if (ring_.size() >= lo && t < best_t) {
        best_t = t;
        snapshot(best);
      }
    }
    if (ring_.size() < hi)
      best.note = "the ring stopped growing at " + std::to_string(ring_.size()) +
                  " hosts: no remaining host has a path with bandwidth left";
  }
  if (best.ring.empty())  // only when a size > 1 is required and the growth stopped below it
    throw InputError("--size " + std::to_string(lo) + ": the greedy's ring stopped growing at " +
                     std::to_string(std::max<std::size_t>(ring_.size(), 1)) +
                     " hosts (no remaining host has a path with bandwidth left)");
  best.criterion = opt_.criterion == GreedyCriterion::eq4 ? "equation-4" : "exact";
  best.candidates = candidates_;
  best.evaluations = evaluations_;
  best.fractions = refinement_ == Refinement::none     ? "greedy: the four new paths' fractions minimize Equation 4"
                   : refinement_ == Refinement::maxmin ? "max-min fairness after every insertion"
                                                       : "global optimum after every insertion (barrier method)";
  if (refinement_ == Refinement::global) best.fraction_gap = gap_at(best.ring.size());
  if (solver_trouble_)
    best.note += std::string(best.note.empty() ? "" : "; ") +
                 "GLPK failed numerically in some global solves: their best allocation so far was kept";
  return best;
}

void Greedy::take(const PathState& ps) {
  for (auto l : ps.links)
    if (!net_.fatpipe(l)) {
      residual_[l] -= ps.bw;
      if (residual_[l] < full_[l] * 1e-12) residual_[l] = 0.0;  // rounding, not bandwidth
    }
}

void Greedy::give_back(const PathState& ps) {
  for (auto l : ps.links)
    if (!net_.fatpipe(l)) residual_[l] = std::min(full_[l], residual_[l] + ps.bw);
}

// Ring (a, b): S_a = P_a = a -> b and S_b = P_b = b -> a (graph zones: a widest path, reversed).
double Greedy::pair_tstep(std::size_t a, std::size_t b, const double* f) const {
  const double ca = load_.comm * (1 / f[0] + 1 / f[1]), cb = load_.comm * (1 / f[2] + 1 / f[3]);
  const double wa = load_.work / speed_[a], wb = load_.work / speed_[b];
  // Two members: Equation 4, and the exact T_step = max(Equation 4, largest communication time).
  const double t4 = (1 + ca / wa + cb / wb) / (1 / wa + 1 / wb);
  return opt_.criterion == GreedyCriterion::eq4 ? t4 : std::max({t4, ca, cb});
}

// Section 4.1's first step: the pair of smallest criterion, its four paths allocated on the
// full network.
bool Greedy::choose_pair() {
  const std::size_t p = net_.host_count();
  double best_t = kInfinity;
  std::size_t ba = kNone, bb = kNone;
  double f[4], cap[4], set_cap[16];
  std::vector<std::size_t> targets;
  for (std::size_t a = 0; a < p; ++a) {
    if (!net_.fixed_routes()) {
      targets.clear();
      for (std::size_t b = a + 1; b < p; ++b) targets.push_back(net_.host_node(b));
      if (targets.empty()) break;
      search_.run(net_.host_node(a), full_, targets);
    }
    for (std::size_t b = a + 1; b < p; ++b) {
      const double w[4] = {speed_[a], speed_[a], speed_[b], speed_[b]};
      if (net_.fixed_routes()) {
        const RouteView there = net_.route(a, b), back = net_.route(b, a);
        const RouteView* lists[4] = {&there, &there, &back, &back};
        // Nothing is taken yet (residual_ == full_) and nothing is given back.
        route_sets_.build(net_, full_, residual_, lists, PathState{}, PathState{}, cap, set_cap);
      } else {
        if (!search_.reached(net_.host_node(b))) continue;
        for (int m = 0; m < 16; ++m) set_cap[m] = kInfinity;
        double fat = kInfinity;
        search_.for_each_link_back(net_.host_node(b), [&](std::size_t l) {
          if (net_.fatpipe(l))
            fat = std::min(fat, full_[l]);
          else
            set_cap[15] = std::min(set_cap[15], full_[l]);
        });
        for (double& c : cap) c = fat;
      }
      min_weighted_cost_allocation_small(4, w, cap, set_cap, f);
      const double t = pair_tstep(a, b, f);
      if (t < best_t) {
        best_t = t;
        ba = a;
        bb = b;
      }
    }
  }
  if (!std::isfinite(best_t)) return false;
  const HostPath ab = net_.pair_path(ba, bb), back = net_.pair_path(bb, ba);
  const std::vector<std::size_t>* lists[4] = {&ab.links, &ab.links, &back.links, &back.links};
  shared_sets(net_, full_, 4, lists, full_, cap, set_cap);
  const double w[4] = {speed_[ba], speed_[ba], speed_[bb], speed_[bb]};
  min_weighted_cost_allocation_small(4, w, cap, set_cap, f);
  ring_ = {ba, bb};
  count_below(ba);
  count_below(bb);
  pos_of_[ba] = 0;
  pos_of_[bb] = 1;
  S_[ba] = {ab.links, f[0]};
  P_[ba] = {ab.links, f[1]};
  S_[bb] = {back.links, f[2]};
  P_[bb] = {back.links, f[3]};
  for (auto h : ring_) {
    take(S_[h]);
    take(P_[h]);
  }
  return true;
}

// Equation 4's sums for the step: every candidate's value is computed from them in O(1).
void Greedy::prepare_step() {
  csum_ = 0.0;
  speed_sum_ = 0.0;
  for (auto& t : top_) t = {-1.0, kNone};
  if (memo_on_) weight_.resize(net_.host_count());
  for (auto h : ring_) {
    const double c = member_c(h);
    csum_ += speed_[h] * c;
    if (memo_on_) weight_[h] = speed_[h] * c;
    speed_sum_ += speed_[h];
    Top cur{c, h};
    for (auto& t : top_)
      if (cur.value > t.value) std::swap(cur, t);
  }
}

// The criterion's value (Equation 4 or the exact T_step) after inserting k between i and j.
double Greedy::candidate_tstep(std::size_t k, std::size_t i, std::size_t j, double c_pk, double c_si, double c_sk,
                               double c_pj) const {
  const double ci = cost(P_[i]) + c_si, cj = cost(S_[j]) + c_pj, ck = c_pk + c_sk;
  const double sum =
      csum_ - speed_[i] * member_c(i) - speed_[j] * member_c(j) + speed_[i] * ci + speed_[j] * cj + speed_[k] * ck;
  const double t4 = (load_.work + load_.comm * sum) / (speed_sum_ + speed_[k]);
  double cmax = std::max({ci, cj, ck});
  for (const auto& t : top_)
    if (t.host != kNone && t.host != i && t.host != j) {
      cmax = std::max(cmax, t.value);
      break;
    }
  // T_step = max(Equation 4, the largest communication time) (tstep.hpp).
  if (opt_.criterion == GreedyCriterion::eq4) return t4;
  return std::max(t4, load_.comm * cmax);
}

// Inserting k at position pos (between ring_[pos] and its successor): the four paths, their
// fractions, T_step (+inf when impossible).
Insertion Greedy::evaluate(std::size_t k, std::size_t pos) {
  ++evaluations_;
  return net_.fixed_routes() ? evaluate_on_routes(k, pos) : evaluate_by_widest_paths(k, pos);
}

// Fixed routes: paths 0: P_k = k -> i, 1: S_i = i -> k, 2: S_k = k -> j, 3: P_j = j -> k.
Insertion Greedy::evaluate_on_routes(std::size_t k, std::size_t pos) {
  const std::size_t i = ring_[pos], j = succ_of(pos);
  Insertion out;
  out.k = k;
  out.pos = pos;
  double f[4], cap[4], set_cap[16];
  const double w[4] = {speed_[k], speed_[i], speed_[k], speed_[j]};
  const RouteView ki = net_.route(k, i), ik = net_.route(i, k), kj = net_.route(k, j), jk = net_.route(j, k);
  const RouteView* lists[4] = {&ki, &ik, &kj, &jk};
  route_sets_.build(net_, full_, residual_, lists, S_[i], P_[j], cap, set_cap);
  const double root[4] = {root_[k], root_[i], root_[k], root_[j]};
  allocations_.allocate4(w, root, cap, set_cap, f);
  bool feasible = true;
  for (double x : f) feasible = feasible && x > 0 && std::isfinite(x);
  if (memo_on_) remember(k, i, j, f, feasible);
  if (!feasible) return out;
  out.tstep = candidate_tstep(k, i, j, 1 / f[0], 1 / f[1], 1 / f[2], 1 / f[3]);
  // The links are the routes, copied only if this candidate is applied.
  out.pk.bw = f[0];
  out.si.bw = f[1];
  out.sk.bw = f[2];
  out.pj.bw = f[3];
  return out;
}

// Graph zone: re-inject S_i and P_j (saved and restored exactly), one widest search from k.
Insertion Greedy::evaluate_by_widest_paths(std::size_t k, std::size_t pos) {
  const std::size_t i = ring_[pos], j = succ_of(pos);
  Insertion out;
  out.k = k;
  out.pos = pos;
  double f[4], cap[4], set_cap[16];
  const double w[4] = {speed_[k], speed_[i], speed_[k], speed_[j]};
  saved_.clear();
  for (const PathState* ps : {&S_[i], &P_[j]})
    for (auto l : ps->links)
      if (!net_.fatpipe(l)) {
        saved_.push_back({l, residual_[l]});
        residual_[l] = std::min(full_[l], residual_[l] + ps->bw);
      }
  search_.run(net_.host_node(k), residual_, {net_.host_node(i), net_.host_node(j)});
  bool ok = search_.reached(net_.host_node(i)) && search_.reached(net_.host_node(j));
  std::vector<std::size_t> ki, ik, kj, jk;
  if (ok) {
    ki = search_.links_to(net_.host_node(i));
    kj = search_.links_to(net_.host_node(j));
    ik.assign(ki.rbegin(), ki.rend());
    jk.assign(kj.rbegin(), kj.rend());
    const std::vector<std::size_t>* lists[4] = {&ki, &ik, &kj, &jk};
    shared_sets(net_, full_, 4, lists, residual_, cap, set_cap);
    min_weighted_cost_allocation_small(4, w, cap, set_cap, f);
    for (double x : f) ok = ok && x > 0 && std::isfinite(x);
  }
  for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) residual_[it->first] = it->second;
  if (!ok) return out;
  out.tstep = candidate_tstep(k, i, j, 1 / f[0], 1 / f[1], 1 / f[2], 1 / f[3]);
  out.pk = {std::move(ki), f[0]};
  out.si = {std::move(ik), f[1]};
  out.sk = {std::move(kj), f[2]};
  out.pj = {std::move(jk), f[3]};
  return out;
}

void Greedy::consider(std::size_t k, std::size_t pos, Insertion& best) {
  Insertion ins = evaluate(k, pos);
  if (std::isfinite(ins.tstep) && better(ins.tstep, k, pos, best)) best = std::move(ins);
}

// The chosen insertion: S_i and P_j give their bandwidth back, the four new paths take theirs.
void Greedy::apply(const Insertion& ins) {
  const std::size_t pos = ins.pos, i = ring_[pos], j = succ_of(pos), k = ins.k;
  give_back(S_[i]);
  give_back(P_[j]);
  std::vector<std::size_t> old_si_links, old_pj_links;
  if (memo_on_) {
    old_si_links = S_[i].links;
    old_pj_links = P_[j].links;
  }
  S_[i] = ins.si;
  P_[j] = ins.pj;
  P_[k] = ins.pk;
  S_[k] = ins.sk;
  if (net_.fixed_routes()) {
    S_[i].links = net_.route(i, k).to_vector();
    P_[j].links = net_.route(j, k).to_vector();
    P_[k].links = net_.route(k, i).to_vector();
    S_[k].links = net_.route(k, j).to_vector();
  }
  take(S_[i]);
  take(P_[j]);
  take(P_[k]);
  take(S_[k]);
  if (memo_on_) note_changes(old_si_links, old_pj_links, i, j, k);
  ring_.insert(ring_.begin() + static_cast<std::ptrdiff_t>(pos + 1), k);
  count_below(k);
  for (std::size_t m = 0; m < ring_.size(); ++m) pos_of_[ring_[m]] = m;
}

// Section 4.3: the ring and its paths stay, every fraction is recomputed.
void Greedy::refine() {
  if (refinement_ == Refinement::none) return;
  RingPlan plan;
  snapshot(plan);
  if (refinement_ == Refinement::maxmin) {
    allocate_maxmin(net_, plan);
  } else {
    const auto rep = allocate_optimal(net_, load_, plan, opt_.global_gap);
    gap_by_size_.resize(std::max(gap_by_size_.size(), ring_.size()), 0.0);
    gap_by_size_[ring_.size() - 1] = rep.gap;
    solver_trouble_ = solver_trouble_ || rep.solver_trouble;
  }
  for (std::size_t m = 0; m < ring_.size(); ++m) {
    S_[ring_[m]].bw = plan.succ_bw[m];
    P_[ring_[m]].bw = plan.pred_bw[m];
  }
  residual_ = full_;
  for (auto h : ring_) {
    take(S_[h]);
    take(P_[h]);
  }
}

double Greedy::current_tstep() const {
  std::vector<double> compute, comm;
  for (auto h : ring_) {
    compute.push_back(load_.work / speed_[h]);
    comm.push_back(load_.comm * member_c(h));
  }
  return exact_tstep(compute, comm);
}

void Greedy::snapshot(RingPlan& plan) const {
  plan.ring = ring_;
  plan.succ.clear();
  plan.pred.clear();
  plan.succ_bw.clear();
  plan.pred_bw.clear();
  const std::size_t q = ring_.size();
  for (std::size_t m = 0; m < q; ++m) {
    const std::size_t h = ring_[m];
    plan.succ.push_back({h, ring_[(m + 1) % q], S_[h].links});
    plan.pred.push_back({h, ring_[(m + q - 1) % q], P_[h].links});
    plan.succ_bw.push_back(S_[h].bw);
    plan.pred_bw.push_back(P_[h].bw);
  }
}

}  // namespace greedy

RingPlan plan_greedy(const RingNetwork& net, const Workload& load, Refinement refinement, const RingOptions& opt) {
  const std::string method = refinement == Refinement::none     ? "greedy"
                             : refinement == Refinement::maxmin ? "greedy-maxmin"
                                                                : "greedy-global";
  check_size_options(method, opt);
  greedy::Greedy g(net, load, refinement, opt);
  RingPlan plan = g.run();
  plan.method = method;
  evaluate_plan(net, load, plan);
  return plan;
}

}  // namespace ringsim::ring
