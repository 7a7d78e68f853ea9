// `ringsim redistribute`'s answer, shared with `bench redistribute` (which times it): the plan's
// JSON written to a stream as it is produced.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>

#include "model/redistribution.hpp"

namespace ringsim::cli {

// Streamed block by block where the algorithm streams (stream_redistribution: memory O(n) plus
// the output's 1 MB pieces), else planned whole and then written in pieces; the same text either
// way. Returns the number of transfer blocks written.
std::size_t write_redistribution_answer(std::ostream& os, const RingInstance& inst, const std::string& planner);

}  // namespace ringsim::cli
