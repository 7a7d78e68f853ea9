// PLACEHOLDER (being written by a helper; must be replaced before landing).
#include <stdexcept>

#include "planners/redistribution/algorithms.hpp"

namespace ringsim {

RedistributionPlan plan_exact(const RingInstance&) { throw std::invalid_argument("exact: not yet available"); }

}  // namespace ringsim
