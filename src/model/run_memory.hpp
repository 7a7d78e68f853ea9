// What a run will hold in memory, estimated from its sizes before anything is allocated, and the
// check that refuses a run beyond a budget (ringsim simulate and run, --max-memory). Three sizes
// grow a run's memory without bound, each at a rate measured on ringsim's own runs:
//   - columns: every member holds the indices of its columns (8 bytes each, in a deque): about
//     10 bytes per column, measured 9.7 (1e6 against 1e7 columns, 4 members);
//   - iterations: each iteration is recorded with every member's load, and a trace keeps one
//     multiplier per member and iteration: 112 + 8 n bytes per iteration for n members, measured
//     136 on 4 members (1e5 against 1e6 iterations);
//   - staging nodes: SimGrid keeps a route for every pair of hosts of the zone the storage
//     cluster joins, so the cluster costs about 32 bytes per pair of nodes, measured 24-29
//     (1000 and 8000 nodes: 64 MB and 1.5 GB; 32000 nodes: beyond 24 GB).
// The estimate is a floor of those terms, not of SimGrid's own platform, which the platform file
// bounds.
#pragma once

#include <string>
#include <vector>

#include "model/run_config.hpp"

namespace ringsim {

// The budget when none is given: what a workstation spares a run. A fixed figure, not the
// machine's memory, so that a config accepted on one machine is accepted on any.
constexpr double kDefaultMemoryBudgetBytes = 4e9;

struct MemoryTerm {
  std::string size;  // the config's size that costs it, with its value ("'columns' 300000000")
  double bytes = 0;
};

struct MemoryEstimate {
  std::vector<MemoryTerm> terms;  // largest first
  double total() const;
};

MemoryEstimate estimate_run_memory(const RunConfig& cfg);

// InputError naming the largest term, the estimate and the budget, and --max-memory, when the
// estimate exceeds budget_bytes. `where` names the config.
void check_run_memory(const RunConfig& cfg, double budget_bytes, const std::string& where);

// "4 GB", "1.5 GB", "800 MB": decimal units, three significant digits.
std::string format_bytes(double bytes);

}  // namespace ringsim
