// Exhaustive search over the complete graph (slides, "And, in practice?": "feasible until a dozen
// of processors"). Objective optimized: T_step with the complete-graph costs (sharing ignored),
// exactly, over every subset of hosts and every cyclic order (rotations and reflections give the
// same T_step and are enumerated once). The ring found is then evaluated with sharing
// (finish_with_sharing): `objective` is the no-sharing optimum, `tstep` the true value.
#include <algorithm>
#include <string>

#include "model/errors.hpp"
#include "planners/ring/complete_graph.hpp"

namespace ringsim::ring {

RingPlan plan_exhaustive(const RingNetwork& net, const Workload& load, const RingOptions& opt) {
  const std::size_t p = net.host_count();
  if (p > opt.exhaustive_max_hosts)
    throw InputError("method exhaustive enumerates every ring and is limited to " +
                     std::to_string(opt.exhaustive_max_hosts) + " hosts; the platform has " + std::to_string(p) +
                     " (use greedy)");
  const CompleteGraph g(net, load);
  RingPlan plan;
  plan.method = "exhaustive";
  plan.objective_by_size.assign(p, kInfinity);
  std::vector<std::size_t> best;
  double best_t = kInfinity;
  std::vector<std::size_t> ring;
  for (std::uint64_t mask = 1; mask < (std::uint64_t{1} << p); ++mask) {
    std::vector<std::size_t> members;
    for (std::size_t h = 0; h < p; ++h)
      if (mask >> h & 1) members.push_back(h);
    const std::size_t q = members.size();
    // members[0] stays first; the others in every order, one of each mirror pair (q >= 3).
    std::vector<std::size_t> rest(members.begin() + 1, members.end());
    do {
      if (q >= 3 && rest.front() > rest.back()) continue;
      ring.assign(1, members[0]);
      ring.insert(ring.end(), rest.begin(), rest.end());
      const double t = g.tstep(ring);
      plan.objective_by_size[q - 1] = std::min(plan.objective_by_size[q - 1], t);
      if (t < best_t) {
        best_t = t;
        best = ring;
      }
    } while (std::next_permutation(rest.begin(), rest.end()));
  }
  plan.ring = best;
  plan.objective_name = "tstep_ignoring_sharing";
  plan.objective = best_t;
  plan.optimal = true;  // for the complete-graph objective
  finish_with_sharing(net, load, opt, plan);
  return plan;
}

}  // namespace ringsim::ring
