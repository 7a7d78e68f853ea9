#include "policies/registry.hpp"

#include <stdexcept>

#include "model/errors.hpp"
#include "model/named.hpp"
#include "planners/points/online_optimal.hpp"

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
  return s + ", " + kHindsightScheme + ", " + kHindsightTargetsScheme + ", " + kOnlineOptimalScheme;
}

std::vector<std::string> scheme_syntax_list() {
  std::vector<std::string> out;
  const std::string all = scheme_syntaxes();  // "after:a,b,.." has no space after its commas
  for (std::size_t from = 0;;) {
    const std::size_t to = all.find(", ", from);
    out.push_back(all.substr(from, to - from));
    if (to == std::string::npos) return out;
    from = to + 2;
  }
}

bool scheme_chosen_before_run(const std::string& scheme) {
  return scheme == kHindsightScheme || scheme == kHindsightTargetsScheme || scheme == kOnlineOptimalScheme;
}

void check_scheme_fits(const RunConfig& cfg, const std::string& where) {
  const std::string& s = cfg.scheme.name;
  const std::string scheme = where + ": scheme '" + s + "' ";
  if (scheme_chosen_before_run(s) && !cfg.rebuilds.empty())
    throw InputError(scheme + "does not combine with rebuilds (its recursion knows one ring)");
  if (s == kHindsightTargetsScheme && cfg.trace_placement != TracePlacement::iteration)
    throw InputError(scheme + "needs traces 'placement': 'iteration' (its recurrence needs speeds that change "
                     "between iterations only)");
  if (s != kOnlineOptimalScheme) return;
  if (cfg.trace_source != "on-off" || cfg.on_off.durations != OnOffDurations::geometric) {
    const std::string got = cfg.trace_source == "on-off" ? std::string(to_string(cfg.on_off.durations)) + " durations"
                                                         : "source " + trace_source_name(cfg);
    throw InputError(scheme + "needs traces {source: on-off} with geometric durations (the one load whose law it can "
                     "know exactly), got " + got);
  }
  if (cfg.trace_placement != TracePlacement::iteration)
    throw InputError(scheme + "needs traces 'placement': 'iteration' (its states change between iterations)");
  const std::size_t most = points::OnlineOptimal::max_members;
  const std::size_t n = cfg.selection == RingSelection::hosts ? cfg.ring_hosts.size() : static_cast<std::size_t>(cfg.ring_size);
  if (n > most)
    throw InputError(scheme + "needs a ring of at most " + std::to_string(most) +
                     " members (its recursion runs over the 2^n joint on/off states), got " + std::to_string(n));
}

std::unique_ptr<RedistributionPolicy> make_policy(const std::string& scheme, int iterations) {
  if (scheme_chosen_before_run(scheme))
    throw std::logic_error("scheme '" + scheme + "' is resolved into its points before the run, not made a policy");
  for (const auto& e : entries())
    if (auto p = e.make(scheme, iterations)) return p;
  throw UnknownName("scheme", scheme, scheme_syntaxes());
}

bool scheme_redistributes(const std::string& scheme, int iterations, const std::string& where) {
  if (scheme_chosen_before_run(scheme)) return iterations > 1;
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
