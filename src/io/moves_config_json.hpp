// The `staging` and `rebuild` objects of a run config (docs/configs.md#staging,
// docs/configs.md#rebuild), declared key by key: the matrix's moves by a KPBS schedule (docs/kpbs.md),
// from a storage cluster onto the ring before iteration 1, and from ring to ring during the run.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "io/config_key.hpp"
#include "model/run_config.hpp"

namespace ringsim::io {

// When a key of a move is read: where the matrix is or goes (staging: the storage nodes, their
// links' bandwidths, then latencies, checked with the last; a rebuild: when, and its ring), then
// where the backbone lands and whether members start before the move ends, then the schedule's k,
// beta and KPBS algorithm.
enum class MoveStage { place, bandwidths, latencies, start, schedule };
using StagingKey = ConfigKey<StagingConfig, MoveStage>;
// A rebuild is read as the last entry of its run config's `rebuild`: its defaults and checks use the
// run's ring and matrix, and the entries before it.
using RebuildKey = ConfigKey<RebuildConfig, MoveStage, RunConfig>;

// Every key of `staging`, and of an entry of `rebuild`, in the order `ringsim config-keys` lists them.
const std::vector<StagingKey>& staging_keys();
const std::vector<RebuildKey>& rebuild_keys();

// Reads the object `s` into `staging` (enabled); InputErrors name `where`, the config and the key.
void read_staging_object(const nlohmann::json& s, const std::string& where, StagingConfig& staging);
// Reads the array `list` into cfg.rebuild, after cfg's ring, rows, columns and iterations.
void read_rebuild_list(const nlohmann::json& list, const std::string& where, RunConfig& cfg);

// The canonical forms (run_config_to_json): every key, the defaults filled in; a staging's gateway
// when given, a rebuild's hosts or else its size and seed.
nlohmann::json staging_json(const StagingConfig& staging);
nlohmann::json rebuild_json(const std::vector<RebuildConfig>& rebuild);

}  // namespace ringsim::io
