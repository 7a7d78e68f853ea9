// The redistribution planner registry: every algorithm by name, and `auto`, which picks the
// strongest one that applies. `optimal` is set only when proven: the plan meets a proven lower
// bound, or comes from the exact solver.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "model/named.hpp"
#include "model/redistribution.hpp"

namespace ringsim::redistribution {

const std::vector<NamedInfo>& redistribution_algorithms();

// "auto" or a registered algorithm; UnknownName (kind "algorithm") otherwise.
void check_redistribution_algorithm(const std::string& planner);

// The algorithm `auto` resolves to for this instance.
std::string choose_planner(const RingInstance& inst);

// Validates the instance (InputError), runs the algorithm (UnknownName when there is none of that
// name, std::invalid_argument when it does not apply), fills lower_bound and optimal.
RedistributionPlan plan_redistribution(const RingInstance& inst, const std::string& planner = "auto");

// The schedule streamed, for algorithms that produce their blocks in order without holding them
// all: uni-heterogeneous (Algorithm 2 by runs: only the current processor's runs held), bi-light
// and bi-heuristic (the item-by-item executor hands each block out once it is final and every
// block opened before it is out; bi-light's light case has 2n blocks at most). `head` gets the
// plan plan_redistribution would return, transfers empty, then `emit` gets its transfers one by
// one, in its order. The time (so the head is exact to the bit) and the block count, checked
// against any BlockBudget, are known before anything is handed out: Algorithm 2 makes two passes
// over its runs; bi-light and bi-heuristic hold the blocks of their run (bi-heuristic: of its
// search's best) up to `hold_limit` and otherwise run again.
// Returns false, having called nothing, where the algorithm does not stream: Algorithm 1 and
// early-late hold at most two blocks per processor; Algorithm 3, bi-light-glpk and exact hold
// theirs.
// The bidirectional streams hold up to this many blocks (about 56 MB) and hand them out after one
// run; a schedule of more is run again and handed out as it goes (BoundedHold, asap_schedule.hpp).
inline constexpr std::size_t kHeldBlocksLimit = std::size_t{1} << 20;
bool stream_redistribution(const RingInstance& inst, const std::string& planner,
                           const std::function<void(const RedistributionPlan&)>& head, const TransferSink& emit,
                           std::size_t hold_limit = kHeldBlocksLimit);

// The plan without its transfers (`ringsim redistribute --summary`): algorithm, time, lower bound,
// optimal, per-link counts. Where the paper gives the time in closed form (Lemmas 1 and 2: the
// unidirectional algorithms) the schedule is never built: O(n) time and memory. Otherwise the
// algorithm runs (under any BlockBudget in effect) and its transfers are dropped. `basis` says which.
struct RedistributionSummary {
  RedistributionPlan plan;  // transfers empty
  std::string basis;
};
RedistributionSummary summarize_redistribution(const RingInstance& inst, const std::string& planner = "auto");

}  // namespace ringsim::redistribution
