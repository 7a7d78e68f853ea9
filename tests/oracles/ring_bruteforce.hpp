// Test oracles for ring construction, written independently of src/planners/ring/: they read the
// Platform directly and compute T_step by bisection rather than by water filling.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/platform_graph.hpp"

namespace ringsim::oracles {

// T_step of one ring given a_i = W w_i and b_i = H (c_pred + c_succ): the smallest T >= max b_i with
// sum_i max(0, (T - b_i) / a_i) >= 1, by bisection to relative 1e-14.
double ring_tstep_bisection(const std::vector<double>& a, const std::vector<double>& b);

// Best T_step over every subset of hosts and every order (no symmetry removed) on the complete
// graph with costs cost[i][j] (member i's comm time is H (cost[i][pred] + cost[i][succ])).
// Exponential: n <= 8.
double brute_force_complete_graph(const std::vector<double>& speed, const std::vector<std::vector<double>>& cost,
                                  double work, double comm);

// The widest-path bottleneck between two nodes of a graph-routed platform by brute force: the
// largest capacity threshold t such that the nodes are connected using links of capacity >= t.
double bottleneck_bruteforce(const Platform& p, std::size_t a, std::size_t b);

// An answer as plain data: host names in ring order and, per member, its successor and
// predecessor paths (link names) with their bandwidths.
struct RingAnswer {
  std::vector<std::string> ring;
  std::vector<std::vector<std::string>> succ_links, pred_links;
  std::vector<double> succ_bw, pred_bw;
  double tstep = 0.0;
};

// Re-checks an answer against the platform: known distinct hosts; graph zones: each path is a walk
// along the platform's edges from the member to its neighbour; Full zones: it is the route;
// SHARED links carry at most their bandwidth (sum over paths, both directions), FATPIPE links at
// most their bandwidth per path (relative 1e-9); then recomputes T_step. Returns "" when the
// answer is consistent and its T_step matches `tstep` to relative 1e-9, else what is wrong.
std::string check_ring_answer(const Platform& p, double work, double comm, const RingAnswer& ans);

}  // namespace ringsim::oracles
