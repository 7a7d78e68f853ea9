// `ringsim platform describe`: what SimGrid itself makes of a platform file, for any platform it
// loads: hosts, links, zones and their routing kinds, the speed and bandwidth spread, and whether
// hosts can reach each other (every ordered pair up to a budget of questions; beyond, a seeded
// sample of pairs, and the answer says which).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace ringsim::platform {

struct DescribeOptions {
  bool timings = false;         // add "timings_s" (not reproducible byte for byte)
  std::size_t max_pairs = 100000;  // all ordered pairs when there are at most this many, else a sample this size
  std::uint64_t seed = 1;       // of the sample
};

// Creates the process's one Engine, loads the platform with SimGrid (InputError with SimGrid's
// message when it refuses the file), seals it and reports. Unroutable pairs are reported, not
// refused: "all_hosts_reach_each_other" says whether a ring could use any host.
nlohmann::json describe_platform(const std::string& path, const DescribeOptions& options);

}  // namespace ringsim::platform
