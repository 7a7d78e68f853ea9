// What `ringsim config-keys` prints, so that the JSON Schema in docs/schema/ can be compared with it
// (tests/docs/check_schema.py): the keys run configs (`ringsim simulate`) and experiments (`ringsim
// run`) accept, object by object, and the values of their enumerated keys. A run config's objects
// are key tables (io/config_key.hpp); an experiment's keys are the lists below, which its reader
// refuses any other key with.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ringsim::io::config_keys {

using Keys = std::vector<std::string>;

extern const Keys experiment;  // the top level of an experiment
extern const Keys experiment_quick;

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

// {"run_config": {"": [...], "ring": [...], ..., "traces/<source>": [...]},
//  "experiment": {"": [...], "quick": [...]}}
nlohmann::json all();

// {"ring.selection": [...], ..., "traces.durations": [...]}: the values above and those of the traces
// sources' own keys (traces_values), by key path.
nlohmann::json reader_values();

}  // namespace ringsim::io::config_keys
