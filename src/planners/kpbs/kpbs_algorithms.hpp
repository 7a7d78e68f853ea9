// Every KPBS algorithm of ringsim, one file each (kpbs_planner.hpp holds the registry). Each returns a
// schedule with its steps, time and notes; kpbs_planner.cpp adds the lower bound eta.
#pragma once

#include "model/kpbs.hpp"

namespace ringsim::kpbs {

KpbsSchedule plan_ggp(const KpbsInstance& inst);          // ggp.cpp
KpbsSchedule plan_oggp(const KpbsInstance& inst);         // oggp.cpp
KpbsSchedule plan_greedy(const KpbsInstance& inst);       // kpbs_greedy.cpp
KpbsSchedule plan_all_at_once(const KpbsInstance& inst);  // all_at_once.cpp

}  // namespace ringsim::kpbs
