// Growing paced blocks (model/redistribution.hpp): a processor that forwards items as they arrive
// from a slower link sends them one item cost of that link apart, so the run is one block whose
// m-th item leaves at start + m*period instead of one block per item. Shared by Algorithm 2 and
// the as-soon-as-possible executor of the bidirectional algorithms.
#pragma once

#include <algorithm>
#include <cmath>

#include "model/redistribution.hpp"

namespace ringsim {

// Whether an item leaving at `t` joins block b (whose last item left at `last`; c is the link's
// item cost): back to back (exactly one item cost later), or paced, the second item setting the
// period. A position is checked against the formula start + m*period, not against the previous
// item, so rounding never accumulates along a block. `tolerance` (relative) 0 accepts an item only
// where the formula gives exactly its time, so every departure stays the very double computed.
inline bool extends_block(Transfer& b, double last, double t, double c, double tolerance) {
  const double slack = tolerance * std::max(1.0, std::abs(t));
  if (b.items == 1 && last + c != t) {
    const double period = t - b.start;
    if (std::abs(b.start + period - t) > slack) return false;
    b.period = period;
  } else if (b.period == 0.0) {
    if (last + c != t) return false;
  } else if (std::abs(t - departure(b, b.items, c)) > slack) {
    return false;
  }
  ++b.items;
  b.end = departure(b, b.items - 1, c) + c;
  return true;
}

}  // namespace ringsim
