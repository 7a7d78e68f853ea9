// Exact redistribution on small rings: a time-indexed integer program solved with GLPK.
#pragma once

#include <cstddef>
#include <optional>

#include "model/redistribution.hpp"

namespace ringsim::redistribution {

// Largest time-indexed model plan_exact builds: binary start variables (one per processor,
// direction and time slot). Above it plan_exact throws std::invalid_argument.
inline constexpr std::size_t exact_max_binaries = 6000;
// Wall-clock limit of the whole search over horizons; when hit, plan_exact throws
// std::invalid_argument (the instance is too hard to prove optimal quickly). Only instances the
// heuristic does not already solve to the System 2 bound reach GLPK at all.
inline constexpr double exact_time_limit_seconds = 10.0;

struct ExactOptions {
  // Solve the time-indexed program even when the heuristic already meets the lower bound, so
  // that the program itself can be checked against an independent oracle.
  bool always_solve = false;
};

// plan_exact (redistribution_algorithms.hpp) with options.
RedistributionPlan plan_exact(const RingInstance& inst, const ExactOptions& options);

// A time unit u such that every cost is an integer multiple of u (costs read as fractions with
// denominators up to 1000, relative tolerance 1e-9), or nothing when there is none.
std::optional<double> commensurable_unit(const RingInstance& inst);

}  // namespace ringsim::redistribution
