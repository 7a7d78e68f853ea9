#include "planners/redistribution/played_items.hpp"

#include "model/errors.hpp"

namespace ringsim::redistribution {

void check_items_played_one_by_one(Count items, const std::string& what) {
  if (items <= kMaxItemsPlayedOneByOne) return;
  throw InputError(what + " would play more than " + std::to_string(kMaxItemsPlayedOneByOne) +
                   " (2^27) items one at a time, the most ringsim plays (its time grows with the items, not with the ring): scale the "
                   "loads down");
}

}  // namespace ringsim::redistribution
