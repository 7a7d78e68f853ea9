// When each member holds every report after a point's one-way all-gather (sim/redistribution_point.cpp,
// gather_reports): n - 1 rounds; in each, member i posts its receive, sends its latest report to
// its successor with a blocking send, then waits for its predecessor's. A send starts when the
// successor has posted its receive (SimGrid's rendezvous) and takes the edge's cost, so with G_i(r)
// the instant member i ends round r (G_i(0) = 0, the point's start):
//   G_i(r) = max(max(G_i, G_(i+1))(r - 1) + c(i -> i+1), max(G_(i-1), G_i)(r - 1) + c(i-1 -> i)).
// Members far from a dear edge finish early and start their planner run early, which matters when
// their speed changes with the clock. Where a SHARED link carries several reports at once, they
// share it (neighbour_routes.hpp): a report is a few bytes, but an outage at a twentieth of the
// peak turns microseconds before it into a twentyfold longer computation.
// Pure: no SimGrid.
#pragma once

#include <vector>

#include "planners/points/neighbour_routes.hpp"

namespace ringsim::points {

// G_i(n - 1) for every member, report_cost[i] being the time of one report from i to its successor.
std::vector<double> all_gather_ends(const std::vector<double>& report_cost);

// The same rounds played on routes that share links: each report of `report_bytes` from member i
// to its successor over routes.next_links[i] after routes.next_latency[i].
std::vector<double> shared_all_gather_ends(const NeighbourRoutes& routes, double report_bytes);

}  // namespace ringsim::points
