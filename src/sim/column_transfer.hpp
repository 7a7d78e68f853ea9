// Moving columns between two sets of hosts with a KPBS schedule (seeds/kpbs-ggp-backbone-message-
// scheduling.md): the matrix staged from the storage cluster onto the ring, and the columns of an
// old ring handed to a rebuilt one. Played from inside an actor (the coordinator), step by step as
// the KPBS paper's model has it: the setup delay beta, then the step's communications together, the
// next step once all have ended. Columns are delivered one by one as the data carrying them has
// arrived, so that receivers can start as soon as they hold their interval.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include <simgrid/forward.h>

#include "model/column_moves.hpp"
#include "model/kpbs.hpp"
#include "planners/kpbs/route_concurrency.hpp"

namespace ringsim::sim {

struct ColumnTransfer {
  std::vector<simgrid::s4u::Host*> senders, receivers;
  ColumnMove move;
  std::vector<std::vector<bool>> local;          // same host: no network transfer
  std::vector<std::vector<double>> column_time;  // one column at the pair's full rate, s
  double column_bytes = 0.0;
  KpbsInstance instance;
  KpbsSchedule schedule;
};

// The pairs' routes on the built platform (route_to): their links and bottleneck rates, with the
// capacities of the links involved (+inf for fat pipes), for interference_free_concurrency.
struct TransferRoutes {
  std::vector<std::vector<kpbs::PairRoute>> pairs;
  std::vector<double> capacity;
};
TransferRoutes transfer_routes(const std::vector<simgrid::s4u::Host*>& senders,
                               const std::vector<simgrid::s4u::Host*>& receivers, const ColumnMove& move);

// Routes, k (`k` when > 0, else interference-free), the KPBS instance and its schedule by
// `scheduler`, checked by the independent checker (std::logic_error if it fails).
ColumnTransfer plan_column_transfer(std::vector<simgrid::s4u::Host*> senders,
                                    std::vector<simgrid::s4u::Host*> receivers, ColumnMove move,
                                    double column_bytes, std::size_t k, double beta, const std::string& scheduler);

struct ColumnTransferTimes {
  double start = 0.0, end = 0.0;
  std::vector<double> step_durations;  // simulated, setup delay included
  long columns_over_network = 0, columns_local = 0;
};

// Plays the schedule; deliver(receiver, column) once per column (local pairs first). Throws
// std::logic_error if a column is never delivered.
ColumnTransferTimes play_column_transfer(const ColumnTransfer& t,
                                         const std::function<void(std::size_t receiver, long column)>& deliver);

}  // namespace ringsim::sim
