// Seeded random KPBS instances for the tests.
#pragma once

#include <cmath>
#include <random>

#include "model/kpbs.hpp"

namespace ringsim::testing {

// The KPBS paper's Figure 2 matrix in time units (MB / 10 MB/s, Section 1.1), k = 4, beta = 3.
inline KpbsInstance seed_figure2() {
  KpbsInstance inst;
  inst.times = {{3, 2, 0, 0}, {2, 0, 2, 0}, {0, 0, 4, 2}, {0, 1.5, 1, 1}};
  inst.k = 4;
  inst.beta = 3;
  return inst;
}

struct KpbsShape {
  std::size_t senders = 3;
  std::size_t receivers = 3;
  double density = 0.5;      // probability that an entry is non-zero
  bool integer_times = true; // integers 1..max_time, else reals in (0, max_time]
  int max_time = 10;
  std::size_t k = 2;
  double beta = 1.0;
};

inline KpbsInstance random_kpbs(std::mt19937_64& rng, const KpbsShape& shape) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<int> integer(1, shape.max_time);
  KpbsInstance inst;
  inst.k = shape.k;
  inst.beta = shape.beta;
  inst.times.assign(shape.senders, std::vector<double>(shape.receivers, 0.0));
  for (auto& row : inst.times)
    for (double& x : row)
      if (unit(rng) < shape.density)
        x = shape.integer_times ? integer(rng) : shape.max_time * (1.0 - unit(rng));
  return inst;
}

}  // namespace ringsim::testing
