// Scheme `adaptive` (adaptive.hpp: the rule and its reasons).
#include "policy/adaptive.hpp"

#include "policy/registry.hpp"

namespace ringsim::policy {

SchemeEntry adaptive_scheme() {
  return online_policy("adaptive",
                       "reports piggybacked on border messages; move when the predicted saving exceeds the cost",
                       Knows::reports,
                       [](const SchemeArgs&) { return std::make_unique<Adaptive>(); });
}

}  // namespace ringsim::policy
