// A brute-force oracle for the bridge and block-cut trees: which nodes a search reaches once an
// edge or a node is taken out of the platform's graph.
#pragma once

#include <cstddef>
#include <vector>

#include "model/platform_graph.hpp"

namespace ringsim::oracles {

// Brute force: the nodes reachable from `from` without edge `skip_edge` or node `skip_node`
// (out of range: none).
std::vector<char> reached_avoiding(const Platform& p, std::size_t from, std::size_t skip_edge, std::size_t skip_node);

}  // namespace ringsim::oracles
