// What `ringsim config-keys` prints of run configs (`ringsim simulate`), so that the JSON Schema in
// docs/schema/ can be compared with it (tests/docs/check_schema.py): the keys they accept, object by
// object, from the objects' key tables (io/config_key.hpp), and the values of their enumerated keys.
// (An experiment's keys are the sweep layer's: sweep/experiment_keys.hpp.)
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ringsim::io::config_keys {

using Keys = std::vector<std::string>;

// The values of the enumerated keys the reader checks itself (the registries' names -- schemes,
// algorithms, ring methods, KPBS planners -- come from the registries: src/cli/cmd_config_keys.cpp).
// The reader accepts exactly these, and `ringsim config-keys` prints them.
extern const Keys ring_selection;
extern const Keys ring_routing;
extern const Keys targets;
extern const Keys network_model;
extern const Keys trace_sources;  // in the order of the enumerators of TraceSource
// (The values of the traces sources' own keys are declared beside their readers:
// io/run_config_traces_json.hpp, traces_values.)

bool accepts(const Keys& values, const std::string& value);
// "a, b or c" (each in double quotes when `quoted`), for error messages.
std::string listed(const Keys& values, bool quoted = false);

// {"": [...], "ring": [...], "staging": [...], "rebuild[]": [...], "traces/<source>": [...]}: the keys of
// each object of a run config ("" its top level), from its table.
nlohmann::json run_config_objects();

// {"ring.selection": [...], ..., "traces.durations": [...]}: the values above and those of the traces
// sources' own keys (traces_values), by key path.
nlohmann::json reader_values();

}  // namespace ringsim::io::config_keys
