// When an iteration's border exchange ends (sim/ring_iteration.cpp): every member, once it has
// computed, posts its two receives and sends one column to each neighbour; a column from member i
// to its neighbour j starts when both have computed (the receive is posted then), and the barrier
// after the exchange waits for the last arrival.
//
// Alone on its route, a column takes its edge's cost c(i -> j) = latency + bytes / bottleneck,
// so the end is max over ring edges of max(done_i, done_j) + c(i -> j): the slowest member's end
// plus the dearest edge only when the two meet. When border transfers that overlap in time cross
// the same SHARED link, they share it as neighbour_routes.hpp plays it (SimGrid's CM02); without
// shared links the two coincide.
// Pure: no SimGrid; the simulation describes the routes (sim/reference_model.cpp).
#pragma once

#include <vector>

#include "planners/points/neighbour_routes.hpp"

namespace ringsim::points {

// The end of the exchange, each member i having computed until done[i] (the transfers' sharing
// over time, as the header says).
double shared_exchange_end(const NeighbourRoutes& routes, const std::vector<double>& done);

}  // namespace ringsim::points
