// Item-by-item, as-soon-as-possible execution of given per-edge item counts under the one-port
// model. It is the executor behind Algorithm 2 (HiPC 2004, Section 4: "sends ... one by one and as
// soon as possible"), the Lemma 4 schedule for light redistributions (Section 6) and the general
// heuristic: a processor sends an item when it holds one, its sending port is free and the
// receiver's receiving port is free.
#pragma once

#include <vector>

#include "model/redistribution.hpp"

namespace ringsim {

enum class PortPolicy {
  next_then_prev,  // Lemma 4: all items to P_(i+1) first, then to P_(i-1) as soon as possible
  prev_then_next,
  longest_first,   // whichever direction has more sending time left, if its receiver is free
};

// Throws std::logic_error if the counts cannot be executed (some item is never available).
std::vector<Transfer> schedule_asap(const RingInstance& inst, const std::vector<Count>& send_next,
                                    const std::vector<Count>& send_prev, PortPolicy policy);

double makespan(const std::vector<Transfer>& transfers);

}  // namespace ringsim
