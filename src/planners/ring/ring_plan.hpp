// A SharedRing solution (report, Definition 1): q hosts in ring order, the 2q communication paths
// (S_i from member i to its successor, P_i to its predecessor) with their allocated bandwidths,
// and, once evaluated, the shares alpha_i and T_step.
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "planners/ring/ring_network.hpp"

namespace ringsim::ring {

// The application's parameters: W (flops per iteration, the whole matrix) and H (bytes sent by a
// member to each neighbour per iteration, one border column).
struct Workload {
  double work = 0.0;  // W
  double comm = 0.0;  // H
};

struct RingPlan {
  std::string method;
  std::vector<std::size_t> ring;      // host ids, in ring order
  std::vector<HostPath> succ, pred;   // per member, same order as `ring`; empty when q == 1
  std::vector<double> succ_bw, pred_bw;  // allocated bandwidth (bytes/s) of those paths

  // ---- filled by evaluate_plan (the common evaluator) ----
  double tstep = NAN;      // exact, alpha_i >= 0
  double tstep_eq4 = NAN;  // Equation 4 with these costs (lower when a share would be negative)
  double wcumul = NAN;     // 1 / sum_i (1 / w_i) over the members (s/flop)
  std::vector<double> alpha, compute_time, comm_time;  // per member: alpha_i W w_i, H (c_pred + c_succ)

  // ---- what the method says about itself ----
  std::string objective_name;  // the quantity the method optimized, when not T_step itself
  double objective = NAN;
  std::string fractions;        // how the bandwidths were allocated
  double fraction_gap = NAN;    // relative optimality gap of the global fraction solve, if used
  std::optional<bool> optimal;  // the method proved its objective optimal
  double mip_gap = NAN;
  std::vector<double> tstep_by_size;  // [q-1]: T_step of the ring of q members the method built
  std::vector<double> objective_by_size;  // [q-1]: the method's own objective at each size
  std::string criterion;              // greedy: what chose the pair and the insertions
  std::size_t candidates = 0;         // greedy: insertion candidates considered
  std::size_t evaluations = 0;        // greedy: candidates evaluated exactly (four widest paths)
  std::string note;

  std::size_t size() const { return ring.size(); }
};

// The common evaluator, used on every method's answer: checks that the 2q paths join the right
// hosts along the platform (graph zones: consecutive links form a walk; Full zones: the route),
// that every SHARED link carries at most its bandwidth (sum over the paths crossing it, both
// directions) and every FATPIPE link at most its bandwidth per path (relative tolerance 1e-9),
// then computes c = 1/bandwidth, the exact T_step with alpha_i >= 0, Equation 4 and the shares.
// Throws std::logic_error on a violated constraint (a planner bug, not bad input).
void evaluate_plan(const RingNetwork& net, const Workload& load, RingPlan& plan);

// The paths of a ring of hosts on the full-capacity network: each neighbour pair's path
// (RingNetwork::pair_path) in both directions. Bandwidths are left empty.
void set_pair_paths(const RingNetwork& net, RingPlan& plan);

// Usage of every SHARED link by the plan's paths (FATPIPE links: 0).
std::vector<double> link_usage(const RingNetwork& net, const RingPlan& plan);

}  // namespace ringsim::ring
