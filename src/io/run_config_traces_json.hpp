// The `traces` key of a run config (docs/traces.md): its source and each source's own keys, declared
// key by key in one table per source, read strictly (InputErrors naming `where`, the config, and
// the key), and its canonical JSON.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "io/config_key.hpp"
#include "model/run_config.hpp"

namespace ringsim::io {

// When a key of `traces` is read: the seed, the source and the placement (whose check uses the
// source) first; then the source's own keys; then the few its checks across keys run with, or
// whose mistakes are reported after those of the others.
enum class TracesStage { common, own, last };
using TracesKey = ConfigKey<SpeedTracesConfig, TracesStage>;

// The keys of `traces` for a source, in the order `ringsim config-keys` lists them (measured and
// factor, and a config naming no source, share theirs).
const std::vector<TracesKey>& traces_keys(TraceSource source);

// {"traces.placement": [...], ...}: the values of the sources' enumerated keys, each declared beside
// its key's reader, by key path (the source's name: config_keys::trace_sources).
nlohmann::json traces_values();

// Reads the object `t` into cfg.traces.
void read_traces(const nlohmann::json& t, const std::string& where, RunConfig& cfg);

// The canonical form of cfg.traces (run_config_to_json): each source's keys, its defaults filled in.
nlohmann::json traces_json(const RunConfig& cfg);

// With the ring's hosts given, an FTA 'nodes' entry for a host that is never a member is a mistake
// (a misspelt host would leave its member on the file's default), refused naming it.
void check_fta_nodes_in_ring(const RunConfig& cfg, const std::string& where);

}  // namespace ringsim::io
