// Test oracles for heterogeneous bidirectional rings, independent of the planners' code.
#pragma once

#include <cstddef>
#include <optional>

#include "model/redistribution.hpp"

namespace ringsim::oracles {

// Minimal makespan over all integer-time schedules of a tiny ring whose costs are small positive
// integers (n <= 4, costs <= 15, at most 31 items in total), by breadth-first search over time:
// a state is every processor's holdings plus its in-flight send (direction, time left); at each
// unit of time every idle processor holding an item may start one item towards a neighbour whose
// receiving port is free, or stay idle. Integer start times lose nothing with integer costs (see
// exact_time_indexed.cpp), so this is the true optimum. Returns nothing when more than
// `max_states` states would be visited.
std::optional<long> brute_force_makespan(const RingInstance& inst, std::size_t max_states = 3000000);

}  // namespace ringsim::oracles
