// JSON form of ring construction results (the `ringsim ring` contract of docs/design.md): method,
// tstep, ring, alpha, paths (from, to, links, bandwidth), plus what a researcher needs to check
// or plot them (q, W, H, wcumul, Equation 4's value, per-member times, the T_step per ring size,
// the method's own objective and how the fractions were allocated).
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "planners/ring/ring_plan.hpp"

namespace ringsim::io {

nlohmann::json ring_plan_to_json(const ring::RingNetwork& net, const ring::Workload& load, const ring::RingPlan& plan);

}  // namespace ringsim::io
