// A bound on the items a planner plays one at a time. The item-by-item executor
// (asap_schedule.hpp) and the contested sinks of Lemma 4's schedule by runs (lemma4_runs.hpp) take
// time in proportion to the items they play, not to the ring's size: loads of 1e12 would never
// answer. Past this bound the plan is refused before it starts, in one line, so that every
// accepted instance answers within seconds.
#pragma once

#include <string>

#include "model/redistribution.hpp"

namespace ringsim::redistribution {

// 2^27 items: about a second of play, a few under the sanitizers.
inline constexpr Count kMaxItemsPlayedOneByOne = Count{1} << 27;

// Throws InputError when `items` exceed kMaxItemsPlayedOneByOne; `what` names the part of the
// planner that would play them.
void check_items_played_one_by_one(Count items, const std::string& what);

}  // namespace ringsim::redistribution
