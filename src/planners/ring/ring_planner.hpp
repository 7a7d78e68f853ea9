// Ring construction methods (SharedRing report Section 4; the slides' complete-graph methods) and
// their registry. Every method returns a plan already put through the common evaluator
// (evaluate_plan): its T_step is computed from its allocated bandwidths, with link sharing.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/named.hpp"
#include "planners/ring/ring_plan.hpp"

namespace ringsim::ring {

// What the greedy minimizes when it chooses the pair and each insertion: Equation 4 (the report's
// insertion cost, Section 4.1, with which its fractions are chosen too), or the exact T_step with
// alpha_i >= 0 (= max(Equation 4, largest communication time): they differ once some member's
// communication alone exceeds Equation 4's value). Both record the exact T_step of every size.
enum class GreedyCriterion { eq4, exact };

// The greedy's progress after each insertion: a ring construction on thousands of hosts without
// interchangeable ones (a SimGrid fat tree) can take hours, and its caller may want to say so.
struct GreedyProgress {
  std::size_t ring_size = 0, hosts = 0;         // hosts in the ring, candidate hosts in all
  std::size_t candidates = 0, evaluations = 0;  // insertions considered, and evaluated exactly, so far
};

struct RingOptions {
  GreedyCriterion criterion = GreedyCriterion::eq4;
  bool prune = true;                      // greedy: branch-and-bound over insertion candidates
  std::size_t first_candidates = 0;       // greedy, pruning: how many are evaluated first (0: 256, 1024 on graph zones)
  bool audit_floors = false;              // greedy, pruning: check every floor against every candidate's bound (tests; slow)
  double global_gap = 1e-6;               // relative gap at which the global fraction solve stops
  double ilp_time_limit = 30.0;           // tsp-ilp: GLPK time limit (s)
  std::size_t exhaustive_max_hosts = 10;  // exhaustive: refuse larger platforms
  std::function<void(const GreedyProgress&)> progress;  // greedy: called after each insertion (if set)
  // Ring sizes allowed in the answer (greedy family only; unset: every size): exactly `size`
  // hosts, or at most `max_size`. The growth stops at the largest allowed size and the answer is
  // the best ring over the allowed sizes. At most one of them may be set.
  std::optional<std::size_t> size, max_size;
};

enum class Refinement { none, maxmin, global };

// Report Section 4: best pair, then cheapest insertion with four widest paths on the residual
// bandwidths (re-injecting the two replaced paths), their fractions minimizing Equation 4; the
// best T_step over all ring sizes (or over those RingOptions::size / max_size allow; InputError
// when they ask for more hosts than the network has or the greedy can grow). Refinement
// (Section 4.3): after every insertion, keep ring and paths and recompute the fractions by
// max-min fairness or by the global convex solve.
RingPlan plan_greedy(const RingNetwork& net, const Workload& load, Refinement refinement, const RingOptions& opt);

// Complete-graph methods (slides): each host pair is one edge whose cost c_ij = 1/b_ij is that of
// its widest path on the full-capacity network (the route on Full zones), sharing ignored.
RingPlan plan_exhaustive(const RingNetwork& net, const Workload& load, const RingOptions& opt);
RingPlan plan_tsp_ilp(const RingNetwork& net, const Workload& load, const RingOptions& opt);
RingPlan plan_tsp_local(const RingNetwork& net, const Workload& load, const RingOptions& opt);
RingPlan plan_ignore_sharing(const RingNetwork& net, const Workload& load, const RingOptions& opt);

const std::vector<NamedInfo>& ring_methods();

// Checks W and H (finite, > 0: InputError otherwise) and the method name (UnknownName listing the
// known ones), then runs it.
RingPlan plan_ring(const RingNetwork& net, const Workload& load, const std::string& method, const RingOptions& opt = {});
void check_workload(const Workload& load);
void check_method(const std::string& method);
// Checks RingOptions::size and max_size without the platform: not both, each >= 1, and only with
// a method that grows a ring through its sizes (the greedy family); InputError otherwise.
void check_size_options(const std::string& method, const RingOptions& opt);

}  // namespace ringsim::ring
