// Reports ride on the border messages and nothing is ever redistributed: what the information of
// the adaptive policy costs alone (bigger border messages), to compare with `none`.
#include "policy/registry.hpp"

namespace ringsim::policy {
namespace {

class Observe final : public RedistributionPolicy {
 public:
  bool piggybacks_reports() const override { return true; }
  bool reads_common() const override { return false; }
  Act after_iteration(const MemberView&) override { return Act::carry_on; }
};

}  // namespace

SchemeEntry observe_scheme() {
  return online_policy("observe",
                       "reports piggybacked on border messages, never redistributes (the cost of the information)",
                       Knows::reports,
                       [](const SchemeArgs&) { return std::make_unique<Observe>(); });
}

}  // namespace ringsim::policy
