// Lower bounds on the redistribution time (HiPC 2004 Lemmas 1-3, the slides' general bound).
#pragma once

#include <optional>

#include "model/redistribution.hpp"

namespace ringsim::redistribution {

// Items P_i must send to P_(i+1) on a unidirectional ring: f_i = delta_{start,i} = F_i - min F
// (the slice starting right after the minimum prefix sum has maximal imbalance, Algorithm 1 line 2).
std::vector<Count> unidirectional_flows(const RingInstance& inst);

// Lemma 2 bound max_i f_i * c_(i,i+1); with equal costs it is Lemma 1's max |delta_{k,l}| * c.
double unidirectional_lower_bound(const RingInstance& inst);

// Lemma 3: max(max |delta_i|, max ceil(|delta_{k,l}| / 2)) * c. Requires a homogeneous ring.
double lemma3_lower_bound(const RingInstance& inst);

// The slides' bound for heterogeneous bidirectional rings (four terms over single processors and
// slices of 2..n-1 processors). O(n^2): returns nothing above `max_n` processors.
std::optional<double> slides_bidirectional_lower_bound(const RingInstance& inst, std::size_t max_n = 4096);

// The strongest bound ringsim knows for the instance: Lemma 2 on unidirectional rings; on
// bidirectional rings the integer optimum of System 2, which holds for every schedule (one-port
// per processor, integral flows) whether or not the redistribution is light, and Lemma 3 when
// the ring is homogeneous.
double instance_lower_bound(const RingInstance& inst);

}  // namespace ringsim::redistribution
