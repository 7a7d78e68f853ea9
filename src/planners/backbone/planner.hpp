// The KPBS planner registry: every algorithm by name. The default is the seed's GGP.
#pragma once

#include <string>
#include <vector>

#include "model/kpbs.hpp"

namespace ringsim {

struct KpbsAlgorithmInfo {
  std::string name;
  std::string description;
};

const std::vector<KpbsAlgorithmInfo>& kpbs_algorithms();

// Validates the instance (InputError), runs the algorithm (std::invalid_argument naming the known
// ones when `algorithm` is unknown) and fills lower_bound with eta.
KpbsSchedule plan_kpbs(const KpbsInstance& inst, const std::string& algorithm = "ggp");

}  // namespace ringsim
