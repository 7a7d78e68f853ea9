// Graph zones: a second, tighter bound on a candidate's pair bandwidths, on the residual network
// of the step, for the candidates the first bound (insertion_bounds.cpp) leaves in the race.
//
// Why it is an upper bound. evaluate() finds k -> i on the residual network with S_i and P_j given
// back, and those are the only links whose capacity grows. A path from k to i either avoids their
// links or first reaches one of their nodes x without them: its bottleneck is at most the largest,
// over x, of min(residual widest k ~ x, widest x ~ i with any position's re-injection). Widest
// bottlenecks come from maximum spanning trees (BottleneckTree): one of the residual network, one
// of the residual plus the largest re-injection of one position (FATPIPE links unlimited: they
// bound sums of fractions). The four paths at k cross k's incident links, whose residual plus
// re-injection bounds their sum. Set up lazily, per step and per host k and position.
#pragma once

#include <cstdint>
#include <vector>

#include "planners/ring/greedy.hpp"

namespace ringsim::ring::greedy {

class ResidualBound {
 public:
  explicit ResidualBound(Greedy& g) : g_(g) {}
  // Raises c.soft (and c.bound) to the bound on the residual network (graph zones; nothing on
  // fixed routes).
  void tighten(Candidate& c, const std::vector<PosInfo>& pos_info);

 private:
  void start();
  void prepare_residual_plus();
  void prepare_host(std::size_t k);
  void prepare_position(std::size_t pos);
  void path_nodes(std::size_t from, const std::vector<std::size_t>& links, std::vector<std::uint32_t>& out) const;

  Greedy& g_;
  bool started_ = false;
  std::vector<std::vector<std::uint32_t>> xs_;  // per position: the nodes of S_i and P_j
  std::vector<std::vector<double>> to_i_, to_j_, from_k_;
  std::vector<double> pool_plus_;
  std::vector<char> xs_ready_;  // per position: xs_, to_i_ and to_j_ computed (when first needed)
};

}  // namespace ringsim::ring::greedy
