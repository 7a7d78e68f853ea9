// What each move earned (move_earnings.cpp), after the run.
#pragma once

#include "sim/run_state.hpp"

namespace ringsim::sim {

// Each performed point's hindsight_saved: what its loads saved over the loads before it, until the
// next move, at the speeds the run applied (none with rebuilds: `rings` holds more than one).
void add_move_earnings(const RunSetup& s, const RingHistory& rings, const std::vector<Count>& initial,
                       std::vector<RedistributionRecord>& points, const std::vector<IterationRecord>& iterations);

}  // namespace ringsim::sim
