// The slides' adaptive scheme, a baseline for the online policies: every K
// iterations (default 5) gather all reports around the ring (n-1 rounds), plan, and move only if
// the slides' test T_redistribution + n_left T'_step <= n_left T_step holds over the iterations
// left (the decision already paid). It pays the all-gather at every check, which is what makes it
// slow where the network dominates.
#include "policy/registry.hpp"

namespace ringsim::policy {
namespace {

class AdaptiveGather final : public RedistributionPolicy {
 public:
  explicit AdaptiveGather(int period) : period_(period) {}
  Act after_iteration(const MemberView& v) override {
    return v.iteration % period_ == 0 && v.iteration < v.ring->iterations ? Act::gather_and_decide : Act::carry_on;
  }
  bool accept(const MemberView& v, const Prediction& p) override {
    const double left = v.ring->iterations - v.iteration;
    return p.moves && p.transfer_time + left * p.tstep_after <= left * p.tstep_before;
  }

 private:
  int period_;
};

}  // namespace

SchemeEntry adaptive_gather_scheme() {
  return online_policy({{"adaptive-gather", [](const SchemeArgs&) { return std::make_unique<AdaptiveGather>(5); }},
                        {"adaptive-gather-K",
                         [](const SchemeArgs& a) { return std::make_unique<AdaptiveGather>(a.period); }}},
                       "every K iterations (5) gather all reports, move if the slides' test says it pays",
                       Knows::gathered_reports);
}

}  // namespace ringsim::policy
