// Heterogeneous bidirectional ring, light redistributions (HiPC 2004, Section 6): System 2 solved
// in rationals by GLPK, rounded to integers ("one of the two natural ways of rounding always leads
// to an optimal (integer) solution"), and executed with the Lemma 4 schedule.
#include "planners/redistribution/light_glpk.hpp"

#include <glpk.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/errors.hpp"
#include "planners/glpk_problem.hpp"
#include "planners/redistribution/asap_schedule.hpp"
#include "planners/redistribution/redistribution_algorithms.hpp"
#include "planners/redistribution/ring_math.hpp"
#include "planners/redistribution/system2_circulation.hpp"

namespace ringsim::redistribution {
namespace {

bool light_circulation(const RingInstance& inst, const std::vector<Count>& delta,
                       const std::vector<Count>& F, Count x) {
  for (std::size_t i = 0; i < inst.size(); ++i)
    if (items_sent(delta, F, i, x) > inst.loads[i]) return false;
  return true;
}

// Columns: S_(i,i+1) = 1 + i, S_(i,i-1) = 1 + n + i, tau = 2n + 1 (GLPK is 1-based).
int system2_next_col(std::size_t i) { return 1 + static_cast<int>(i); }
int system2_prev_col(std::size_t n, std::size_t i) { return 1 + static_cast<int>(n) + static_cast<int>(i); }
int system2_tau_col(std::size_t n) { return 2 * static_cast<int>(n) + 1; }

// System 2 as a linear program minimizing tau. Rows: conservation (third line of System 2) 1 + i,
// sending time (fourth) 1 + n + i, receiving time (fifth) 1 + 2n + i. Ten non-zeros per processor:
// loaded sparsely.
planners::GlpkProblem system2_program(const RingInstance& inst, const std::vector<Count>& delta) {
  const std::size_t n = inst.size();
  const int N = static_cast<int>(n);
  auto next_col = [](std::size_t i) { return system2_next_col(i); };
  auto prev_col = [n](std::size_t i) { return system2_prev_col(n, i); };
  const int tau_col = system2_tau_col(n);

  glp_term_out(GLP_OFF);
  planners::GlpkProblem lp(glp_create_prob());
  glp_set_obj_dir(lp.get(), GLP_MIN);
  glp_add_cols(lp.get(), tau_col);
  for (int c = 1; c <= tau_col; ++c) glp_set_col_bnds(lp.get(), c, GLP_LO, 0.0, 0.0);
  glp_set_obj_coef(lp.get(), tau_col, 1.0);
  glp_add_rows(lp.get(), 3 * N);

  std::vector<int> ia{0}, ja{0};
  std::vector<double> ar{0.0};
  ia.reserve(10 * n + 1), ja.reserve(10 * n + 1), ar.reserve(10 * n + 1);
  auto put = [&](int row, int col, double v) {
    ia.push_back(row), ja.push_back(col), ar.push_back(v);
  };
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t p = inst.prev(i), s = inst.next(i);
    const int cons = 1 + static_cast<int>(i), send = cons + N, recv = cons + 2 * N;
    // S_(i,i+1) + S_(i,i-1) - S_(i+1,i) - S_(i-1,i) = delta_i. On a 2-ring P_(i+1) = P_(i-1), but
    // S_(i+1,i) and S_(i-1,i) still use different links, hence different columns.
    put(cons, next_col(i), 1.0);
    put(cons, prev_col(i), 1.0);
    put(cons, prev_col(s), -1.0);
    put(cons, next_col(p), -1.0);
    glp_set_row_bnds(lp.get(), cons, GLP_FX, static_cast<double>(delta[i]), static_cast<double>(delta[i]));
    put(send, next_col(i), inst.cost_next[i]);
    put(send, prev_col(i), inst.cost_prev[i]);
    put(send, tau_col, -1.0);
    glp_set_row_bnds(lp.get(), send, GLP_UP, 0.0, 0.0);
    put(recv, prev_col(s), inst.cost_prev[s]);
    put(recv, next_col(p), inst.cost_next[p]);
    put(recv, tau_col, -1.0);
    glp_set_row_bnds(lp.get(), recv, GLP_UP, 0.0, 0.0);
  }
  glp_load_matrix(lp.get(), static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
  return lp;
}

// Solves System 2's program to optimality, or throws an InputError that says why not.
void solve_system2_program(planners::GlpkProblem& lp, std::size_t n) {
  // Dual simplex with presolve: several times faster than the primal on large rings
  // (bench/NOTES.md, "Measurements behind the code's choices").
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.meth = GLP_DUALP;
  parm.presolve = GLP_ON;
  std::optional<int> rc = planners::solve_guarded(lp, [&parm](glp_prob* p) { return glp_simplex(p, &parm); });
  const auto solved = [&] { return rc == 0 && glp_get_status(lp.get()) == GLP_OPT; };
  if (rc && !solved()) {
    // Presolve judges feasibility with absolute tolerances, which item counts and costs far from 1
    // defeat: the primal simplex on the scaled program itself, then a refusal. Its iterations are
    // bounded (it can cycle on such values): a few per row are what a solvable program takes.
    parm.meth = GLP_PRIMAL;
    parm.presolve = GLP_OFF;
    parm.it_lim = 1000 + 30 * static_cast<int>(n);
    rc = planners::solve_guarded(lp, [&parm](glp_prob* p) {
      glp_scale_prob(p, GLP_SF_AUTO);
      glp_adv_basis(p, 0);
      return glp_simplex(p, &parm);
    });
  }
  if (!rc || !solved()) {
    std::ostringstream os;
    os << "bi-light-glpk: GLPK's simplex cannot solve System 2 for this instance (";
    if (rc) os << "return code " << *rc << ", status " << glp_get_status(lp.get());
    else os << "an internal error of GLPK";
    os << "): its item counts or costs are too far from 1 for the solver's tolerances; bi-light solves System 2 exactly";
    throw InputError(os.str());
  }
}

// The circulation x of the solved program. The net flow on (P_i, P_(i+1)) is S_(i,i+1) - S_(i+1,i)
// = F_i + x for one constant x (conservation); averaging over the edges damps the simplex's round-off.
double system2_lp_circulation(const planners::GlpkProblem& lp, const RingInstance& inst, const std::vector<Count>& F) {
  const std::size_t n = inst.size();
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double net = glp_get_col_prim(lp.get(), system2_next_col(i)) -
                       glp_get_col_prim(lp.get(), system2_prev_col(n, inst.next(i)));
    sum += net - static_cast<double>(F[i]);
  }
  return sum / static_cast<double>(n);
}

// Lemma 4 only guarantees tau for a light solution, and the rounding may pick an optimal but
// non-light circulation while a light one ties with it (the paper's test "S_(i,i+1) + S_(i,i-1)
// <= L_i" on the solution found). Light circulations form an interval of x, and tau(x) is
// convex, so the light x nearest to the rounding is optimal whenever any light x is: r.x moves
// there when it ties with `best`, the rounding's time.
void move_rounding_to_light(const RingInstance& inst, const std::vector<Count>& delta, const std::vector<Count>& F,
                            double best, System2Relaxation& r) {
  if (light_circulation(inst, delta, F, r.x)) return;
  Count lo = std::numeric_limits<Count>::min(), hi = std::numeric_limits<Count>::max();
  for (std::size_t i = 0; i < inst.size(); ++i) {
    lo = std::max(lo, -F[inst.prev(i)] - inst.loads[i]);
    hi = std::min(hi, inst.loads[i] - F[i]);
  }
  if (lo > hi) return;
  const Count x_light = std::clamp(r.x, lo, hi);
  if (system2_time(inst, F, x_light) <= best * (1 + 1e-12)) {  // a tie, up to summation order
    r.x = x_light;
    r.moved_to_light = true;
  }
}

}  // namespace

System2Relaxation solve_system2_relaxation(const RingInstance& inst) {
  if (!inst.bidirectional) throw std::invalid_argument("bi-light-glpk needs a bidirectional ring");
  const auto delta = imbalances(inst);
  const auto F = prefix_imbalances(delta);
  planners::GlpkProblem lp = system2_program(inst, delta);
  solve_system2_program(lp, inst.size());

  System2Relaxation r;
  r.lp_tau = glp_get_obj_val(lp.get());
  r.x_star = system2_lp_circulation(lp, inst, F);
  r.x_floor = static_cast<Count>(std::floor(r.x_star));
  r.x_ceil = static_cast<Count>(std::ceil(r.x_star));
  r.tau_floor = system2_time(inst, F, r.x_floor);
  r.tau_ceil = system2_time(inst, F, r.x_ceil);
  // tau(x) is convex in x, so the best integer x neighbours any rational optimum.
  r.x = r.tau_ceil < r.tau_floor ? r.x_ceil : r.x_floor;
  move_rounding_to_light(inst, delta, F, std::min(r.tau_floor, r.tau_ceil), r);
  r.tau = system2_time(inst, F, r.x);
  return r;
}

RedistributionPlan plan_light_glpk(const RingInstance& inst) {
  const auto r = solve_system2_relaxation(inst);
  const auto delta = imbalances(inst);
  const auto F = prefix_imbalances(delta);
  auto flows = flows_for_circulation(F, r.x);
  RedistributionPlan plan;
  plan.planner = "bi-light-glpk";
  plan.transfers = schedule_asap(inst, flows.send_next, flows.send_prev, PortPolicy::next_then_prev);
  plan.time = makespan(plan.transfers);
  plan.send_next = std::move(flows.send_next);
  plan.send_prev = std::move(flows.send_prev);
  std::ostringstream os;
  os.precision(12);
  os << "System 2 LP value " << r.lp_tau << ", LP circulation " << r.x_star << "; rounded to x = " << r.x
     << " (tau(floor) = " << r.tau_floor << ", tau(ceil) = " << r.tau_ceil << ")";
  plan.notes.push_back(os.str());
  if (r.moved_to_light) plan.notes.push_back("the rounding was not light: moved to the nearest light circulation, which ties");
  if (!light_circulation(inst, delta, F, r.x))
    plan.notes.push_back("not light: some processor must forward items it receives");
  return plan;
}

}  // namespace ringsim::redistribution
