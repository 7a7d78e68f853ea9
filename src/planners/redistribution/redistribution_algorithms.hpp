// Every redistribution algorithm of ringsim, one file each (see redistribution_planner.hpp for the registry).
// Each returns a plan with its transfers and time; redistribution_planner.cpp adds the instance lower bound and
// decides `optimal`. An algorithm that does not apply to an instance throws std::invalid_argument.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "model/redistribution.hpp"
#include "planners/redistribution/redistribution_planner.hpp"  // kHeldBlocksLimit

namespace ringsim::redistribution {

RedistributionPlan plan_algorithm1(const RingInstance& inst);          // uni-homogeneous
RedistributionPlan plan_algorithm2(const RingInstance& inst);          // uni-heterogeneous
// Algorithm 2's plan before its blocks: name and per-link counts (time 0, no transfers).
RedistributionPlan algorithm2_head(const RingInstance& inst);
// Algorithm 2's blocks handed to `emit` in the plan's order as they are produced (`send_next`:
// the head's); only the current processor's runs are held.
void stream_algorithm2(const RingInstance& inst, const std::vector<Count>& send_next, const TransferSink& emit);
RedistributionPlan plan_algorithm3(const RingInstance& inst);          // bi-homogeneous
RedistributionPlan plan_early_late(const RingInstance& inst);          // bi-homogeneous-early-late
// A streamed schedule: `head` gets the plan without its transfers (its time exact, before any
// block), then `emit` gets the plan's transfers in its order. redistribution_planner.cpp adds the lower bound.
using PlanHead = std::function<void(RedistributionPlan&)>;
RedistributionPlan plan_light_circulation(const RingInstance& inst);   // bi-light
// bi-light streamed: when light, Lemma 4's 2n blocks at most; otherwise the executor's run, which
// times the schedule and counts its blocks, holding them up to `hold_limit` (if more, a second run
// hands each out once it is final).
void stream_light_circulation(const RingInstance& inst, const PlanHead& head, const TransferSink& emit,
                              std::size_t hold_limit = kHeldBlocksLimit);
// bi-light without its transfers (--summary): the time in O(n) when light, by runs of items
// otherwise (lemma4_runs.hpp); `basis` says which. Nothing where runs do not apply.
std::optional<RedistributionPlan> summarize_light_circulation(const RingInstance& inst, std::string& basis);
RedistributionPlan plan_light_glpk(const RingInstance& inst);          // bi-light-glpk
RedistributionPlan plan_general_heuristic(const RingInstance& inst);   // bi-heuristic
// bi-heuristic streamed: the search keeps its best run's rules, and its blocks up to `hold_limit`;
// a best run of more blocks is executed again into `emit` (as late as possible holds its blocks:
// asap_schedule.hpp).
void stream_general_heuristic(const RingInstance& inst, const PlanHead& head, const TransferSink& emit,
                              std::size_t hold_limit = kHeldBlocksLimit);
// bi-heuristic without its transfers: by runs of items when its first schedule meets the bound
// (the search stops there); nothing otherwise.
std::optional<RedistributionPlan> summarize_general_heuristic(const RingInstance& inst, std::string& basis);
RedistributionPlan plan_exact(const RingInstance& inst);               // exact

}  // namespace ringsim::redistribution
