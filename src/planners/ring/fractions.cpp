#include "planners/ring/fractions.hpp"

#include <glpk.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "planners/glpk_problem.hpp"
#include "planners/ring/bandwidth_allocation.hpp"
#include "planners/ring/tstep.hpp"

namespace ringsim::ring {
namespace {

// The 2q paths in one list: p = 2m is S_m, p = 2m + 1 is P_m.
std::vector<std::vector<std::size_t>> path_links(const RingPlan& plan) {
  std::vector<std::vector<std::size_t>> out;
  for (std::size_t m = 0; m < plan.succ.size(); ++m) {
    out.push_back(plan.succ[m].links);
    out.push_back(plan.pred[m].links);
  }
  return out;
}

void store_bandwidths(RingPlan& plan, const std::vector<double>& bw) {
  for (std::size_t m = 0; m < plan.succ.size(); ++m) {
    plan.succ_bw[m] = bw[2 * m];
    plan.pred_bw[m] = bw[2 * m + 1];
  }
}

// Scales the paths of overloaded SHARED links down so that the allocation is feasible.
void make_feasible(const RingNetwork& net, const std::vector<std::vector<std::size_t>>& paths, std::vector<double>& bw) {
  std::vector<double> used(net.link_count(), 0.0);
  for (std::size_t p = 0; p < paths.size(); ++p)
    for (auto l : paths[p])
      if (!net.fatpipe(l)) used[l] += bw[p];
  for (std::size_t p = 0; p < paths.size(); ++p) {
    double factor = 1.0;
    for (auto l : paths[p]) {
      if (net.fatpipe(l))
        bw[p] = std::min(bw[p], net.capacity(l));
      else if (used[l] > net.capacity(l))
        factor = std::min(factor, net.capacity(l) / used[l]);
    }
    bw[p] *= factor;
  }
}

double tstep_of(const std::vector<double>& compute, double comm, const std::vector<double>& bw) {
  std::vector<double> c(compute.size());
  for (std::size_t m = 0; m < compute.size(); ++m) c[m] = comm * (1.0 / bw[2 * m] + 1.0 / bw[2 * m + 1]);
  return exact_tstep(compute, c);
}

// Each member's time to compute the whole work alone (W w_i), and the ring's summed speed.
struct MemberWork {
  std::vector<double> compute;
  double speed_sum = 0.0;
};

MemberWork member_work(const RingNetwork& net, const Workload& load, const RingPlan& plan) {
  MemberWork w;
  for (std::size_t m = 0; m < plan.ring.size(); ++m) {
    w.compute.push_back(load.work / net.speed(plan.ring[m]));
    w.speed_sum += net.speed(plan.ring[m]);
  }
  return w;
}

// The fastest allocation a solver's iterates have given: each iterate, scaled down onto the
// capacities (make_feasible), is an upper bound on the optimal T_step, whichever solver made it.
class FastestAllocation {
 public:
  FastestAllocation(const RingNetwork& net, const std::vector<std::vector<std::size_t>>& paths, const MemberWork& work,
                    double comm, std::vector<double> start)
      : net_(net), paths_(paths), compute_(work.compute), comm_(comm), best_(std::move(start)),
        tstep_(tstep_of(compute_, comm_, best_)) {}
  void offer(std::vector<double> bw) {
    make_feasible(net_, paths_, bw);
    const double t = tstep_of(compute_, comm_, bw);
    if (t < tstep_) {
      tstep_ = t;
      best_ = std::move(bw);
    }
  }
  double tstep() const { return tstep_; }
  const std::vector<double>& bandwidths() const { return best_; }

 private:
  const RingNetwork& net_;
  const std::vector<std::vector<std::size_t>>& paths_;
  const std::vector<double>& compute_;
  double comm_;
  std::vector<double> best_;
  double tstep_;
};

// A ring of one member exchanges nothing: its T_step is its own compute time, and optimal.
bool computes_alone(const RingPlan& plan, const MemberWork& work, GlobalSolveReport& rep) {
  if (plan.ring.size() >= 2) return false;
  rep.tstep = rep.lower_bound = work.compute[0];
  return true;
}

// Max-min fairness over the paths on the full link capacities (progressive filling).
std::vector<double> maxmin_on_full_capacities(const RingNetwork& net,
                                              const std::vector<std::vector<std::size_t>>& paths) {
  std::vector<double> full(net.link_count());
  for (std::size_t l = 0; l < full.size(); ++l) full[l] = net.capacity(l);
  return maxmin_allocation(net, paths, full);
}

// Each path's own cap (the smallest capacity along it, SHARED or FATPIPE) and the paths that cross
// each SHARED link.
struct PathCapacities {
  std::vector<double> cap;
  std::map<std::size_t, std::vector<std::size_t>> shared;  // SHARED link -> paths
};

PathCapacities path_capacities(const RingNetwork& net, const std::vector<std::vector<std::size_t>>& paths) {
  PathCapacities out;
  out.cap.assign(paths.size(), kInfinity);
  for (std::size_t p = 0; p < paths.size(); ++p)
    for (auto l : paths[p]) {
      out.cap[p] = std::min(out.cap[p], net.capacity(l));
      if (!net.fatpipe(l)) out.shared[l].push_back(p);
    }
  return out;
}

// The cutting planes' starting allocation: the plan's own (its first q members' bandwidths) when
// every one is positive, max-min fairness otherwise; scaled down to feasibility.
std::vector<double> cutting_plane_start(const RingNetwork& net, const RingPlan& plan,
                                        const std::vector<std::vector<std::size_t>>& paths) {
  const std::size_t q = plan.ring.size();
  std::vector<double> start(paths.size(), 0.0);
  bool have_start = true;
  for (std::size_t m = 0; m < q; ++m) {
    start[2 * m] = m < plan.succ_bw.size() ? plan.succ_bw[m] : 0.0;
    start[2 * m + 1] = m < plan.pred_bw.size() ? plan.pred_bw[m] : 0.0;
  }
  for (double b : start) have_start = have_start && b > 0;
  if (!have_start) start = maxmin_on_full_capacities(net, paths);
  make_feasible(net, paths, start);
  return start;
}

// Kelley's outer approximation of Method 2 (fractions.hpp) as a GLPK LP in scaled unknowns:
// f^ = f / Bref in (0, 1], y^ = y * Bref >= 1/f^, T^ = T / Tref, with Bref the largest path cap and
// Tref = W / S (S the members' total speed). Each y^_p >= 1/f^_p is replaced by tangents, so the LP
// optimum is a lower bound of the convex problem's.
class TangentLp {
 public:
  // start_tstep: the T_step of the starting allocation, which bounds the fractions from below.
  TangentLp(const RingNetwork& net, const Workload& load, const PathCapacities& caps,
            const std::vector<double>& compute, double speed_sum, double start_tstep)
      : q_(compute.size()), np_(caps.cap.size()), cap_(caps.cap), cut_points_(np_) {
    for (double c : cap_) bref_ = std::max(bref_, c);
    tref_ = load.work / speed_sum;
    glp_term_out(GLP_OFF);
    lp_.reset(glp_create_prob());
    glp_set_obj_dir(lp_.get(), GLP_MIN);
    add_columns(load.comm, start_tstep);
    add_rows(net, load.comm, compute, caps.shared);
    glp_init_smcp(&parm_);
    parm_.msg_lev = GLP_MSG_OFF;
    parm_.presolve = GLP_OFF;
  }

  double bref() const { return bref_; }
  double tref() const { return tref_; }
  double f(std::size_t p) const { return glp_get_col_prim(lp_.get(), col_f(p)); }
  double y(std::size_t p) const { return glp_get_col_prim(lp_.get(), col_y(p)); }
  double objective() const { return glp_get_obj_val(lp_.get()); }

  // The first tangents of each path: halving from its cap down to its lower bound, and around the
  // starting allocation.
  void add_initial_tangents(const std::vector<double>& start) {
    for (std::size_t p = 0; p < np_; ++p) {
      const double u = cap_[p] / bref_;
      for (double f0 = u; f0 > lower_[p]; f0 /= 2) add_tangent(p, f0);
      add_tangent(p, lower_[p]);
      const double s = start[p] / bref_;
      for (double k : {0.5, 1.0, 2.0}) add_tangent(p, s * k);
    }
    glp_scale_prob(lp_.get(), GLP_SF_AUTO);
  }

  // y >= 2/f0 - f/f0^2  <=>  y + f/f0^2 >= 2/f0: the tangent of 1/f at f0 (clamped to the bounds);
  // false when (nearly) the same tangent is already there, which would make the LP ill-conditioned.
  bool add_tangent(std::size_t p, double f0) {
    f0 = std::clamp(f0, lower_[p], cap_[p] / bref_);
    for (double c : cut_points_[p])
      if (std::abs(c - f0) <= 1e-9 * f0) return false;
    cut_points_[p].push_back(f0);
    const int r = glp_add_rows(lp_.get(), 1);
    int idx[3] = {0, col_y(p), col_f(p)};
    double v[3] = {0, 1.0, 1.0 / (f0 * f0)};
    glp_set_mat_row(lp_.get(), r, 2, idx, v);
    glp_set_row_bnds(lp_.get(), r, GLP_LO, 2.0 / f0, 0.0);
    return true;
  }

  // Tangents at the LP point's fractions whose y^ is below 1/f^; how many were added.
  int add_violated_tangents() {
    int added = 0;
    for (std::size_t p = 0; p < np_; ++p) {
      const double fp = f(p);
      if (fp > 0 && y(p) < (1.0 / fp) * (1 - 1e-10) && add_tangent(p, fp)) ++added;
    }
    return added;
  }

  // Primal simplex first, then the dual simplex from the previous basis (only tangents were added).
  // False when GLPK cannot reach an optimum even after rescaling.
  bool solve(bool first) {
    parm_.meth = first ? GLP_PRIMAL : GLP_DUALP;
    int ret = glp_simplex(lp_.get(), &parm_);
    if (ret == 0 && glp_get_status(lp_.get()) == GLP_OPT) return true;
    // Numerical trouble: rescale (the cuts added since) and restart from the standard basis.
    glp_scale_prob(lp_.get(), GLP_SF_AUTO);
    glp_std_basis(lp_.get());
    parm_.meth = GLP_PRIMAL;
    ret = glp_simplex(lp_.get(), &parm_);
    return ret == 0 && glp_get_status(lp_.get()) == GLP_OPT;
  }

 private:
  int col_t() const { return 1; }
  int col_alpha(std::size_t m) const { return 2 + static_cast<int>(m); }
  int col_f(std::size_t p) const { return 2 + static_cast<int>(q_) + static_cast<int>(p); }
  int col_y(std::size_t p) const { return 2 + static_cast<int>(q_) + static_cast<int>(np_) + static_cast<int>(p); }

  void add_columns(double comm, double start_tstep) {
    glp_add_cols(lp_.get(), 1 + static_cast<int>(q_) + 2 * static_cast<int>(np_));
    glp_set_col_bnds(lp_.get(), col_t(), GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(lp_.get(), col_t(), 1.0);
    for (std::size_t m = 0; m < q_; ++m) glp_set_col_bnds(lp_.get(), col_alpha(m), GLP_DB, 0.0, 1.0);
    // At the optimum H y_p <= T <= the start's T_step, so f_p >= H / T_start: a valid lower bound
    // that keeps the tangents' slopes (1/f0^2) within a few orders of magnitude.
    lower_.resize(np_);
    for (std::size_t p = 0; p < np_; ++p) {
      const double u = cap_[p] / bref_;
      lower_[p] = std::min(u * 0.5, comm / (start_tstep * bref_));
      glp_set_col_bnds(lp_.get(), col_f(p), GLP_DB, lower_[p], u);
      glp_set_col_bnds(lp_.get(), col_y(p), GLP_DB, 1.0 / u, 1.0 / lower_[p]);
    }
  }

  void add_rows(const RingNetwork& net, double comm, const std::vector<double>& compute,
                const std::map<std::size_t, std::vector<std::size_t>>& shared) {
    const double kappa = comm / (bref_ * tref_);
    std::vector<int> ind(2 + 2 * np_ + 2);
    std::vector<double> val(ind.size());
    // sum alpha = 1
    int row = glp_add_rows(lp_.get(), 1);
    for (std::size_t m = 0; m < q_; ++m) {
      ind[1 + m] = col_alpha(m);
      val[1 + m] = 1.0;
    }
    glp_set_mat_row(lp_.get(), row, static_cast<int>(q_), ind.data(), val.data());
    glp_set_row_bnds(lp_.get(), row, GLP_FX, 1.0, 1.0);
    // alpha_m a_m / Tref + kappa (y_S + y_P) - T <= 0
    for (std::size_t m = 0; m < q_; ++m) {
      row = glp_add_rows(lp_.get(), 1);
      int idx[5] = {0, col_alpha(m), col_y(2 * m), col_y(2 * m + 1), col_t()};
      double v[5] = {0, compute[m] / tref_, kappa, kappa, -1.0};
      glp_set_mat_row(lp_.get(), row, 4, idx, v);
      glp_set_row_bnds(lp_.get(), row, GLP_UP, 0.0, 0.0);
    }
    // SHARED links crossed by two paths or more.
    for (const auto& [l, users] : shared) {
      if (users.size() < 2) continue;
      row = glp_add_rows(lp_.get(), 1);
      int len = 0;
      for (auto p : users) {
        ++len;
        ind[static_cast<std::size_t>(len)] = col_f(p);
        val[static_cast<std::size_t>(len)] = 1.0;
      }
      glp_set_mat_row(lp_.get(), row, len, ind.data(), val.data());
      glp_set_row_bnds(lp_.get(), row, GLP_UP, 0.0, net.capacity(l) / bref_);
    }
  }

  std::size_t q_, np_;
  std::vector<double> cap_;                       // each path's cap, unscaled
  std::vector<double> lower_;                     // each f^_p's lower bound
  std::vector<std::vector<double>> cut_points_;  // the f0 of each path's tangents
  double bref_ = 0.0, tref_ = 0.0;
  planners::GlpkProblem lp_;
  glp_smcp parm_;
};

}  // namespace

void allocate_maxmin(const RingNetwork& net, RingPlan& plan) {
  if (plan.ring.size() < 2) return;
  store_bandwidths(plan, maxmin_on_full_capacities(net, path_links(plan)));
}

GlobalSolveReport allocate_optimal_lp(const RingNetwork& net, const Workload& load, RingPlan& plan,
                                      double gap_tolerance, int max_iterations) {
  GlobalSolveReport rep;
  const MemberWork work = member_work(net, load, plan);
  if (computes_alone(plan, work, rep)) return rep;
  const auto paths = path_links(plan);
  const std::vector<double> start = cutting_plane_start(net, plan, paths);
  FastestAllocation fastest(net, paths, work, load.comm, start);
  rep.tstep = fastest.tstep();
  TangentLp lp(net, load, path_capacities(net, paths), work.compute, work.speed_sum, rep.tstep);
  lp.add_initial_tangents(start);
  // Each LP's optimum is a lower bound; its fractions, scaled onto the capacities, an upper bound.
  std::vector<double> bw(paths.size());
  for (rep.iterations = 1; rep.iterations <= max_iterations; ++rep.iterations) {
    if (!lp.solve(rep.iterations == 1)) {
      rep.solver_trouble = true;  // keep the best allocation found and its gap
      break;
    }
    rep.lower_bound = std::max(rep.lower_bound, lp.objective() * lp.tref());
    for (std::size_t p = 0; p < bw.size(); ++p) bw[p] = std::clamp(lp.f(p), 1e-300, 1.0) * lp.bref();
    fastest.offer(bw);
    rep.tstep = fastest.tstep();
    rep.gap = std::max(0.0, (rep.tstep - rep.lower_bound) / rep.tstep);
    if (rep.gap <= gap_tolerance) break;
    // No violated tangent: the LP point is feasible for the convex problem, the gap is rounding only.
    if (lp.add_violated_tangents() == 0) break;
  }
  rep.iterations = std::min(rep.iterations, max_iterations);
  store_bandwidths(plan, fastest.bandwidths());
  return rep;
}

// ---------------------------------------------------------------------------------------------
// The barrier method (Boyd and Vandenberghe, Convex Optimization, Algorithm 11.1) on
//   minimize t  subject to  g0 = 1 + kappa sum_p a_p / f_p - t <= 0          (Equation 4)
//                           g_m = kappa S (1/f_S(m) + 1/f_P(m)) - t <= 0     (member m's comm time)
//                           sum_{p through l} f_p <= b_l (SHARED l),  f_p <= b_l (FATPIPE l)
// in scaled units (f in units of the largest capacity Bref, t in units of W / S where S is the
// members' total speed, kappa = H / (W Bref)): since T_step = max(Equation 4, largest
// communication time) (tstep.hpp), this is exactly the problem above with the shares eliminated.
// Newton steps with a dense Cholesky factorization, backtracking line search; each centering stops
// when the Newton decrement is below 1e-10; tau grows tenfold until the duality gap m / tau is
// below the tolerance (relative to t).
namespace {

struct BarrierProblem {
  std::size_t n = 0;                 // paths; x[n] is t
  std::vector<double> a;             // Equation 4 weight of each path (its sender's speed)
  std::vector<std::size_t> member;   // path -> member (paths 2m and 2m + 1)
  std::size_t q = 0;
  double kappa = 0.0, speed_sum = 0.0;
  std::vector<std::vector<std::size_t>> link_paths;  // SHARED links
  std::vector<double> link_cap;
  std::vector<double> fat_cap;  // per path, +inf when none
  double bref = 0.0;  // the largest capacity along any path: the unit of f

  std::size_t constraints() const {
    std::size_t m = 1 + q + link_paths.size();
    for (double u : fat_cap) m += std::isfinite(u) ? 1 : 0;
    return m;
  }

  // Constraint values (all must be < 0) and feasibility of x.
  bool values(const std::vector<double>& x, double& g0, std::vector<double>& gm, std::vector<double>& hl,
              std::vector<double>& up) const {
    const double t = x[n];
    double sum = 0.0;
    for (std::size_t p = 0; p < n; ++p) {
      if (!(x[p] > 0)) return false;
      sum += a[p] / x[p];
    }
    g0 = 1 + kappa * sum - t;
    if (!(g0 < 0)) return false;
    gm.assign(q, 0.0);
    for (std::size_t m = 0; m < q; ++m) {
      gm[m] = kappa * speed_sum * (1 / x[2 * m] + 1 / x[2 * m + 1]) - t;
      if (!(gm[m] < 0)) return false;
    }
    hl.assign(link_paths.size(), 0.0);
    for (std::size_t l = 0; l < link_paths.size(); ++l) {
      double u = -link_cap[l];
      for (auto p : link_paths[l]) u += x[p];
      hl[l] = u;
      if (!(u < 0)) return false;
    }
    up.assign(n, -1.0);
    for (std::size_t p = 0; p < n; ++p)
      if (std::isfinite(fat_cap[p])) {
        up[p] = x[p] - fat_cap[p];
        if (!(up[p] < 0)) return false;
      }
    return true;
  }

  double phi(const std::vector<double>& x, double tau, bool& ok) const {
    double g0;
    std::vector<double> gm, hl, up;
    ok = values(x, g0, gm, hl, up);
    if (!ok) return kInfinity;
    double v = tau * x[n] - std::log(-g0);
    for (double g : gm) v -= std::log(-g);
    for (double h : hl) v -= std::log(-h);
    for (std::size_t p = 0; p < n; ++p)
      if (std::isfinite(fat_cap[p])) v -= std::log(-up[p]);
    return v;
  }

  // Gradient and Hessian (dense, row-major (n+1) x (n+1)) of phi at a feasible x.
  void derivatives(const std::vector<double>& x, double tau, std::vector<double>& grad, std::vector<double>& hess) const {
    const std::size_t N = n + 1;
    double g0 = 0.0;
    std::vector<double> gm, hl, up;
    values(x, g0, gm, hl, up);
    grad.assign(N, 0.0);
    hess.assign(N * N, 0.0);
    grad[n] = tau;
    auto add_rank_one = [&](const std::vector<std::pair<std::size_t, double>>& dg, double w) {
      for (const auto& [i, vi] : dg)
        for (const auto& [j, vj] : dg) hess[i * N + j] += w * vi * vj;
    };
    // g0
    {
      std::vector<std::pair<std::size_t, double>> dg;
      for (std::size_t p = 0; p < n; ++p) dg.push_back({p, -kappa * a[p] / (x[p] * x[p])});
      dg.push_back({n, -1.0});
      for (const auto& [i, v] : dg) grad[i] += v / -g0;
      add_rank_one(dg, 1 / (g0 * g0));
      for (std::size_t p = 0; p < n; ++p) hess[p * N + p] += (2 * kappa * a[p] / (x[p] * x[p] * x[p])) / -g0;
    }
    for (std::size_t m = 0; m < q; ++m) {
      const std::size_t s = 2 * m, pr = 2 * m + 1;
      const double c = kappa * speed_sum;
      const std::vector<std::pair<std::size_t, double>> dg = {
          {s, -c / (x[s] * x[s])}, {pr, -c / (x[pr] * x[pr])}, {n, -1.0}};
      for (const auto& [i, v] : dg) grad[i] += v / -gm[m];
      add_rank_one(dg, 1 / (gm[m] * gm[m]));
      hess[s * N + s] += (2 * c / (x[s] * x[s] * x[s])) / -gm[m];
      hess[pr * N + pr] += (2 * c / (x[pr] * x[pr] * x[pr])) / -gm[m];
    }
    for (std::size_t l = 0; l < link_paths.size(); ++l) {
      for (auto p : link_paths[l]) grad[p] += 1 / -hl[l];
      const double w = 1 / (hl[l] * hl[l]);
      for (auto p : link_paths[l])
        for (auto r : link_paths[l]) hess[p * N + r] += w;
    }
    for (std::size_t p = 0; p < n; ++p)
      if (std::isfinite(fat_cap[p])) {
        grad[p] += 1 / -up[p];
        hess[p * N + p] += 1 / (up[p] * up[p]);
      }
  }
};

// Solves hess * d = -grad by Cholesky (with a growing diagonal shift if not positive definite).
bool newton_direction(std::vector<double> hess, const std::vector<double>& grad, std::vector<double>& d) {
  const std::size_t N = grad.size();
  double shift = 0.0;
  std::vector<double> L;
  for (int attempt = 0; attempt < 30; ++attempt) {
    L = hess;
    if (shift > 0)
      for (std::size_t i = 0; i < N; ++i) L[i * N + i] += shift;
    bool ok = true;
    for (std::size_t j = 0; j < N && ok; ++j) {
      double diag = L[j * N + j];
      for (std::size_t k = 0; k < j; ++k) diag -= L[j * N + k] * L[j * N + k];
      if (!(diag > 0)) {
        ok = false;
        break;
      }
      const double root = std::sqrt(diag);
      L[j * N + j] = root;
      for (std::size_t i = j + 1; i < N; ++i) {
        double v = L[i * N + j];
        for (std::size_t k = 0; k < j; ++k) v -= L[i * N + k] * L[j * N + k];
        L[i * N + j] = v / root;
      }
    }
    if (ok) {
      d.assign(N, 0.0);
      for (std::size_t i = 0; i < N; ++i) {  // L y = -grad
        double v = -grad[i];
        for (std::size_t k = 0; k < i; ++k) v -= L[i * N + k] * d[k];
        d[i] = v / L[i * N + i];
      }
      for (std::size_t i = N; i-- > 0;) {  // L^T d = y
        double v = d[i];
        for (std::size_t k = i + 1; k < N; ++k) v -= L[k * N + i] * d[k];
        d[i] = v / L[i * N + i];
      }
      return true;
    }
    double scale = 0.0;
    for (std::size_t i = 0; i < N; ++i) scale = std::max(scale, std::abs(hess[i * N + i]));
    shift = shift == 0.0 ? 1e-12 * std::max(scale, 1e-300) : shift * 10;
  }
  return false;
}

// The barrier problem of a plan's paths: each path's Equation 4 weight (its sender's speed), the
// SHARED links' path sets and capacities and the FATPIPE caps, all in units of Bref, the largest
// capacity along any path.
BarrierProblem barrier_problem(const RingNetwork& net, const Workload& load, const RingPlan& plan,
                               const std::vector<std::vector<std::size_t>>& paths, double speed_sum) {
  const std::size_t np = paths.size();
  BarrierProblem bp;
  bp.n = np;
  bp.q = plan.ring.size();
  bp.speed_sum = speed_sum;
  bp.fat_cap.assign(np, kInfinity);
  std::map<std::size_t, std::vector<std::size_t>> shared;
  for (std::size_t p = 0; p < np; ++p) {
    bp.a.push_back(net.speed(plan.ring[p / 2]));
    bp.member.push_back(p / 2);
    for (auto l : paths[p]) {
      bp.bref = std::max(bp.bref, net.capacity(l));
      if (net.fatpipe(l))
        bp.fat_cap[p] = std::min(bp.fat_cap[p], net.capacity(l));
      else
        shared[l].push_back(p);
    }
  }
  for (auto& u : bp.fat_cap) u /= bp.bref;
  for (const auto& [l, users] : shared) {
    bp.link_paths.push_back(users);
    bp.link_cap.push_back(net.capacity(l) / bp.bref);
  }
  bp.kappa = load.comm / (load.work * bp.bref);
  return bp;
}

// The barrier's starting allocation: the plan's own when it has one for every member and each is
// positive, max-min fairness otherwise; scaled down to feasibility.
std::vector<double> barrier_start(const RingNetwork& net, const RingPlan& plan,
                                  const std::vector<std::vector<std::size_t>>& paths) {
  const std::size_t q = plan.ring.size();
  std::vector<double> start(paths.size(), 0.0);
  bool have_start = plan.succ_bw.size() == q && plan.pred_bw.size() == q;
  for (std::size_t m = 0; m < q && have_start; ++m) {
    start[2 * m] = plan.succ_bw[m];
    start[2 * m + 1] = plan.pred_bw[m];
  }
  for (double b : start) have_start = have_start && b > 0;
  if (!have_start) start = maxmin_on_full_capacities(net, paths);
  make_feasible(net, paths, start);
  return start;
}

// A strictly feasible barrier point: 0.9 of the (feasible) start's fractions, and t just above the
// largest constraint it must dominate.
std::vector<double> strictly_feasible_barrier_point(const BarrierProblem& bp, const std::vector<double>& start) {
  const std::size_t np = bp.n;
  std::vector<double> x(np + 1);
  for (std::size_t p = 0; p < np; ++p) x[p] = 0.9 * start[p] / bp.bref;
  double sum = 0.0, worst = 0.0;
  for (std::size_t p = 0; p < np; ++p) sum += bp.a[p] / x[p];
  for (std::size_t m = 0; m < bp.q; ++m)
    worst = std::max(worst, bp.kappa * bp.speed_sum * (1 / x[2 * m] + 1 / x[2 * m + 1]));
  x[np] = 1.01 * std::max(1 + bp.kappa * sum, worst) + 1e-9;
  return x;
}

// One centering of the barrier method: Newton steps on phi(., tau) from x, with a backtracking
// line search, until the Newton decrement is below 1e-10, no step decreases phi at this precision,
// 200 steps, or `iterations` (counting the Newton steps of the whole solve) reaches max_iterations.
void center_barrier(const BarrierProblem& bp, double tau, std::vector<double>& x, int& iterations, int max_iterations) {
  const std::size_t N = bp.n + 1;
  std::vector<double> grad, hess, d, trial(N);
  for (int it = 0; it < 200 && iterations < max_iterations; ++it, ++iterations) {
    bp.derivatives(x, tau, grad, hess);
    if (!newton_direction(hess, grad, d)) break;
    double decrement = 0.0;
    for (std::size_t i = 0; i < N; ++i) decrement -= grad[i] * d[i];
    if (decrement / 2 <= 1e-10) break;
    bool ok = false;
    const double f0 = bp.phi(x, tau, ok);
    double step = 1.0;
    for (int halving = 0; halving < 80; ++halving, step *= 0.5) {
      for (std::size_t i = 0; i < N; ++i) trial[i] = x[i] + step * d[i];
      const double f1 = bp.phi(trial, tau, ok);
      if (ok && f1 <= f0 - 0.25 * step * decrement) break;
      ok = false;
    }
    if (!ok) break;  // no progress possible at this precision
    x = trial;
  }
}

}  // namespace

GlobalSolveReport allocate_optimal(const RingNetwork& net, const Workload& load, RingPlan& plan, double gap_tolerance,
                                   int max_iterations) {
  GlobalSolveReport rep;
  const MemberWork work = member_work(net, load, plan);
  if (computes_alone(plan, work, rep)) return rep;
  const auto paths = path_links(plan);
  const BarrierProblem bp = barrier_problem(net, load, plan, paths, work.speed_sum);
  const double tref = load.work / work.speed_sum;
  const std::vector<double> start = barrier_start(net, plan, paths);
  FastestAllocation fastest(net, paths, work, load.comm, start);

  std::vector<double> x = strictly_feasible_barrier_point(bp, start);
  const double m_constraints = static_cast<double>(bp.constraints());
  double tau = m_constraints / x[bp.n];
  bool converged = false;
  for (rep.iterations = 0; rep.iterations < max_iterations;) {
    center_barrier(bp, tau, x, rep.iterations, max_iterations);
    std::vector<double> bw(bp.n);
    for (std::size_t p = 0; p < bp.n; ++p) bw[p] = x[p] * bp.bref;
    fastest.offer(std::move(bw));
    const double gap = m_constraints / tau;  // duality gap, scaled units
    rep.lower_bound = std::max(rep.lower_bound, (x[bp.n] - gap) * tref);
    if (gap <= gap_tolerance * x[bp.n] * 0.5) {
      converged = true;
      break;
    }
    tau *= 10;
  }
  rep.tstep = fastest.tstep();
  rep.gap = std::max(0.0, (rep.tstep - rep.lower_bound) / rep.tstep);
  rep.solver_trouble = !converged && rep.gap > gap_tolerance;
  store_bandwidths(plan, fastest.bandwidths());
  return rep;
}

}  // namespace ringsim::ring
