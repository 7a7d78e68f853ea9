// The JSON form of a run (`ringsim simulate CONFIG`), read strictly: unknown keys, wrong types and
// bad values are InputErrors naming `where` and the key.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/run_config.hpp"

namespace ringsim::io {

RunConfig parse_run_config(const nlohmann::json& doc, const std::string& where);

// The canonical JSON of a config (all defaults filled in), for provenance and hashing.
nlohmann::json run_config_to_json(const RunConfig& cfg);

}  // namespace ringsim::io
