// The lower bound eta of the KPBS paper (Section 1.3): eta = eta_d + beta * eta_e, with
// eta_e = max(Delta, ceil(m / k)) steps (no node twice in a step, at most k communications per
// step) and eta_d = max(W, P / k) time of transfers (a node sends or receives one thing at a
// time; at most k transfers at once).
//
// The seed writes eta_d = max(W, ceil(P / k)). The ceiling is only valid when preemption cuts
// communications at integer amounts: with real amounts, three disjoint transfers of 1 and k = 2
// fit in three half-length steps of duration 0.5 (beta = 0), time 1.5 < ceil(3 / 2) = 2. ringsim
// allows any preemption amount, so it uses P / k, which is a lower bound in every case.
#pragma once

#include <cstddef>

#include "model/kpbs.hpp"

namespace ringsim::kpbs {

struct KpbsLowerBound {
  double W = 0.0;          // largest total of a sender's row or a receiver's column
  double P = 0.0;          // total of the matrix
  std::size_t Delta = 0;   // largest number of communications of one node
  std::size_t m = 0;       // number of communications (positive entries)
  double eta_d = 0.0;      // max(W, P / k)
  std::size_t eta_e = 0;   // max(Delta, ceil(m / k))
  double eta = 0.0;        // eta_d + beta * eta_e
};

KpbsLowerBound kpbs_lower_bound(const KpbsInstance& inst);

}  // namespace ringsim::kpbs
