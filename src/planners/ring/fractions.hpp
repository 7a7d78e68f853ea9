// Bandwidth fractions for a ring whose members, order and paths are fixed (report, Section 4.3):
// the two refinements of the greedy heuristic, also used by the common evaluation of the
// complete-graph methods (which choose rings and paths without looking at sharing).
#pragma once

#include "planners/ring/ring_plan.hpp"

namespace ringsim::ring {

// Method 1: max-min fairness over the 2q paths (progressive filling on the full capacities).
void allocate_maxmin(const RingNetwork& net, RingPlan& plan);

struct GlobalSolveReport {
  double tstep = 0.0;        // T_step of the allocation kept (an upper bound of the optimum)
  double lower_bound = 0.0;  // a lower bound of the optimum (dual bound / LP outer approximation)
  double gap = 0.0;          // (tstep - lower_bound) / tstep
  int iterations = 0;        // Newton steps (barrier) or LP solves (cutting planes)
  bool solver_trouble = false;  // the gap could not be reached numerically
};

// Method 2, exactly (the report used KINSOL on the quadratic system): minimize T subject to
// sum alpha_i = 1, alpha_i >= 0, alpha_i W w_i + H (y_S(i) + y_P(i)) <= T, y_p >= 1/f_p, the SHARED
// link capacities sum_{p through e} f_p <= b_e and f_p <= b_e on FATPIPE links. The problem is
// convex (1/f is convex for f > 0). Solved by a barrier (interior-point) method, Newton steps on
// the equivalent problem in the fractions alone (T_step = max(Equation 4, largest communication
// time), tstep.hpp), until the duality gap is below gap_tolerance (relative); the lower bound is
// the barrier's dual bound. The best allocation found is written into the plan. `solver_trouble`
// when the gap could not be reached (the best allocation so far is kept).
GlobalSolveReport allocate_optimal(const RingNetwork& net, const Workload& load, RingPlan& plan,
                                   double gap_tolerance = 1e-6, int max_iterations = 3000);

// The same problem by Kelley's cutting planes with GLPK (much slower; an independent check in the
// tests): GLPK solves the LP in which each y_p >= 1/f_p is replaced by tangents y_p >= 2/f0 - f_p/f0^2 (an outer approximation: its optimum
// is a lower bound); the LP's fractions, scaled onto the capacities, give a feasible allocation
// whose exact T_step is an upper bound; tangents are added at the LP point until the relative gap
// is <= gap_tolerance (or max_iterations LPs). The best allocation found is written into the plan;
// if GLPK fails numerically the search stops there and the report says so (its gap is then what
// was reached).
GlobalSolveReport allocate_optimal_lp(const RingNetwork& net, const Workload& load, RingPlan& plan,
                                      double gap_tolerance = 1e-6, int max_iterations = 400);

}  // namespace ringsim::ring
