// What each member's host is doing, in a Paje trace: a host state "ringsim_phase" (compute, border,
// reports, decision, columns, wait, done) set as the member enters each phase of the HiPC 2004
// iteration and of a redistribution point. SimGrid 3.32's own per-category resource tracing
// (tracing/categorized) cannot carry them: its categorized path writes into the uncategorized
// variables (instr_resource_utilization.cpp), so it throws TracingError without
// tracing/uncategorized and counts twice with it; ringsim's activities therefore carry no category.
#pragma once

#include <simgrid/forward.h>

namespace ringsim::sim {

enum class Phase { compute, border, reports, decision, columns, wait, done };

// Declares the state and its values when the run is traced with host containers (tracing and
// tracing/platform on), after the platform is loaded and before the run; remembers it for
// enter_phase, which does nothing otherwise (one process, one run).
void declare_phases();

void enter_phase(const simgrid::s4u::Host* host, Phase phase);

// A trace placed by iteration leaves its host at the peak speed (the member divides its work by
// the multiplier, run_state.cpp), so SimGrid's own "speed" variable does not show it: the multiplier
// the member computes at is the host variable "speed_multiplier", set when it changes (declared
// with the phases, same condition).
void trace_speed_multiplier(const simgrid::s4u::Host* host, double multiplier);

}  // namespace ringsim::sim
