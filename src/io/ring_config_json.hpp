// The `ring` object of a run config (docs/configs.md#ring), declared key by key: how the ring's
// members are chosen, or which they are.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "io/config_key.hpp"
#include "model/run_config.hpp"

namespace ringsim::io {

// The selection first (the planner's keys and the hosts depend on it), then a random draw's size
// and seed, then the planner's method, routing and candidates, and the hosts last.
enum class RingStage { selection, draw, planner, hosts };
using RingKey = ConfigKey<RingConfig, RingStage>;

// Every key of `ring`, in the order `ringsim config-keys` lists them.
const std::vector<RingKey>& ring_keys();

// Reads the object `r` into `ring`; InputErrors name `where`, the config.
void read_ring_object(const nlohmann::json& r, const std::string& where, RingConfig& ring);

// The canonical form of `ring`: the selection, size and seed, and the keys of its selection.
nlohmann::json ring_json(const RingConfig& ring);

}  // namespace ringsim::io
