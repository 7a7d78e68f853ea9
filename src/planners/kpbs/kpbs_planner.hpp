// The KPBS planner registry: every algorithm by name. The default is the KPBS paper's GGP.
#pragma once

#include <string>
#include <vector>

#include "model/kpbs.hpp"
#include "model/named.hpp"

namespace ringsim::kpbs {

const std::vector<NamedInfo>& kpbs_algorithms();

// A registered algorithm; UnknownName of `kind` otherwise.
void check_kpbs_algorithm(const std::string& scheduler, const std::string& kind = "algorithm");

// Validates the instance (InputError), runs the algorithm (UnknownName naming the known ones when
// `scheduler` is unknown) and fills lower_bound with eta.
KpbsSchedule plan_kpbs(const KpbsInstance& inst, const std::string& scheduler = "ggp");

}  // namespace ringsim::kpbs
