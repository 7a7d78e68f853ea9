// Tiers topology files (.tiers): reading, writing, and the measured values (JSON) used to turn
// them into platforms (Doar's Tiers generator output; examples in platforms/reference/).
#pragma once

#include <string>

#include "model/tiers_generator.hpp"

namespace ringsim::io {

// Reads the header's parameters (when all eleven are given), the `# NODES` section
// (`id x y type`, ids 0, 1, 2, ... in order) and the `# EDGES` section
// (`from to delay bandwidth_class from_type to_type state`). Each undirected edge is kept once,
// at its first listing (Tiers lists both directions, and internetwork edges twice more).
// Throws InputError naming the file and line of the first problem.
TiersGraph parse_tiers(const std::string& text, const std::string& where);
TiersGraph read_tiers_file(const std::string& path);

// The same format: parameters (if known), nodes, and each edge in both directions.
std::string format_tiers(const TiersGraph& graph);

// A JSON document shaped like platforms/measured_platform_values.json: "machines" (objects
// with "mflops") and "link_classes" (class -> {"measurements": [{"bandwidth_MBps", "latency_ms"}]}).
MeasuredValues read_measured_values(const std::string& path);

}  // namespace ringsim::io
