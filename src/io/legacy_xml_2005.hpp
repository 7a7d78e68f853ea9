// SimGrid's 2005 platform XML (<platform_description>, surfxml.dtd of SimGrid 2.x/3.0), the
// format of the 2004 ring-redistribution paper's 90-host platform:
//   <cpu name power> with power in MFlops, <network_link name bandwidth latency> with bandwidth
//   in MB/s and latency in s, and host-to-host <route src dst><route_element name/></route>.
// Becomes a Full zone "AS0" whose routes are kept one-way, as given (speed x 1e6 flop/s,
// bandwidth x 1e6 B/s).
#pragma once

#include <string>

#include "model/platform_graph.hpp"

namespace ringsim::io {

// Throws InputError naming the file, line and problem. Attributes other than the above are
// accepted only at their default values (availability 1, state ON, ...).
Platform parse_legacy_platform_2005(const std::string& text, const std::string& where);
Platform read_legacy_platform_2005(const std::string& path);

}  // namespace ringsim::io
