// Scheme `adaptive-lasting` (adaptive_lasting.hpp has the rule and its reasons).
#include "policy/adaptive_lasting.hpp"

#include <memory>
#include <string>

#include "policy/registry.hpp"

namespace ringsim::policy {

SchemeEntry adaptive_lasting_scheme() {
  return online_policy("adaptive-lasting",
                       "adaptive, with the saving counted at the share of it that earlier "
                       "balances delivered, lag by lag, and a look bought once the ring's iteration time has risen "
                       "by enough to pay for it",
                       Knows::reports,
                       [](const SchemeArgs&) { return std::make_unique<AdaptiveLasting>(); });
}

}  // namespace ringsim::policy
