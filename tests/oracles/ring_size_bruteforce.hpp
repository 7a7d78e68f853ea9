// A test oracle for the ring size options: the best T_step over every ring of exactly n hosts.
// Unlike ring_bruteforce.hpp it uses the planner's own evaluation (the pair paths of
// set_pair_paths and the optimal fractions of allocate_optimal), so that the bound it gives is the
// one the planner's answers must respect.
#pragma once

#include <cstddef>
#include <vector>

#include "planners/ring/ring_plan.hpp"

namespace ringsim::oracles {

// [n-1]: a lower bound of T_step over every subset of n hosts and every cyclic order, each pair of
// neighbours joined by its pair path (RingNetwork::pair_path) in both directions, with the
// fractions that minimize T_step on those paths (the global solve's dual bound, so that the solve's
// gap cannot make the oracle too high). +inf for a size no ring reaches. Exponential: <= 7 hosts.
// When the paths are forced (Full zones: the routes; graph zones that are trees: the only simple
// path), no planner's ring of n hosts can have a lower T_step.
std::vector<double> best_tstep_by_exact_size(const ring::RingNetwork& net, const ring::Workload& load);

}  // namespace ringsim::oracles
