// A redistribution point (redistribution_point.cpp): the all-gather of the reports, member 0's
// decision and the column move, played by each member of the ring in effect (member i); the
// receivers of the move are actors of their own.
#pragma once

#include "sim/run_state.hpp"

namespace ringsim::sim {

// Member i's part of the one-way all-gather of the members' reports (also a rebuild's).
void gather_reports(const RunSetup& s, const RingShape& ring, Mailboxes& boxes, std::size_t i);
// Member i's part of the point after iteration `it`; member 0 writes the decision and the record.
void redistribution_point(const RunSetup& s, const RingShape& ring, RingMembers& ms, RingSync& sync,
                          Decision& decision, RunOutputs& out, std::size_t i, int it, policy::Act act);

}  // namespace ringsim::sim
