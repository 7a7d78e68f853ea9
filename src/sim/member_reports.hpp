// What members know (member_reports.cpp): the reports each member posts, the notes that carry them
// on border messages, the common snapshot every member holds, the policies' views and their
// agreement. Each function takes the parts of the run it reads (const) and writes.
#pragma once

#include <string>

#include "sim/run_state.hpp"

namespace ringsim::sim {

std::size_t forward_reach(std::size_t n);
std::size_t backward_reach(std::size_t n);
void start_policies(const RunSetup& s, const RingShape& ring, int first_iteration, RingMembers& ms);
void post_report(const RunSetup& s, RingMembers& ms, std::size_t i, int it);
BorderNote* note_for(const CommonKnowledge& known, ReportRelay& relay, std::size_t n, std::size_t i, int it,
                     bool to_succ);
void learn(RingMembers& ms, ReportRelay& relay, std::size_t i, int it, const BorderNote* from_pred,
           const BorderNote* from_succ);
policy::MemberView view_of(const RunSetup& s, const RingMembers& ms, std::size_t i, int it);
void check_agreement(const std::string& scheme, const RingMembers& ms, int it);

}  // namespace ringsim::sim
