// `ringsim platform describe`: what SimGrid itself makes of a platform file.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace ringsim::sim {

struct DescribeOptions {
  bool via_model = false;  // build the platform from ringsim's reading through the S4U API
  bool timings = false;    // add "timings_s" (not reproducible byte for byte)
};

// Reads the file with ringsim's reader (which rejects what ringsim does not understand, with
// InputError), creates the process's one Engine, loads the platform in SimGrid, seals it, and
// reports SimGrid's view: hosts, routers, links, speed/bandwidth/latency ranges, and whether
// route_to finds a route between every ordered pair of hosts (or, beyond 400 hosts, between the
// first host and every other, both ways). Throws InputError when some hosts are not connected.
nlohmann::json describe_platform(const std::string& path, const DescribeOptions& options);

}  // namespace ringsim::sim
