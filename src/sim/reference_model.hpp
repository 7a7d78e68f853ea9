// The references' model of a run (reference_model.cpp), for the schemes chosen before the run.
#pragma once

#include "sim/run_state.hpp"

namespace ringsim::sim {

// The model the references plan on (policy/scheme.hpp): the simulation's own predictions for
// this run from the initial loads (also move_earnings's).
points::RunModel reference_run_model(const RunSetup& s, const RingShape& ring, const std::vector<Count>& initial);
// What a reference plans from: that model, the config and the traces the members will apply.
policy::ReferenceInput reference_input(const RunSetup& s, const RingShape& ring, const RunConfig& cfg,
                                       const points::RunModel& model);

}  // namespace ringsim::sim
