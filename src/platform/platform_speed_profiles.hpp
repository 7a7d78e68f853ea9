// Hosts whose platform file already gives them a speed profile (speed_file): SimGrid accepts one
// speed profile per host and aborts on a second, so ringsim's speed traces cannot go on them.
// SimGrid does not say which hosts have one: each host is tried in a forked child, which dies on
// the hosts that do (the process itself never attaches anything).
#pragma once

#include <set>
#include <vector>

#include <simgrid/forward.h>

namespace ringsim::platform {

std::set<const simgrid::s4u::Host*> hosts_with_speed_profile(const std::vector<simgrid::s4u::Host*>& hosts);

}  // namespace ringsim::platform
