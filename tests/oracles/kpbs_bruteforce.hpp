// Exact KPBS optimum for tiny instances by exhaustive search, independent of the planners.
#pragma once

#include <cstddef>
#include <optional>

#include "model/kpbs.hpp"

namespace ringsim::oracles {

// The least time of a KPBS schedule whose amounts are multiples of 1 / grid, for an instance
// whose entries and beta are multiples of 1 / grid (entries * grid <= 15, at most 16 non-zero
// entries). Dynamic programming over the remaining matrix (every state <= the instance
// entrywise), a step being a matching of at most k communications. Two reductions lose nothing:
// (1) given the step's longest amount a, every communication of the step may as well send
// min(what is left, a) (sending more now never costs a later step more), and (2) the matching
// may as well be maximal (an added communication costs nothing now). So a step is a maximal
// matching of at most k pending communications and a = 1 .. its largest remaining amount.
// Returns nothing when the state space exceeds max_states. With grid = 1 and integer data this is
// the optimum among integer preemptions; real-valued preemption can be better (an upper bound of
// the true optimum, which is itself >= eta).
std::optional<double> kpbs_brute_force(const KpbsInstance& inst, int grid = 1, std::size_t max_states = 4000000);

}  // namespace ringsim::oracles
