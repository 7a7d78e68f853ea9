// The fixed schemes of HiPC 2004, Figures 3 and 4: redistribute after given iterations, whatever
// the speeds. "none", "once" (after half the iterations), "every-K", "after:a,b,c". Each point
// gathers this iteration's reports around the ring, plans, and moves whenever the targets differ
// from the loads; no report rides on border messages.
#include <algorithm>
#include <optional>
#include <set>

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

// A fixed scheme read as its rule, its points not yet enumerated: every `period`-th iteration
// (every-K), or the `listed` ones (none, once, after:..).
struct FixedRule {
  int period = 0;
  std::set<int> listed;
};

// The fixed schemes' forms, each with its rule.
struct FixedForm {
  const char* syntax;
  FixedRule (*rule)(const SchemeArgs& a);
};

// The form that lists its points: fixed_scheme_of writes a reference's points in it.
constexpr const char* kListedForm = "after:a,b,..";

constexpr FixedForm kFixedForms[] = {
    {kBaselineScheme, [](const SchemeArgs&) { return FixedRule{}; }},
    {"once",
     [](const SchemeArgs& a) {
       return FixedRule{0, a.iterations > 1 ? std::set<int>{a.iterations / 2} : std::set<int>{}};
     }},
    {"every-K", [](const SchemeArgs& a) { return FixedRule{a.period, {}}; }},
    {kListedForm, [](const SchemeArgs& a) { return FixedRule{0, a.listed}; }},
};

std::set<int> points_of(const FixedRule& rule, int iterations) {
  return rule.period > 0 ? every(rule.period, iterations) : rule.listed;
}

// nullopt for a scheme that is not a fixed one.
std::optional<FixedRule> rule_of(const std::string& s, int iterations) {
  for (const FixedForm& f : kFixedForms)
    if (auto args = read_scheme_form(f.syntax, s, iterations)) return f.rule(*args);
  return std::nullopt;
}

std::optional<std::set<int>> points_of(const std::string& s, int iterations) {
  auto rule = rule_of(s, iterations);
  if (!rule) return std::nullopt;
  return points_of(*rule, iterations);
}

}  // namespace

bool is_fixed_scheme(const std::string& s, int iterations) { return rule_of(s, iterations).has_value(); }

std::optional<std::vector<int>> fixed_points_of(const std::string& scheme, int iterations) {
  const auto after = points_of(scheme, iterations);
  if (!after) return std::nullopt;
  return std::vector<int>(after->begin(), after->end());
}

std::string fixed_scheme_of(const std::vector<int>& points) {
  if (points.empty()) return kBaselineScheme;
  std::string s = kListedForm;
  s.resize(s.find(':') + 1);
  for (std::size_t k = 0; k < points.size(); ++k) s += (k ? "," : "") + std::to_string(points[k]);
  return s;
}

SchemeEntry fixed_points_scheme() {
  std::vector<SchemeForm> forms;
  for (const FixedForm& f : kFixedForms)
    forms.push_back({f.syntax, [rule = f.rule](const SchemeArgs& a) {
                       return std::make_unique<FixedPoints>(points_of(rule(a), a.iterations));
                     }});
  return online_policy(std::move(forms), "redistribute after fixed iterations (HiPC 2004, Figures 3 and 4)",
                       Knows::iteration_count);
}

}  // namespace ringsim::policy
