#include "model/redistribution.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "model/errors.hpp"

namespace ringsim {

bool RingInstance::homogeneous() const {
  if (cost_next.empty()) return true;
  const double c = cost_next.front();
  auto same = [c](double x) { return x == c; };
  return std::all_of(cost_next.begin(), cost_next.end(), same) &&
         std::all_of(cost_prev.begin(), cost_prev.end(), same);
}

const char* to_string(Direction d) { return d == Direction::next ? "next" : "prev"; }

std::vector<const Transfer*> blocks_in_play_order(const RedistributionPlan& plan, std::size_t member, bool outgoing) {
  std::vector<const Transfer*> blocks;
  for (const Transfer& t : plan.transfers)
    if ((outgoing ? t.from : t.to) == member) blocks.push_back(&t);
  std::stable_sort(blocks.begin(), blocks.end(), [](const Transfer* a, const Transfer* b) { return a->start < b->start; });
  return blocks;
}

namespace {

void check_costs(const std::vector<double>& costs, const char* name, std::size_t n) {
  if (costs.size() != n)
    throw InputError(std::string(name) + " has " + std::to_string(costs.size()) + " entries, expected " +
                     std::to_string(n));
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(costs[i]) || costs[i] <= 0.0)
      throw InputError(std::string(name) + "[" + std::to_string(i) + "] must be a finite positive number");
}

}  // namespace

void validate(const RingInstance& inst) {
  const std::size_t n = inst.loads.size();
  if (n < 2) throw InputError("a ring needs at least 2 processors, got " + std::to_string(n));
  if (inst.targets.size() != n)
    throw InputError("targets has " + std::to_string(inst.targets.size()) + " entries, loads has " +
                     std::to_string(n));
  Count total_loads = 0, total_targets = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (inst.loads[i] < 1) throw InputError("loads[" + std::to_string(i) + "] must be >= 1");
    if (inst.targets[i] < 1) throw InputError("targets[" + std::to_string(i) + "] must be >= 1");
    // Checked before they are added: a sum past 2^63 would wrap (and could even balance).
    for (const auto& [total, value, name] : {std::tuple{&total_loads, inst.loads[i], "loads"},
                                              std::tuple{&total_targets, inst.targets[i], "targets"}})
      if (value > kMaxTotalItems - *total)
        throw InputError(std::string(name) + " sum to more than " + std::to_string(kMaxTotalItems) +
                         " (2^62) items at " + name + "[" + std::to_string(i) +
                         "], the most ringsim plans: the planners' sums and differences of item counts "
                         "must stay within 64 bits");
      else
        *total += value;
  }
  if (total_loads != total_targets)
    throw InputError("loads sum to " + std::to_string(total_loads) + " but targets sum to " +
                     std::to_string(total_targets));
  check_costs(inst.cost_next, "cost_next", n);
  if (inst.bidirectional) {
    if (inst.cost_prev.empty()) throw InputError("cost_prev is required on a bidirectional ring");
    check_costs(inst.cost_prev, "cost_prev", n);
  } else if (!inst.cost_prev.empty()) {
    throw InputError("cost_prev is given but the ring is unidirectional");
  }
}

}  // namespace ringsim
