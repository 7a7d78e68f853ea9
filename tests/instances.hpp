// Seeded random ring redistribution instances for property tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>

#include "model/redistribution.hpp"

namespace ringsim::testing {

struct InstanceShape {
  std::size_t n = 4;
  bool bidirectional = true;
  bool homogeneous = true;
  ringsim::Count max_load = 8;  // loads and targets drawn in [1, max_load]
  int max_cost = 4;             // heterogeneous costs: integers in [1, max_cost] (commensurable)
  bool integer_costs = true;    // false: real costs in [0.5, max_cost]
};

// Loads and targets uniform in [1, max_load], then targets repaired to the same total while
// keeping every target in [1, max_load] when possible.
inline RingInstance random_instance(std::mt19937_64& rng, const InstanceShape& s) {
  RingInstance inst;
  inst.bidirectional = s.bidirectional;
  std::uniform_int_distribution<ringsim::Count> load(1, s.max_load);
  inst.loads.resize(s.n);
  inst.targets.resize(s.n);
  for (auto& l : inst.loads) l = load(rng);
  for (auto& t : inst.targets) t = load(rng);
  ringsim::Count diff = 0;
  for (std::size_t i = 0; i < s.n; ++i) diff += inst.loads[i] - inst.targets[i];
  std::uniform_int_distribution<std::size_t> pick(0, s.n - 1);
  while (diff != 0) {
    auto& t = inst.targets[pick(rng)];
    if (diff > 0 && (t < s.max_load || diff > 0)) { ++t; --diff; }
    else if (diff < 0 && t > 1) { --t; ++diff; }
  }
  auto cost = [&]() -> double {
    if (s.homogeneous) return 1.0;
    if (s.integer_costs) return static_cast<double>(std::uniform_int_distribution<int>(1, s.max_cost)(rng));
    return std::uniform_real_distribution<double>(0.5, s.max_cost)(rng);
  };
  inst.cost_next.resize(s.n);
  for (auto& c : inst.cost_next) c = cost();
  if (s.bidirectional) {
    inst.cost_prev.resize(s.n);
    for (auto& c : inst.cost_prev) c = cost();
  }
  return inst;
}

}  // namespace ringsim::testing
