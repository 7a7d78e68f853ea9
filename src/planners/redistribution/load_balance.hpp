// The load-balancing step before a redistribution: integer column counts proportional to speeds,
// for speeds known exactly or up to a relative measurement error, and whether loads already are
// such a balance.
#pragma once

#include <vector>

#include "model/redistribution.hpp"

namespace ringsim::redistribution {

// Integer loads n_i >= 1 with sum `total` that minimize the iteration time max_i n_i / speed_i
// (columns proportional to speeds, rounded the way that matters for an iterative application).
// Throws InputError if total < number of processors or a speed is not finite and positive.
std::vector<Count> balanced_targets(const std::vector<double>& speeds, Count total);

// The same for speeds known up to a relative `error` in [0, 1) (the true speed of member i is in
// speeds_i (1 +- error)): where the speeds cannot tell which of two members should take a column,
// it goes to the one that exact speeds tying there would give it to, the lower index. With
// error 0 it is balanced_targets(speeds, total). The result is a balance within `error`
// (is_balance_within).
std::vector<Count> balanced_targets(const std::vector<double>& speeds, Count total, double error);

// Whether `loads` are a balance (what balanced_targets gives, up to ties) for some speeds within
// the relative `error` of `speeds` (error 0: for `speeds` themselves; error 1: any loads). The
// condition and why a redistribution point keeps such loads: load_balance.cpp.
bool is_balance_within(const std::vector<Count>& loads, const std::vector<double>& speeds, double error);

// The targets of a redistribution point that holds `loads`: the loads themselves when
// is_balance_within(loads, speeds, error), otherwise balanced_targets(speeds, total, error).
std::vector<Count> rebalanced_targets(const std::vector<Count>& loads, const std::vector<double>& speeds,
                                      double error);

// The relative error of a speed measured as work over a compute time of `compute_time` s read on
// a clock that showed `clock` s at its end: the true speed is within the measured one times
// (1 +- error). 1 when the time is too short for the clock to say anything.
double measured_speed_error(double compute_time, double clock);

}  // namespace ringsim::redistribution
