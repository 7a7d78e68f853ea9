// The slides' complete-graph view of a platform (section "Heterogeneous network (complete)"): every
// host pair (i, j) is an edge of cost c_ij = 1/b_ij, b_ij being the bottleneck of the pair's best
// path on the full-capacity network (RingNetwork::full_bandwidth), as if that path were dedicated
// to the pair: link sharing, including between i -> j and j -> i on SHARED links, is ignored.
// With these costs T_step has a closed form for any ring (tstep.hpp), and when all hosts are used
// minimizing Equation 4 is a TSP on d_ij = c_ij / w_i + c_ji / w_j.
//
// Every complete-graph method then hands its ring to finish_with_sharing: the pairs' paths are
// laid on the real network, their fractions are the global optimum for those paths
// (fractions.hpp), and the common evaluator gives the true T_step -- the most favourable
// allocation the chosen ring and paths allow, so that comparisons with the greedy are fair to the
// methods that ignore sharing.
#pragma once

#include <cstddef>
#include <vector>

#include "planners/ring/ring_planner.hpp"

namespace ringsim::ring {

class CompleteGraph {
 public:
  CompleteGraph(const RingNetwork& net, const Workload& load);
  std::size_t size() const { return p_; }
  double cost(std::size_t i, std::size_t j) const { return c_[i * p_ + j]; }
  double speed(std::size_t i) const { return speed_[i]; }
  // The TSP edge weight d_ij = c_ij s_i + c_ji s_j (s = 1/w), symmetric.
  double tsp_weight(std::size_t i, std::size_t j) const { return cost(i, j) * speed_[i] + cost(j, i) * speed_[j]; }
  // Exact T_step (alpha >= 0) of a ring with these costs; q = 1: W w_i.
  double tstep(const std::vector<std::size_t>& ring) const;
  const Workload& load() const { return load_; }

 private:
  std::size_t p_;
  Workload load_;
  std::vector<double> c_, speed_;
  mutable std::vector<double> compute_, comm_;
};

// A locally optimal tour through all hosts for the weights tsp_weight: nearest-neighbour tours
// from several starts, each improved by 2-opt and Or-opt moves (segments of 1 to 3 hosts, both
// orientations) until no move improves; the best tour. Deterministic.
std::vector<std::size_t> local_search_tour(const CompleteGraph& g);
double tour_weight(const CompleteGraph& g, const std::vector<std::size_t>& tour);

// Paths on the network, globally optimal fractions, common evaluation (see above).
void finish_with_sharing(const RingNetwork& net, const Workload& load, const RingOptions& opt, RingPlan& plan);

}  // namespace ringsim::ring
