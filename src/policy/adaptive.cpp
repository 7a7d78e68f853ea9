// Scheme `adaptive` (adaptive.hpp: the rule and its reasons).
#include "policy/adaptive.hpp"

#include "policy/registry.hpp"

namespace ringsim::policy {

SchemeEntry adaptive_scheme() {
  return online_policy("adaptive",
                       "reports piggybacked on border messages; move when the predicted saving exceeds the cost",
                       Knows::reports,
                       [](const std::string& s, int) -> std::unique_ptr<RedistributionPolicy> {
                         return s == "adaptive" ? std::make_unique<Adaptive>() : nullptr;
                       });
}

}  // namespace ringsim::policy
