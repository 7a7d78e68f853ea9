// An independent checker for redistribution schedules. It re-executes a plan item by item under
// the one-port model of the HiPC 2004 paper (Section 2) and reports the first violation found.
#pragma once

#include <string>
#include <vector>

#include "model/redistribution.hpp"

namespace ringsim {

struct ReplayReport {
  bool ok = true;
  std::string error;          // first violation, empty when ok
  double makespan = 0.0;      // latest block end
  std::vector<Count> final_loads;
};

// Checks: neighbours only (and only P_i -> P_(i+1) on a unidirectional ring), block durations
// equal items * cost (paced blocks: (items-1) * period + cost, period at least the cost; a paced
// block holds its sender's and receiver's ports from its start to its end), a processor sends at most one block and receives at most one block at a
// time, every item is held when it leaves (forwarding only what has arrived), final loads equal
// the targets, makespan equals plan.time, send counters match the blocks.
// `tolerance` is relative to the largest time in the plan.
ReplayReport replay(const RingInstance& inst, const RedistributionPlan& plan,
                    double tolerance = 1e-9);

}  // namespace ringsim
