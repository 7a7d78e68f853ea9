// Growing paced blocks (model/redistribution.hpp) item by item, for the as-soon-as-possible
// executor of the bidirectional algorithms: a processor that forwards items as they arrive from a
// slower link sends them one item cost of that link apart, so the run is one block whose m-th item
// leaves at start + m*period instead of one block per item. (Algorithm 2 computes its runs whole:
// forwarding_runs.hpp.)
#pragma once

#include "model/redistribution.hpp"

namespace ringsim::redistribution {

// Whether an item leaving at `t` joins block b (whose last item left at `last`; c is the link's
// item cost): back to back (exactly one item cost later), or paced, the second item setting the
// period. An item joins only where the formula start + m*period gives exactly its time, so every
// departure stays the very double the executor computed.
inline bool extends_block(Transfer& b, double last, double t, double c) {
  if (b.items == 1 && last + c != t) {
    const double period = t - b.start;
    if (b.start + period != t) return false;
    b.period = period;
  } else if (b.period == 0.0) {
    if (last + c != t) return false;
  } else if (t != departure(b, b.items, c)) {
    return false;
  }
  ++b.items;
  b.end = departure(b, b.items - 1, c) + c;
  return true;
}

}  // namespace ringsim::redistribution
