// All hosts in a ring ordered by a local-search TSP heuristic (slides: "All processors
// participate. One can use a heuristic to solve the traveling salesman problem"). Objective
// optimized: Equation 4 with the complete-graph costs, i.e. the tour weight sum d_ij with
// d_ij = c_ij / w_i + c_ji / w_j (2-opt and Or-opt from nearest-neighbour starts, a local optimum).
// Then the tour is evaluated with sharing (finish_with_sharing).
#include "planners/ring/complete_graph.hpp"

namespace ringsim::ring {

RingPlan plan_tsp_local(const RingNetwork& net, const Workload& load, const RingOptions& opt) {
  const CompleteGraph g(net, load);
  RingPlan plan;
  plan.method = "tsp-local";
  plan.ring = local_search_tour(g);
  plan.objective_name = "tstep_ignoring_sharing";
  plan.objective = g.tstep(plan.ring);
  plan.note = "all hosts; tour weight (Equation 4's sum) " + std::to_string(tour_weight(g, plan.ring));
  finish_with_sharing(net, load, opt, plan);
  return plan;
}

}  // namespace ringsim::ring
