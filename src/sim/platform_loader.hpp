// Putting platforms into SimGrid: from a file with SimGrid's own parser, or from ringsim's model
// through the S4U API. The Engine must exist (built from argc/argv) and hold no platform yet.
#pragma once

#include <string>

#include <simgrid/forward.h>

#include "model/platform.hpp"

namespace ringsim::sim {

// engine.load_platform(path), then seals the root zone (needed before route_to). SimGrid's
// parse errors become InputError.
void load_platform_file(simgrid::s4u::Engine& engine, const std::string& path);

// One zone of the model's routing kind: hosts (speed, cores, profiles), routers, links, then a
// symmetrical one-link route per edge (graph zones) or the explicit routes (Full zone); sealed.
void build_platform(const Platform& p);

// The seeds' linear model (time = latency + size / bandwidth, fair sharing: CM02, TCP-gamma 0,
// cross-traffic off; DESIGN.md) or SimGrid's TCP-like LV08. A --cfg=network/model given on the
// command line wins. Call after the Engine is built.
void set_network_model(bool linear, int argc, char** argv);

}  // namespace ringsim::sim
