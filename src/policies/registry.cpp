#include "policies/registry.hpp"

#include <stdexcept>

#include "model/named.hpp"

namespace ringsim::policy {

#define RINGSIM_POLICY(NAME) PolicyEntry NAME##_policy();
#include "policies/policies.def"
#undef RINGSIM_POLICY

namespace {

// The built-in entries first, then the added ones; built once (make_policy runs once per member).
std::vector<PolicyEntry>& entries() {
  static std::vector<PolicyEntry> all = {
#define RINGSIM_POLICY(NAME) NAME##_policy(),
#include "policies/policies.def"
#undef RINGSIM_POLICY
  };
  return all;
}

}  // namespace

void add_policy(PolicyEntry entry) { entries().push_back(std::move(entry)); }

std::string scheme_syntaxes() {
  std::string s;
  for (const auto& e : entries()) s += (s.empty() ? "" : ", ") + e.syntax;
  return s + ", " + kHindsightScheme;
}

std::unique_ptr<RedistributionPolicy> make_policy(const std::string& scheme, int iterations) {
  if (scheme == kHindsightScheme)
    throw std::logic_error("scheme 'hindsight' is resolved into its points before the run, not made a policy");
  for (const auto& e : entries())
    if (auto p = e.make(scheme, iterations)) return p;
  throw UnknownName("scheme", scheme, scheme_syntaxes());
}

bool scheme_redistributes(const std::string& scheme, int iterations, const std::string& where) {
  if (scheme == kHindsightScheme) return iterations > 1;
  try {
    return !make_policy(scheme, iterations)->never_redistributes();
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
}

int positive_int_of(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  int v = 0;
  try {
    v = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || v < 1 || text.empty() || text[0] == '+' || text[0] == ' ')
    throw InputError(what + " must be a positive integer, got '" + text + "'");
  return v;
}

}  // namespace ringsim::policy
