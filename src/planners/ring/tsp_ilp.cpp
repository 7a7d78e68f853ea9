// All hosts in a ring ordered by the slides' integer program ("All the processors participate:
// linear program"): minimize sum d_ij x_ij, d_ij = c_ij / w_i + c_ji / w_j (Equation 4's sum with
// the complete-graph costs), each host left once and entered once, x binary, and the
// Miller-Tucker-Zemlin constraints u_i - u_j + p x_ij <= p - 1 (2 <= i != j <= p) against subtours
// (u continuous: MTZ needs no integrality on u). Solved by GLPK's branch and cut, started from the
// tsp-local tour, within RingOptions::ilp_time_limit; `optimal` says whether GLPK proved it.
// Then the tour is evaluated with sharing (finish_with_sharing).
#include <glpk.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "planners/glpk_problem.hpp"
#include "planners/ring/complete_graph.hpp"

namespace ringsim::ring {
namespace {

struct CallbackData {
  std::vector<double> start;  // 1-based column values of the heuristic tour
  bool offered = false;
  double gap = NAN;
};

void callback(glp_tree* tree, void* info) {
  auto* data = static_cast<CallbackData*>(info);
  if (glp_ios_reason(tree) == GLP_IHEUR && !data->offered) {
    data->offered = true;
    glp_ios_heur_sol(tree, data->start.data());
  }
  if (glp_ios_reason(tree) == GLP_ISELECT || glp_ios_reason(tree) == GLP_IBINGO) data->gap = glp_ios_mip_gap(tree);
}

// x_ij: column 1 + i * (p - 1) + (j < i ? j : j - 1); u_i (i >= 1): column p (p - 1) + i.
int tsp_x_col(int P, int i, int j) { return 1 + i * (P - 1) + (j < i ? j : j - 1); }
int tsp_u_col(int P, int i) { return P * (P - 1) + i; }

// The integer program of the file's header, its weights scaled by the largest one.
planners::GlpkProblem tsp_program(const CompleteGraph& g) {
  const std::size_t p = g.size();
  double dmax = 0.0;
  for (std::size_t i = 0; i < p; ++i)
    for (std::size_t j = 0; j < p; ++j)
      if (i != j) dmax = std::max(dmax, g.tsp_weight(i, j));

  glp_term_out(GLP_OFF);
  planners::GlpkProblem lp(glp_create_prob());
  glp_set_obj_dir(lp.get(), GLP_MIN);
  const int P = static_cast<int>(p);
  auto x_col = [P](int i, int j) { return tsp_x_col(P, i, j); };
  auto u_col = [P](int i) { return tsp_u_col(P, i); };
  glp_add_cols(lp.get(), P * (P - 1) + (P - 1));
  for (int i = 0; i < P; ++i)
    for (int j = 0; j < P; ++j) {
      if (i == j) continue;
      glp_set_col_kind(lp.get(), x_col(i, j), GLP_BV);
      glp_set_obj_coef(lp.get(), x_col(i, j), g.tsp_weight(static_cast<std::size_t>(i), static_cast<std::size_t>(j)) / dmax);
    }
  for (int i = 1; i < P; ++i) glp_set_col_bnds(lp.get(), u_col(i), GLP_DB, 1.0, P - 1.0);
  std::vector<int> ind(static_cast<std::size_t>(P) + 1);
  std::vector<double> val(static_cast<std::size_t>(P) + 1, 1.0);
  for (int i = 0; i < P; ++i) {  // leave i once, enter i once
    for (int dir = 0; dir < 2; ++dir) {
      const int row = glp_add_rows(lp.get(), 1);
      int len = 0;
      for (int j = 0; j < P; ++j)
        if (j != i) ind[static_cast<std::size_t>(++len)] = dir == 0 ? x_col(i, j) : x_col(j, i);
      glp_set_mat_row(lp.get(), row, len, ind.data(), val.data());
      glp_set_row_bnds(lp.get(), row, GLP_FX, 1.0, 1.0);
    }
  }
  for (int i = 1; i < P; ++i)
    for (int j = 1; j < P; ++j) {
      if (i == j) continue;
      const int row = glp_add_rows(lp.get(), 1);
      int idx[4] = {0, u_col(i), u_col(j), x_col(i, j)};
      double v[4] = {0, 1.0, -1.0, static_cast<double>(P)};
      glp_set_mat_row(lp.get(), row, 3, idx, v);
      glp_set_row_bnds(lp.get(), row, GLP_UP, 0.0, P - 1.0);
    }
  return lp;
}

// A tour (starting at host 0) as 1-based column values of the program: its arcs' x and its
// hosts' positions u.
std::vector<double> tsp_columns_of_tour(const std::vector<std::size_t>& tour) {
  const std::size_t p = tour.size();
  const int P = static_cast<int>(p);
  std::vector<double> columns(static_cast<std::size_t>(tsp_u_col(P, P - 1)) + 1, 0.0);
  for (std::size_t t = 0; t < p; ++t) {
    const int a = static_cast<int>(tour[t]), b = static_cast<int>(tour[(t + 1) % p]);
    columns[static_cast<std::size_t>(tsp_x_col(P, a, b))] = 1.0;
    if (a != 0) columns[static_cast<std::size_t>(tsp_u_col(P, a))] = static_cast<double>(t);
  }
  return columns;
}

// The tour of the program's integer solution from host 0, following the arcs with x = 1; shorter
// than p hosts when the solution breaks off.
std::vector<std::size_t> tsp_tour_of_solution(const planners::GlpkProblem& lp, std::size_t p) {
  const int P = static_cast<int>(p);
  std::vector<std::size_t> tour;
  std::size_t at = 0;
  do {
    tour.push_back(at);
    std::size_t next = p;
    for (std::size_t j = 0; j < p; ++j)
      if (j != at && glp_mip_col_val(lp.get(), tsp_x_col(P, static_cast<int>(at), static_cast<int>(j))) > 0.5) next = j;
    if (next == p) break;
    at = next;
  } while (at != 0 && tour.size() <= p);
  return tour;
}

}  // namespace

RingPlan plan_tsp_ilp(const RingNetwork& net, const Workload& load, const RingOptions& opt) {
  const CompleteGraph g(net, load);
  const std::size_t p = g.size();
  RingPlan plan;
  plan.method = "tsp-ilp";
  plan.objective_name = "tstep_ignoring_sharing";
  if (p <= 3) {  // every cyclic order of <= 3 hosts is the same ring
    for (std::size_t h = 0; h < p; ++h) plan.ring.push_back(h);
    plan.optimal = true;
    plan.mip_gap = 0.0;
    plan.objective = g.tstep(plan.ring);
    finish_with_sharing(net, load, opt, plan);
    return plan;
  }
  const auto start_tour = local_search_tour(g);
  planners::GlpkProblem lp = tsp_program(g);
  // The heuristic tour as GLPK's first incumbent (columns of the original problem: no presolve).
  CallbackData data;
  data.start = tsp_columns_of_tour(start_tour);
  glp_smcp smcp;
  glp_init_smcp(&smcp);
  smcp.msg_lev = GLP_MSG_OFF;
  if (glp_simplex(lp.get(), &smcp) != 0 || glp_get_status(lp.get()) != GLP_OPT)
    throw std::runtime_error("tsp-ilp: GLPK could not solve the LP relaxation");
  glp_iocp iocp;
  glp_init_iocp(&iocp);
  iocp.msg_lev = GLP_MSG_OFF;
  iocp.presolve = GLP_OFF;
  iocp.tm_lim = static_cast<int>(std::min(opt.ilp_time_limit, 2e6) * 1000);
  iocp.cb_func = callback;
  iocp.cb_info = &data;
  iocp.gmi_cuts = GLP_ON;
  iocp.mir_cuts = GLP_ON;
  const int ret = glp_intopt(lp.get(), &iocp);
  const int status = glp_mip_status(lp.get());
  std::vector<std::size_t> tour;
  if ((ret == 0 || ret == GLP_ETMLIM || ret == GLP_EMIPGAP) && (status == GLP_OPT || status == GLP_FEAS))
    tour = tsp_tour_of_solution(lp, p);
  if (tour.size() != p) {  // no incumbent better than nothing: keep the heuristic tour
    tour = start_tour;
    plan.note = "GLPK found no integer solution in the time limit; the tsp-local tour is returned";
  }
  plan.optimal = status == GLP_OPT && ret == 0;
  plan.mip_gap = plan.optimal.value() ? 0.0 : data.gap;
  plan.ring = tour;
  plan.objective = g.tstep(plan.ring);
  if (plan.note.empty())
    plan.note = "all hosts; tour weight (Equation 4's sum) " + std::to_string(tour_weight(g, tour)) +
                (plan.optimal.value() ? " (optimal)" : " (time limit reached)");
  finish_with_sharing(net, load, opt, plan);
  return plan;
}

}  // namespace ringsim::ring
