#include "planners/ring/ring_planner.hpp"

#include <cmath>
#include <sstream>

#include "model/errors.hpp"

namespace ringsim::ring {

const std::vector<RingMethodInfo>& ring_methods() {
  static const std::vector<RingMethodInfo> methods = {
      {"greedy", "SharedRing greedy (report Section 4): best pair, cheapest insertions with four widest paths on "
                 "the residual bandwidths, best ring size; sharing-aware (the slides' H2)"},
      {"greedy-maxmin", "greedy, fractions recomputed by max-min fairness after every insertion (Section 4.3)"},
      {"greedy-global", "greedy, fractions and shares recomputed by the exact convex solve after every insertion "
                        "(Section 4.3)"},
      {"exhaustive", "every subset and cyclic order, complete-graph costs (sharing ignored for the choice); up to "
                     "10 hosts"},
      {"tsp-ilp", "all hosts, the slides' TSP integer program with MTZ constraints (GLPK, time-limited)"},
      {"tsp-local", "all hosts, TSP tour by 2-opt and Or-opt local search on the complete-graph costs"},
      {"ignore-sharing", "the slides' H1: complete-graph greedy ignoring link sharing, then evaluated with sharing"},
  };
  return methods;
}

void check_workload(const Workload& load) {
  if (!std::isfinite(load.work) || load.work <= 0)
    throw InputError("--work must be a finite number > 0 (flops per iteration)");
  if (!std::isfinite(load.comm) || load.comm <= 0)
    throw InputError("--comm must be a finite number > 0 (bytes per neighbour per iteration)");
}

RingPlan plan_ring(const RingNetwork& net, const Workload& load, const std::string& method, const RingOptions& opt) {
  check_workload(load);
  if (method == "greedy") return plan_greedy(net, load, Refinement::none, opt);
  if (method == "greedy-maxmin") return plan_greedy(net, load, Refinement::maxmin, opt);
  if (method == "greedy-global") return plan_greedy(net, load, Refinement::global, opt);
  if (method == "exhaustive") return plan_exhaustive(net, load, opt);
  if (method == "tsp-ilp") return plan_tsp_ilp(net, load, opt);
  if (method == "tsp-local") return plan_tsp_local(net, load, opt);
  if (method == "ignore-sharing") return plan_ignore_sharing(net, load, opt);
  check_method(method);
  throw InputError("unknown ring method '" + method + "'");
}

void check_method(const std::string& method) {
  std::ostringstream known;
  for (const auto& m : ring_methods()) {
    if (m.name == method) return;
    known << (known.tellp() > 0 ? ", " : "") << m.name;
  }
  throw InputError("unknown ring method '" + method + "' (known: " + known.str() + ")");
}

}  // namespace ringsim::ring
