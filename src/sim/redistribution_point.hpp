// A redistribution point (redistribution_point.cpp): the all-gather of the reports, the decision and
// the move.
#pragma once

#include "sim/ring_run.hpp"

namespace ringsim::sim {

void gather_reports(RingRun& r, std::size_t i);
void redistribution_point(RingRun& r, std::size_t i, int it, policy::Act act);

}  // namespace ringsim::sim
