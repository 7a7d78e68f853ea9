#include "planners/ring/ring_planner.hpp"

#include <cmath>
#include <string>

#include "model/errors.hpp"

namespace ringsim::ring {

namespace {

using PlanFn = RingPlan (*)(const RingNetwork&, const Workload&, const RingOptions&);

struct Entry : NamedInfo {
  PlanFn run;
};

const std::vector<Entry>& registry() {
  static const std::vector<Entry> methods = {
      {{"greedy", "SharedRing greedy (report Section 4): best pair, cheapest insertions with four widest paths on "
                 "the residual bandwidths, best ring size; sharing-aware (the slides' H2)"},
       [](const RingNetwork& net, const Workload& load, const RingOptions& opt) {
         return plan_greedy(net, load, Refinement::none, opt);
       }},
      {{"greedy-maxmin", "greedy, fractions recomputed by max-min fairness after every insertion (Section 4.3)"},
       [](const RingNetwork& net, const Workload& load, const RingOptions& opt) {
         return plan_greedy(net, load, Refinement::maxmin, opt);
       }},
      {{"greedy-global", "greedy, fractions and shares recomputed by the exact convex solve after every insertion "
                        "(Section 4.3)"},
       [](const RingNetwork& net, const Workload& load, const RingOptions& opt) {
         return plan_greedy(net, load, Refinement::global, opt);
       }},
      {{"exhaustive", "every subset and cyclic order, complete-graph costs (sharing ignored for the choice); up to "
                     "10 hosts"},
       plan_exhaustive},
      {{"tsp-ilp", "all hosts, the slides' TSP integer program with MTZ constraints (GLPK, time-limited)"},
       plan_tsp_ilp},
      {{"tsp-local", "all hosts, TSP tour by 2-opt and Or-opt local search on the complete-graph costs"},
       plan_tsp_local},
      {{"ignore-sharing", "the slides' H1: complete-graph greedy ignoring link sharing, then evaluated with sharing"},
       plan_ignore_sharing},
  };
  return methods;
}

}  // namespace

const std::vector<NamedInfo>& ring_methods() {
  static const std::vector<NamedInfo> infos = infos_of(registry());
  return infos;
}

void check_workload(const Workload& load) {
  if (!std::isfinite(load.work) || load.work <= 0)
    throw InputError("--work must be a finite number > 0 (flops per iteration)");
  if (!std::isfinite(load.comm) || load.comm <= 0)
    throw InputError("--comm must be a finite number > 0 (bytes per neighbour per iteration)");
}

RingPlan plan_ring(const RingNetwork& net, const Workload& load, const std::string& method, const RingOptions& opt) {
  check_workload(load);
  check_size_options(method, opt);
  return find_named(registry(), method, "ring method").run(net, load, opt);
}

void check_method(const std::string& method) { find_named(registry(), method, "ring method"); }

// Only the greedy family builds a ring of every size from 1 up, so only it can answer "the best
// ring of n hosts" with the ring it grew; the complete-graph methods choose their size otherwise.
void check_size_options(const std::string& method, const RingOptions& opt) {
  if (opt.size && opt.max_size)
    throw InputError("--size and --max-size exclude each other (--size N: exactly N hosts, --max-size N: at most N)");
  const char* name = opt.size ? "--size" : "--max-size";
  const auto n = opt.size ? opt.size : opt.max_size;
  if (!n) return;
  if (*n < 1) throw InputError(std::string(name) + " must be an integer >= 1 (hosts in the ring)");
  if (method != "greedy" && method != "greedy-maxmin" && method != "greedy-global")
    throw InputError(std::string(name) + " applies to the methods that grow a ring (greedy, greedy-maxmin, " +
                     "greedy-global), not '" + method + "'");
}

}  // namespace ringsim::ring
