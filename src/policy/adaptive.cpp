// Scheme `adaptive`: the adaptive rule alone (adaptive.hpp: the rule and its reasons), a move's
// saving counted over the time one member keeps its speed.
#include "policy/adaptive.hpp"

#include "policy/registry.hpp"

namespace ringsim::policy {

std::unique_ptr<Adaptive> adaptive_policy() { return std::make_unique<Adaptive>(); }

SchemeEntry adaptive_scheme() {
  return online_policy("adaptive",
                       "reports piggybacked on border messages; move when the predicted saving exceeds the cost",
                       Knows::reports, [](const SchemeArgs&) { return adaptive_policy(); });
}

}  // namespace ringsim::policy
