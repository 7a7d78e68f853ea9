// Files of the repository (platforms, reference data) found from the tests' sources, and the
// values the platform tests compare over.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "model/platform_graph.hpp"

namespace ringsim::testing {

// `relative` from the repository's root (this header sits in tests/).
inline std::string repo_file(const std::string& relative) {
  return (std::filesystem::path(__FILE__).parent_path().parent_path() / relative).string();
}

// The platform's host speeds, in host order.
inline std::vector<double> host_speeds(const Platform& p) {
  std::vector<double> s;
  for (auto h : p.host_indices()) s.push_back(p.nodes[h].speed);
  return s;
}

}  // namespace ringsim::testing
