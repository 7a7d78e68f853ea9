// The platform of `ringsim bench simulate`: n hosts (speeds cycling through the measured
// machines) joined by a star of identical links, each pair routed through its two links.
#pragma once

#include <string>

namespace ringsim {

// Written as SimGrid XML 4.1 to `path` (atomically).
void write_star_platform(const std::string& path, int n);


}  // namespace ringsim
