// Bandwidth fractions for a set of paths whose links are known (SharedRing report, Sections 2.1,
// 4.2 and 4.3). A path's bandwidth f_p is the smallest fraction it gets on its links; on a SHARED
// link the fractions of all the paths crossing it (in either direction) sum to at most its
// capacity; a FATPIPE link only caps each path at its capacity.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ringsim::ring {

class RingNetwork;

// A SHARED-link constraint of a small problem: the paths whose bits are set in `mask` share
// `capacity`.
struct SharedSet {
  std::uint64_t mask = 0;
  double capacity = 0.0;
};

// Section 4.2's "analytical" allocation for a few paths (at most 64): minimizes
// sum_p weight_p / f_p (weight = the sender's speed 1/w: this is the path's term in Equation 4)
// subject to f_p <= cap_p and the shared sets. When the sets are laminar (any two are disjoint or
// nested: always the case for the four paths of a greedy insertion on a graph zone, and for the
// routes of a cluster) the optimum is computed exactly: every path gets f_p = min(cap_p,
// sqrt(weight_p) * level_p), each set's level being found bottom-up by water filling (KKT: the
// marginal cost weight/f^2 is equal inside each saturated set). Otherwise dual coordinate ascent
// to ~1e-12, then scaled down onto the feasible set. Weights must be > 0; a path with no set and
// an infinite cap gets +inf.
std::vector<double> min_weighted_cost_allocation(const std::vector<double>& weight, const std::vector<double>& cap,
                                                 std::vector<SharedSet> sets);

// The same for at most 4 paths without allocating memory (the greedy's inner loop): `set_cap` has
// 2^n entries, set_cap[mask] the smallest capacity shared by exactly the paths of `mask` (+inf
// when no link is shared by exactly them). Writes f[0..n). `root`, when given, holds
// sqrt(weight[p]) already computed (the same values: sqrt is correctly rounded).
void min_weighted_cost_allocation_small(int n, const double* weight, const double* cap, const double* set_cap,
                                        double* f, const double* root = nullptr);
// Its exact closed form alone: when the sets are laminar, writes f and returns true; otherwise
// returns false and leaves f as it was (the caller may keep the iterative solve's answers).
bool laminar_allocation_small(int n, const double* weight, const double* cap, const double* set_cap, double* f,
                              const double* root = nullptr);

// The fallback alone (dual coordinate ascent), whatever the family: exposed for the tests, which
// compare it with the exact laminar computation.
std::vector<double> min_weighted_cost_allocation_dual(const std::vector<double>& weight, const std::vector<double>& cap,
                                                      std::vector<SharedSet> sets);

// True when the sets are laminar (after removing duplicates).
bool laminar(const std::vector<SharedSet>& sets);

// Max-min fairness by progressive filling (the classical bandwidth sharing, report Section 4.3,
// Method 1): every path's rate grows at the same pace until one of its links is saturated (a
// SHARED link whose rates sum to its capacity, or a FATPIPE link at its capacity). `capacity`
// per platform link (what the paths may use); FATPIPE flags from the network.
std::vector<double> maxmin_allocation(const RingNetwork& net, const std::vector<std::vector<std::size_t>>& paths,
                                      const std::vector<double>& capacity);

}  // namespace ringsim::ring
