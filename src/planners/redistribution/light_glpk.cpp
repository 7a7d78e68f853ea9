// PLACEHOLDER (being written by a helper; must be replaced before landing).
#include <stdexcept>

#include "planners/redistribution/algorithms.hpp"

namespace ringsim {

RedistributionPlan plan_light_glpk(const RingInstance&) { throw std::invalid_argument("bi-light-glpk: not yet available"); }

}  // namespace ringsim
