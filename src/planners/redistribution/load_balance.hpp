// The load-balancing step before a redistribution: integer column counts proportional to speeds.
#pragma once

#include <vector>

#include "model/redistribution.hpp"

namespace ringsim {

// Integer loads n_i >= 1 with sum `total` that minimize the iteration time max_i n_i / speed_i
// (columns proportional to speeds, rounded the way that matters for an iterative application).
// Throws InputError if total < number of processors or a speed is not finite and positive.
std::vector<Count> balanced_targets(const std::vector<double>& speeds, Count total);

}  // namespace ringsim
