#include "policy/registry.hpp"

#include <stdexcept>

#include "model/errors.hpp"
#include "model/named.hpp"

namespace ringsim::policy {

#define RINGSIM_SCHEME(NAME) SchemeEntry NAME##_scheme();
#include "policy/schemes.def"
#undef RINGSIM_SCHEME

namespace {

// Built once (make_policy runs once per member).
std::vector<SchemeEntry>& entries() {
  static std::vector<SchemeEntry> all = {
#define RINGSIM_SCHEME(NAME) NAME##_scheme(),
#include "policy/schemes.def"
#undef RINGSIM_SCHEME
  };
  return all;
}

}  // namespace

const char* to_string(Knows k) {
  switch (k) {
    case Knows::iteration_count: return "the run's length";
    case Knows::reports: return "the members' reports, as they reach it";
    case Knows::gathered_reports: return "the members' reports, gathered at each look";
    case Knows::load_states_and_law: return "every member's load state and the load's law";
    case Knows::future_traces: return "every future speed";
  }
  return "?";
}

const std::vector<SchemeEntry>& scheme_entries() { return entries(); }

void add_scheme(SchemeEntry entry) { entries().push_back(std::move(entry)); }

void add_policy(std::string syntax, std::string summary,
                std::function<std::unique_ptr<RedistributionPolicy>(const std::string&, int)> make) {
  add_scheme(online_policy(std::move(syntax), std::move(summary), Knows::reports, std::move(make)));
}

std::string scheme_syntaxes() { return known_names(entries()); }

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

const SchemeEntry* reference_scheme(const std::string& scheme) {
  for (const auto& e : entries())
    if (e.is_reference() && e.name == scheme) return &e;
  return nullptr;
}

void check_scheme_fits(const RunConfig& cfg, const std::string& where) {
  for (const auto& s : cfg.reference_check) {
    try {
      if (!is_fixed_scheme(s, cfg.iterations))
        throw InputError("'" + s + "' is not a fixed scheme (none, once, every-K, after:a,b,..)");
    } catch (const InputError& e) {
      throw InputError(where + ": 'reference_check': " + e.what());
    }
  }
  const SchemeEntry* ref = reference_scheme(cfg.scheme.name);
  if (!ref) return;
  const std::string scheme = where + ": scheme '" + cfg.scheme.name + "' ";
  if (!cfg.rebuilds.empty()) throw InputError(scheme + "does not combine with rebuilds (its recursion knows one ring)");
  if (ref->check_fits) ref->check_fits(cfg, scheme);
}

std::unique_ptr<RedistributionPolicy> make_policy(const std::string& scheme, int iterations) {
  if (reference_scheme(scheme))
    throw std::logic_error("scheme '" + scheme + "' is resolved into its points before the run, not made a policy");
  for (const auto& e : entries())
    if (e.make)
      if (auto p = e.make(scheme, iterations)) return p;
  throw UnknownName("scheme", scheme, scheme_syntaxes());
}

bool scheme_redistributes(const std::string& scheme, int iterations, const std::string& where) {
  if (reference_scheme(scheme)) return iterations > 1;
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
