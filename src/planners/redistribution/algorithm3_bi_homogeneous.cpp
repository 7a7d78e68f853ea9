// PLACEHOLDER (being written by a helper; must be replaced before landing).
#include <stdexcept>

#include "planners/redistribution/algorithms.hpp"

namespace ringsim {

RedistributionPlan plan_algorithm3(const RingInstance&) { throw std::invalid_argument("bi-homogeneous: not yet available"); }

}  // namespace ringsim
