// The `traces` key of a run config (docs/traces.md): its source and each source's own keys, read
// strictly (InputErrors naming `where`, the config, and the key), and its canonical JSON.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/run_config.hpp"

namespace ringsim::io {

// Reads the object `t` into cfg.traces.
void read_traces(const nlohmann::json& t, const std::string& where, RunConfig& cfg);

// The canonical form of cfg.traces (run_config_to_json): each source's keys, its defaults filled in.
nlohmann::json traces_json(const RunConfig& cfg);

// With the ring's hosts given, an FTA 'nodes' entry for a host that is never a member is a mistake
// (a misspelt host would leave its member on the file's default), refused naming it.
void check_fta_nodes_in_ring(const RunConfig& cfg, const std::string& where);

}  // namespace ringsim::io
