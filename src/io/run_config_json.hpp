// The JSON form of a run (`ringsim simulate CONFIG`), read strictly: unknown keys, wrong types and
// bad values are InputErrors naming `where` and the key.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/run_config.hpp"

namespace ringsim::io {

// One key of a run config's top level, declared once: its JSON name, which is its RunConfig field's
// name; how it is read and checked, and written back; and what it means. A key the config does not
// give keeps its field's default (RunConfig's initializer), or is refused where it is required.
struct RunConfigKey {
  // Keys are read stage by stage, each stage's in the table's order: a key's checks use the keys of
  // the stages before it (the ring against `columns`; a rebuild against the ring and `iterations`;
  // staging against the traces' source), and of several mistakes the same one is reported first.
  enum class Stage { matrix, policy, simulator, decision_costs, ring, traces, moves };
  using Read = void (*)(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg);
  // Adds the key to a config's canonical JSON, or leaves it out where the canonical form omits it.
  using Write = void (*)(const RunConfig& cfg, const char* key, nlohmann::json& out);
  const char* name;
  Stage stage;
  Read read;
  Write write;
  const char* help;  // one line; docs/configs.md#top-level says more
};

// Every top-level key, in the order `ringsim config-keys` lists them.
const std::vector<RunConfigKey>& run_config_keys();
std::vector<std::string> run_config_key_names();

RunConfig parse_run_config(const nlohmann::json& doc, const std::string& where);

// The canonical JSON of a config (all defaults filled in), for provenance and hashing.
nlohmann::json run_config_to_json(const RunConfig& cfg);

}  // namespace ringsim::io
