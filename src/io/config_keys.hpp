// What `ringsim config-keys` prints of run configs (`ringsim simulate`), so that the JSON Schema in
// docs/schema/ can be compared with it (tests/docs/check_schema.py): the keys they accept, object by
// object, from the objects' key tables (io/config_key.hpp), and the values of their enumerated keys.
// (An experiment's keys are the sweep layer's: sweep/experiment_keys.hpp.)
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/platform_graph.hpp"
#include "model/run_config.hpp"

namespace ringsim::io::config_keys {

using Keys = std::vector<std::string>;

bool accepts(const Keys& values, const std::string& value);
// "a, b or c" (each in double quotes when `quoted`), for error messages.
std::string listed(const Keys& values, bool quoted = false);

// How the refusal of an enumerated key's value lists the values: plain (a, b or c) or quoted ("a",
// "b" or "c"), and whether it ends with the value given (..., got 'd').
enum class Listing { plain, quoted, plain_then_given, quoted_then_given };

// The index in `names` of the string doc[key] (json_values::text), or InputError
// "<where>: <what> must be <names listed>", `what` the key as the message names it ("ring 'routing'").
std::size_t value_index(const nlohmann::json& doc, const char* key, const Keys& names, Listing listing,
                        const std::string& where, const std::string& what);

// An enumerated key's values, each with the enumerator it reads as, declared once: its reader
// accepts exactly these (read), `ringsim config-keys` prints them (reader_values), and a refusal
// lists them, in this order.
template <class Enum>
struct Enumerated {
  std::vector<std::pair<std::string, Enum>> values;
  Listing listing = Listing::plain;

  Keys names() const {
    Keys n;
    for (const auto& v : values) n.push_back(v.first);
    return n;
  }
  Enum read(const nlohmann::json& doc, const char* key, const std::string& where, const std::string& what) const {
    return values[value_index(doc, key, names(), listing, where, what)].second;
  }
  // The enumerator named `name`, or null.
  const Enum* find(const std::string& name) const {
    for (const auto& v : values)
      if (v.first == name) return &v.second;
    return nullptr;
  }
};

// The model's names (to_string) of `enumerators`, in this order: a value is named once, where the
// canonical JSON writes it back too.
template <class Enum>
Enumerated<Enum> named(std::initializer_list<Enum> enumerators, Listing listing = Listing::plain) {
  Enumerated<Enum> e;
  e.listing = listing;
  for (const Enum v : enumerators) e.values.emplace_back(to_string(v), v);
  return e;
}

// The enumerated keys the reader checks itself (the registries' names -- schemes, algorithms, ring
// methods, KPBS planners -- come from the registries: src/cli/cmd_config_keys.cpp).
extern const Enumerated<RingSelection> ring_selection;
extern const Enumerated<RingRouting> ring_routing;
extern const Enumerated<TargetMode> targets;
extern const Enumerated<NetworkModel> network_model;
// The traces sources a config names, each by the model's name for it (to_string(TraceSource)), in
// the enumerators' order (read_traces looks a source's keys up by its name).
extern const Enumerated<TraceSource> trace_sources;
// (The values of the traces sources' own keys are declared beside their readers:
// io/run_config_traces_json.hpp, traces_values.)

// {"": [...], "ring": [...], "staging": [...], "rebuild[]": [...], "traces/<source>": [...]}: the keys of
// each object of a run config ("" its top level), from its table.
nlohmann::json run_config_objects();

// {"ring.selection": [...], ..., "traces.durations": [...]}: the values above and those of the traces
// sources' own keys (traces_values), by key path.
nlohmann::json reader_values();

}  // namespace ringsim::io::config_keys
