// The fixed schemes of HiPC 2004, Figures 3 and 4: redistribute after given iterations, whatever
// the speeds. "none", "once" (after half the iterations), "every-K", "after:a,b,c". Each point
// gathers this iteration's reports around the ring, plans, and moves whenever the targets differ
// from the loads; no report rides on border messages.
#include <algorithm>
#include <optional>
#include <set>
#include <sstream>

#include "model/errors.hpp"
#include "policy/registry.hpp"

namespace ringsim::policy {
namespace {

class FixedPoints final : public RedistributionPolicy {
 public:
  explicit FixedPoints(std::set<int> after) : after_(std::move(after)) {}
  bool never_redistributes() const override { return after_.empty(); }
  Act after_iteration(const MemberView& v) override {
    return after_.count(v.iteration) ? Act::gather_and_decide : Act::carry_on;
  }

 private:
  std::set<int> after_;
};

std::set<int> every(int k, int iterations) {
  std::set<int> after;
  for (int it = k; it < iterations; it += k) after.insert(it);
  return after;
}

std::set<int> listed(const std::string& scheme, int iterations) {
  std::set<int> after;
  std::stringstream list(scheme.substr(6));
  std::string item;
  while (std::getline(list, item, ',')) {
    const int it = positive_int_of(item, "an iteration of scheme '" + scheme + "'");
    if (it >= iterations)
      throw InputError("scheme '" + scheme + "': iteration " + item + " is not before the last iteration");
    after.insert(it);
  }
  if (after.empty()) throw InputError("scheme '" + scheme + "' lists no iteration");
  return after;
}

// A fixed scheme read as its rule, its points not yet enumerated: every `period`-th iteration
// (every-K), or the `listed` ones (none, once, after:..). nullopt for a scheme that is not one.
struct FixedRule {
  int period = 0;
  std::set<int> listed;
};

std::optional<FixedRule> rule_of(const std::string& s, int iterations) {
  if (s == kBaselineScheme) return FixedRule{};
  if (s == "once") return FixedRule{0, iterations > 1 ? std::set<int>{iterations / 2} : std::set<int>{}};
  if (s.rfind("every-", 0) == 0) return FixedRule{positive_int_of(s.substr(6), "the period of scheme '" + s + "'"), {}};
  if (s.rfind("after:", 0) == 0) return FixedRule{0, listed(s, iterations)};
  return std::nullopt;
}

std::optional<std::set<int>> points_of(const std::string& s, int iterations) {
  auto rule = rule_of(s, iterations);
  if (!rule) return std::nullopt;
  return rule->period > 0 ? every(rule->period, iterations) : std::move(rule->listed);
}

// The policy of a fixed scheme, or nullptr for a scheme that is not one.
std::unique_ptr<RedistributionPolicy> fixed_points(const std::string& s, int iterations) {
  auto after = points_of(s, iterations);
  return after ? std::make_unique<FixedPoints>(std::move(*after)) : nullptr;
}

}  // namespace

const char* const kBaselineScheme = "none";

bool is_fixed_scheme(const std::string& s, int iterations) { return rule_of(s, iterations).has_value(); }

std::optional<std::vector<int>> fixed_points_of(const std::string& scheme, int iterations) {
  const auto after = points_of(scheme, iterations);
  if (!after) return std::nullopt;
  return std::vector<int>(after->begin(), after->end());
}

std::string fixed_scheme_of(const std::vector<int>& points) {
  if (points.empty()) return kBaselineScheme;
  std::string s = "after:";
  for (std::size_t k = 0; k < points.size(); ++k) s += (k ? "," : "") + std::to_string(points[k]);
  return s;
}

SchemeEntry fixed_points_scheme() {
  return online_policy("none, once, every-K, after:a,b,..",
                       "redistribute after fixed iterations (HiPC 2004, Figures 3 and 4)", Knows::iteration_count,
                       fixed_points);
}

}  // namespace ringsim::policy
