// Test oracles for ring construction on fixed routes (Full zones: every path is the platform's
// route), read from the Platform's routes, never from RingNetwork: the routes' bottlenecks, the
// T_step of a ring with sharing ignored, and the check of an answer against the routes and the
// links' capacities. Every route crosses a link: a latency-only route the FATPIPE kLatencyOnlyLink
// of kLatencyOnlyBandwidth (1e20 B/s), checked as any FATPIPE link.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/platform_graph.hpp"
#include "oracles/ring_bruteforce.hpp"
#include "planners/ring/ring_plan.hpp"

namespace ringsim::oracles {

// The links of the route from host i to host j (hosts in host order), from p.routes.
std::vector<std::vector<std::vector<std::size_t>>> routes_of(const Platform& p);

// Each route's bottleneck (its narrowest link), and the complete-graph costs 1 / bottleneck.
std::vector<std::vector<double>> route_bandwidths(const Platform& p);
std::vector<std::vector<double>> route_costs(const Platform& p);

// T_step of a given ring with the complete-graph costs (sharing ignored).
double ring_tstep_no_sharing(const std::vector<double>& speed, const std::vector<std::vector<double>>& cost,
                             const ring::Workload& load, const std::vector<std::size_t>& ring);

// The same check as check_ring_answer, written from the Platform's routes for Full zones: every
// path the route of its pair in its order, no FATPIPE link above its bandwidth per path, no
// SHARED link above it in all, and T_step recomputed to a relative 1e-9. "" when consistent.
std::string check_full_zone_answer(const Platform& p, const ring::Workload& load, const RingAnswer& ans);

// Both checkers on one answer (every path crosses a link, so both apply); "" when it is
// consistent, else the failing checker's message, named.
std::string check_fixed_route_answer(const Platform& p, const ring::Workload& load, const RingAnswer& ans);

}  // namespace ringsim::oracles
