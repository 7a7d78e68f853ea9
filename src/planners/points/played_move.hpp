// How long a point's column move lasts when the executor (sim/redistribution_point.cpp) plays the
// planner's schedule on routes that share links. The planners cost each column on its edge alone
// (HiPC 2004, Section 2: c(i -> j) per item); where one SHARED link carries several of the move's
// transfers at once, SimGrid shares it and the move ends later than the plan says.
//
// The executor, as this model replays it: member i sends its blocks in the order of their planned
// start, none before its planned start (a paced block's items none before their own departure),
// one column at a time with a blocking send, each column only once it holds one (forwarding what
// has arrived); a receiver takes its incoming blocks in the same order, one column at a time. A
// column's transfer starts when its sender has posted it and its receiver waits for it on that
// side (SimGrid's rendezvous), waits its route's latency, then flows at its max-min share of the
// links (neighbour_routes.hpp). The move ends when the last column has arrived. With no link
// shared this is the plan's own time: the plan is feasible under the one-port model, so every
// column leaves at its planned departure and takes its edge's cost.
// Pure: no SimGrid.
#pragma once

#include <vector>

#include "model/redistribution.hpp"
#include "planners/points/neighbour_routes.hpp"

namespace ringsim::points {

// The move's duration from the instant the members start it, each member i holding loads[i]
// columns; routes.bytes is one column.
double played_move_time(const RedistributionPlan& plan, const std::vector<Count>& loads,
                        const NeighbourRoutes& routes);

// What the simulation is predicted to take for the plan, s: the plan's own time when no shared
// link carries two of the ring's transfers (`routes` empty: the planners' model is then exact),
// else the plan as the executor plays it on the shared links. A plan stays "optimal" under its
// planner's model only.
inline double predicted_move_time(const RedistributionPlan& plan, const std::vector<Count>& loads,
                                  const NeighbourRoutes& routes) {
  return routes.empty() ? plan.time : played_move_time(plan, loads, routes);
}

}  // namespace ringsim::points
