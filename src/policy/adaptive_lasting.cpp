// Scheme `adaptive-lasting`: the adaptive rule (adaptive.hpp) with three rules of the family.
//   - The lasting saving (lasting_saving.hpp): a move's saving counted lag by lag at the share of
//     it that balances have delivered at that lag in this run, instead of over a horizon of one
//     member's persistence. How long one member keeps its speed does not say how long a balance of
//     all of them lasts: under a churn faster than a balance lasts yesterday's balance gives
//     today's slow member more columns, and under a lasting change every earlier balance keeps
//     saving; the backtest measures which
//     (experiments/when/NOTES.md, "adaptive-lasting: the saving measured by a backtest").
//   - The rise (rise.hpp): a look bought once the ring's iteration time has risen by enough to pay
//     for it. Every member knows the ring's iteration time the iteration after it, where the
//     snapshots come floor(n/2) iterations late: 15 on a ring of 32.
//   - The return to the initial balance (return_to_initial.hpp): the way out of balances that have
//     turned harmful, which the lasting saving charges leaving.
#include "policy/adaptive.hpp"

#include <memory>
#include <string>

#include "policy/registry.hpp"

namespace ringsim::policy {

std::unique_ptr<Adaptive> adaptive_lasting_policy() {
  AdaptiveRules rules;
  rules.lasting.emplace();
  rules.rise.emplace();
  rules.return_to_initial.emplace();
  return std::make_unique<Adaptive>(std::move(rules));
}

SchemeEntry adaptive_lasting_scheme() {
  return online_policy("adaptive-lasting",
                       "adaptive, with the saving counted at the share of it that earlier "
                       "balances delivered, lag by lag, and a look bought once the ring's iteration time has risen "
                       "by enough to pay for it",
                       Knows::reports, [](const SchemeArgs&) { return adaptive_lasting_policy(); });
}

}  // namespace ringsim::policy
