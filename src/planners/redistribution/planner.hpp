// The redistribution planner registry: every algorithm by name, and `auto`, which picks the
// strongest one that applies. `optimal` is set only when proven: the plan meets a proven lower
// bound, or comes from the exact solver.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "model/redistribution.hpp"

namespace ringsim {

struct AlgorithmInfo {
  std::string name;
  std::string description;
};

const std::vector<AlgorithmInfo>& redistribution_algorithms();

// The algorithm `auto` resolves to for this instance.
std::string choose_algorithm(const RingInstance& inst);

// Validates the instance (InputError), runs the algorithm (std::invalid_argument when it does not
// apply), fills lower_bound and optimal.
RedistributionPlan plan_redistribution(const RingInstance& inst, const std::string& algorithm = "auto");

// The schedule streamed, for algorithms that produce their blocks in order without holding them
// (uni-heterogeneous, Algorithm 2 by runs): `head` gets the plan plan_redistribution would return,
// transfers empty, then `emit` gets its transfers one by one, in its order. Two passes over the
// runs: the first finds the time (so the head is exact to the bit) and counts the blocks against
// any BlockBudget, before anything is handed out. Returns false, having called nothing, where the
// algorithm does not stream.
bool stream_redistribution(const RingInstance& inst, const std::string& algorithm,
                           const std::function<void(const RedistributionPlan&)>& head, const TransferSink& emit);

// The plan without its transfers (`ringsim redistribute --summary`): algorithm, time, lower bound,
// optimal, per-link counts. Where the paper gives the time in closed form (Lemmas 1 and 2: the
// unidirectional algorithms) the schedule is never built: O(n) time and memory. Otherwise the
// algorithm runs (under any BlockBudget in effect) and its transfers are dropped. `basis` says which.
struct RedistributionSummary {
  RedistributionPlan plan;  // transfers empty
  std::string basis;
};
RedistributionSummary summarize_redistribution(const RingInstance& inst, const std::string& algorithm = "auto");

}  // namespace ringsim
