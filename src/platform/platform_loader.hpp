// Putting ringsim's additions into a platform SimGrid loaded (platform/platform_reader.hpp reads it),
// through the S4U API. The Engine must exist (built from argc/argv).
#pragma once

#include <simgrid/forward.h>

#include "model/platform_graph.hpp"

namespace ringsim::platform {

// Adds to the root zone of a loaded platform (before it is sealed) what `after` holds beyond
// `before` (a copy of the platform's own model that ringsim extended, e.g. with a storage cluster):
// its nodes past before.nodes (a node whose name SimGrid already knows is that netpoint), its links
// past before.links (by name likewise), then its edges and explicit routes past before's. Explicit
// routes become bypass routes when asked (a graph-routed root: SimGrid prefers them to its own
// shortest paths): that is how a planner's chosen paths are imposed.
void extend_platform(simgrid::s4u::Engine& engine, const Platform& before, const Platform& after, bool routes_as_bypass);

}  // namespace ringsim::platform
