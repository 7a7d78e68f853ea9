// What members know (member_reports.cpp): the reports each member posts, the notes that carry them
// on border messages, the common snapshot every member holds, the policies' views and their agreement.
#pragma once

#include "sim/ring_run.hpp"

namespace ringsim::sim {

std::size_t forward_reach(std::size_t n);
std::size_t backward_reach(std::size_t n);
void start_policies(RingRun& r, int first_iteration);
void post_report(RingRun& r, std::size_t i, int it);
BorderNote* note_for(RingRun& r, std::size_t i, int it, bool to_succ);
void learn(RingRun& r, std::size_t i, int it, const BorderNote* from_pred, const BorderNote* from_succ);
policy::MemberView view_of(const RingRun& r, std::size_t i, int it);
void check_agreement(const RingRun& r, int it);

}  // namespace ringsim::sim
