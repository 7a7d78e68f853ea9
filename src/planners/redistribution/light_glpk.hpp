// System 2 of the HiPC 2004 paper (Section 6) solved as printed, as a rational linear program with
// GLPK, then rounded: the paper's "polynomial" route to the light optimum, kept next to the exact
// circulation search of system2_circulation.hpp so that each can check the other.
#pragma once

#include "model/redistribution.hpp"

namespace ringsim::redistribution {

struct System2Relaxation {
  double lp_tau = 0.0;      // optimal value of the rational System 2 (a lower bound on tau)
  double x_star = 0.0;      // the LP solution's circulation: net flow on (P_i, P_(i+1)) minus F_i
  Count x_floor = 0, x_ceil = 0;
  double tau_floor = 0.0, tau_ceil = 0.0;  // system2_time of the two natural roundings
  Count x = 0;              // the rounding kept (the better one), or the light circulation
  double tau = 0.0;         // nearest to it when that one ties; its system2_time
  bool moved_to_light = false;
};

// Throws std::invalid_argument on a unidirectional ring, std::runtime_error if GLPK fails.
System2Relaxation solve_system2_relaxation(const RingInstance& inst);

}  // namespace ringsim::redistribution
