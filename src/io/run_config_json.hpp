// The JSON form of a run (`ringsim simulate CONFIG`), read strictly: unknown keys, wrong types and
// bad values are InputErrors naming `where` and the key.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "io/config_key.hpp"
#include "model/run_config.hpp"

namespace ringsim::io {

// When each top-level key is read (ConfigKey::stage): the ring after `columns`, a rebuild after the
// ring and `iterations`, staging after the traces' source.
enum class RunConfigStage { matrix, policy, simulator, decision_costs, ring, traces, moves };
using RunConfigKey = ConfigKey<RunConfig, RunConfigStage>;

// Every top-level key, in the order `ringsim config-keys` lists them.
const std::vector<RunConfigKey>& run_config_keys();
std::vector<std::string> run_config_key_names();

RunConfig parse_run_config(const nlohmann::json& doc, const std::string& where);

// The canonical JSON of a config (all defaults filled in), for provenance and hashing.
nlohmann::json run_config_to_json(const RunConfig& cfg);

}  // namespace ringsim::io
