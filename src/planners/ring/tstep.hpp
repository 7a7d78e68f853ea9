// The time of one iteration for a given ring once the communication costs are known (SharedRing
// report, Section 2.1 and Equations 3-4).
//
// Member i needs a_i = W w_i to compute the whole work alone and b_i = H (c_i,pred + c_i,succ) to
// send its two messages. Equation 4 equates all members' times: T4 = (1 + sum b_i/a_i) / sum 1/a_i,
// i.e. T4 = W wcumul (1 + H/W sum (c_i,pred + c_i,succ)/w_i). That is only right when every share
// alpha_i = (T4 - b_i)/a_i is >= 0. The exact optimum with alpha_i >= 0 (a member whose
// communication alone exceeds T gets no work but still communicates, since it stays in the ring) is
// T = max(max_i b_i, r) where r solves sum_i max(0, (r - b_i)/a_i) = 1; it equals T4 when all the
// shares are >= 0 and is larger otherwise. In fact T = max(T4, max_i b_i): when some b_i exceeds T4
// the clamped root r is below T4, so the largest communication time decides. Both are
// non-decreasing in every cost.
#pragma once

#include <vector>

namespace ringsim::ring {

struct ShareBalance {
  double tstep = 0.0;  // exact, alpha_i >= 0
  double eq4 = 0.0;    // Equation 4 (a lower bound of tstep; equal when every alpha_i >= 0)
  std::vector<double> alpha;
};

// compute[i] = a_i = W w_i (> 0), comm[i] = b_i = H C_i (>= 0, may be +inf: then tstep = +inf).
ShareBalance balance_shares(const std::vector<double>& compute, const std::vector<double>& comm);

// Just the exact T (no allocation of the shares vector beyond a scratch buffer).
double exact_tstep(const std::vector<double>& compute, const std::vector<double>& comm);

}  // namespace ringsim::ring
