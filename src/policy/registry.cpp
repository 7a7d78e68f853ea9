#include "policy/registry.hpp"

#include <sstream>
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

void add_policy(std::string syntax, std::string summary, PolicyFactory make) {
  add_scheme(online_policy(std::move(syntax), std::move(summary), Knows::reports, std::move(make)));
}

SchemeEntry online_policy(std::vector<SchemeForm> forms, std::string summary, Knows knows) {
  SchemeEntry e;
  for (const auto& f : forms) e.name += (e.name.empty() ? "" : ", ") + f.syntax;
  e.description = std::move(summary);
  e.knows = knows;
  e.make = [forms = std::move(forms)](const std::string& scheme,
                                      int iterations) -> std::unique_ptr<RedistributionPolicy> {
    for (const auto& f : forms)
      if (auto args = read_scheme_form(f.syntax, scheme, iterations)) return f.make(*args);
    return nullptr;
  };
  return e;
}

std::optional<SchemeArgs> read_scheme_form(const std::string& syntax, const std::string& scheme, int iterations) {
  // The form's tail names its parameter: "NAME-K" a period, "NAME:a,b,.." iterations; else a name alone.
  const auto ends_with = [&](const std::string& tail) {
    return syntax.size() > tail.size() && syntax.compare(syntax.size() - tail.size(), tail.size(), tail) == 0;
  };
  const bool period = ends_with("-K"), listed = ends_with(":a,b,..");
  SchemeArgs args;
  args.scheme = scheme;
  args.iterations = iterations;
  if (!period && !listed) return scheme == syntax ? std::optional<SchemeArgs>(std::move(args)) : std::nullopt;
  const std::string prefix = syntax.substr(0, syntax.find_last_of(period ? '-' : ':') + 1);
  if (scheme.rfind(prefix, 0) != 0) return std::nullopt;
  const std::string parameter = scheme.substr(prefix.size());
  if (period) {
    args.period = positive_int_of(parameter, "the period of scheme '" + scheme + "'");
    return args;
  }
  std::stringstream list(parameter);
  std::string item;
  while (std::getline(list, item, ',')) {
    const int it = positive_int_of(item, "an iteration of scheme '" + scheme + "'");
    if (it >= iterations)
      throw InputError("scheme '" + scheme + "': iteration " + item + " is not before the last iteration");
    args.listed.insert(it);
  }
  if (args.listed.empty()) throw InputError("scheme '" + scheme + "' lists no iteration");
  return args;
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
  const std::string prefix = where + ": scheme '" + cfg.scheme.name + "' ";
  if (!cfg.rebuild.empty()) throw InputError(prefix + "does not combine with rebuilds (its recursion knows one ring)");
  if (ref->check_fits) ref->check_fits(cfg, prefix);
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
