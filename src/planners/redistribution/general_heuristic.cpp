// PLACEHOLDER (being written by a helper; must be replaced before landing).
#include <stdexcept>

#include "planners/redistribution/algorithms.hpp"

namespace ringsim {

RedistributionPlan plan_general_heuristic(const RingInstance&) { throw std::invalid_argument("bi-heuristic: not yet available"); }

}  // namespace ringsim
