// A lower bound on a point's column move where the ring's routes share links, for what a policy
// weighs a move with before planning it (policy/predictions.hpp).
//
// The one-port bound (the slides' bidirectional bound, redistribution/bounds.hpp) holds each
// member to one column at a time but lets different members' transfers flow side by side. Where
// one SHARED link carries several ring edges (a site's uplink), their columns also queue on it:
// whatever the plan, the net flow across the ring's cut between members i and i+1 is F_i - c for
// the move's prefix imbalances F and some integer circulation c (HiPC 2004, Section 6: System 2's
// S_{i,i+1} - S_{i+1,i} conserve the imbalances up to c), and each of those columns crosses the
// links of the route it takes (i -> i+1 for a positive flow, i+1 -> i for a negative one). A
// SHARED link of capacity C carrying those routes is busy for at least their columns' bytes over
// C, whatever the order or the sharing. Pure: no SimGrid.
#pragma once

#include "model/redistribution.hpp"
#include "planners/points/neighbour_routes.hpp"

namespace ringsim::points {

// max(one-port bound, min over c of the busiest SHARED link's bytes over its capacity), s; the
// one-port bound alone when `routes` is empty (no link carries two transfers). `inst` is
// bidirectional; routes.bytes is one column.
double shared_move_lower_bound(const RingInstance& inst, const NeighbourRoutes& routes);

// The busiest SHARED link's time for the ring's net flows F_i - c, s (the bound's term for one c).
double busiest_link_time(const std::vector<Count>& prefix, Count c, const NeighbourRoutes& routes);

}  // namespace ringsim::points
