#include "oracles/ring_size_bruteforce.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "planners/ring/fractions.hpp"

namespace ringsim::oracles {

std::vector<double> best_tstep_by_exact_size(const ring::RingNetwork& net, const ring::Workload& load) {
  const std::size_t p = net.host_count();
  if (p > 7) throw std::invalid_argument("best_tstep_by_exact_size: more than 7 hosts");
  std::vector<double> best(p, std::numeric_limits<double>::infinity());
  for (unsigned mask = 1; mask < (1u << p); ++mask) {
    std::vector<std::size_t> members;
    for (std::size_t h = 0; h < p; ++h)
      if (mask >> h & 1) members.push_back(h);
    // A ring is a cycle: rotations are the same ring, so the first member stays first; every order
    // of the others is tried (reversals included: routes need not be symmetric).
    do {
      ring::RingPlan plan;
      plan.ring = members;
      ring::set_pair_paths(net, plan);
      const auto rep = ring::allocate_optimal(net, load, plan);
      double& b = best[members.size() - 1];
      b = std::min(b, rep.lower_bound);
    } while (std::next_permutation(members.begin() + 1, members.end()));
  }
  return best;
}

}  // namespace ringsim::oracles
