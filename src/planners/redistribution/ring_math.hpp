// Shared arithmetic of ring redistributions: imbalances, cyclic prefix sums and the edge flows
// they induce. Slice sums delta_{k,l} (HiPC 2004, Section 2) are differences of prefix sums, which
// is what lets every bound below be computed in O(n) instead of enumerating the O(n^2) slices.
#pragma once

#include <vector>

#include "model/redistribution.hpp"

namespace ringsim::redistribution {

std::vector<Count> imbalances(const RingInstance& inst);

// F[i] = delta_0 + ... + delta_i. F[n-1] == 0 by conservation, so the imbalance of the slice
// C_{k,l} (k..l, cyclic, not the whole ring) is F[l] - F[k-1] with F[-1] read as F[n-1] = 0.
std::vector<Count> prefix_imbalances(const std::vector<Count>& delta);

// Net flows on the ring's edges: g[i] items cross edge (P_i, P_(i+1)) clockwise, negative
// values counter-clockwise. Conservation fixes g up to one constant, the circulation x:
// g[i] = F[i] + x.
struct EdgeFlows {
  std::vector<Count> send_next;  // max(g[i], 0)
  std::vector<Count> send_prev;  // send_prev[i] = max(-g[i-1], 0)
};
EdgeFlows flows_for_circulation(const std::vector<Count>& F, Count x);

// Largest |delta_{k,l}| over non-trivial slices: max F - min F.
Count max_slice_imbalance(const std::vector<Count>& F);

// Lemma 3's bound on a homogeneous bidirectional ring in steps of one item cost (Algorithm 3's
// delta_max, line 1): max(max_i |delta_i|, ceil(max |delta_{k,l}| / 2)).
Count lemma3_steps(const std::vector<Count>& delta, const std::vector<Count>& F);

}  // namespace ringsim::redistribution
