#include "io/ring_config_json.hpp"

#include <nlohmann/json.hpp>

#include "io/config_keys.hpp"
#include "io/json_input.hpp"
#include "io/json_values.hpp"
#include "model/errors.hpp"

namespace ringsim::io {
namespace {

using json_values::int_value;
using json_values::integer;
using json_values::seed_value;
using json_values::text;

void read_selection(const nlohmann::json& r, const char* key, const std::string& where, RingConfig& ring) {
  if (r.contains(key)) ring.selection = config_keys::ring_selection.read(r, key, where, "ring 'selection'");
}

void read_size(const nlohmann::json& r, const char* key, const std::string& where, RingConfig& ring) {
  if (r.contains(key)) ring.size = int_value(r, key, where + " 'ring'");
}

void read_seed(const nlohmann::json& r, const char* key, const std::string&, RingConfig& ring) {
  if (r.contains(key)) ring.seed = seed_value(r, key);
}

void read_method(const nlohmann::json& r, const char* key, const std::string&, RingConfig& ring) {
  if (r.contains(key)) ring.method = text(r, key);
}

void read_routing(const nlohmann::json& r, const char* key, const std::string& where, RingConfig& ring) {
  if (r.contains(key)) ring.routing = config_keys::ring_routing.read(r, key, where, "ring 'routing'");
}

// The last of the planner's keys: 'routing' and 'candidates' only a planner's ring takes.
void read_candidates(const nlohmann::json& r, const char* key, const std::string& where, RingConfig& ring) {
  if (r.contains(key)) {
    const auto n = integer(r, key);
    if (n < 0) throw InputError(where + ": ring 'candidates' must be >= 0 (0: every host)");
    ring.candidates = static_cast<std::size_t>(n);
  }
  if ((r.contains("routing") || r.contains(key)) && ring.selection != RingSelection::planner)
    throw InputError(where + ": ring 'routing' and 'candidates' apply to selection 'planner'");
}

// Given hosts make the selection `hosts` unless it is given, and the size theirs.
void read_hosts(const nlohmann::json& r, const char* key, const std::string& where, RingConfig& ring) {
  if (r.contains(key)) {
    if (!r[key].is_array()) throw InputError(where + ": ring 'hosts' must be an array of host names");
    for (const auto& h : r[key]) {
      if (!h.is_string()) throw InputError(where + ": ring 'hosts' must be an array of host names");
      ring.hosts.push_back(h.get<std::string>());
    }
    if (!r.contains("selection")) ring.selection = RingSelection::hosts;
    ring.size = static_cast<int>(ring.hosts.size());
  }
  if (ring.selection == RingSelection::hosts && ring.hosts.empty())
    throw InputError(where + ": ring selection 'hosts' needs a 'hosts' list");
}

// The selection, size and seed are always written; the others with the selection that takes them.

void write_size(const RingConfig& ring, const char* key, nlohmann::json& out) { out[key] = ring.size; }
void write_selection(const RingConfig& ring, const char* key, nlohmann::json& out) {
  out[key] = to_string(ring.selection);
}
void write_seed(const RingConfig& ring, const char* key, nlohmann::json& out) { out[key] = ring.seed; }

void write_hosts(const RingConfig& ring, const char* key, nlohmann::json& out) {
  if (ring.selection == RingSelection::hosts) out[key] = ring.hosts;
}

void write_method(const RingConfig& ring, const char* key, nlohmann::json& out) {
  if (ring.selection == RingSelection::planner) out[key] = ring.method;
}

void write_routing(const RingConfig& ring, const char* key, nlohmann::json& out) {
  if (ring.selection == RingSelection::planner) out[key] = to_string(ring.routing);
}

void write_candidates(const RingConfig& ring, const char* key, nlohmann::json& out) {
  if (ring.selection == RingSelection::planner && ring.candidates > 0) out[key] = ring.candidates;
}

}  // namespace

// The meanings are the manual's (docs/configs.md#ring), shortened.
const std::vector<RingKey>& ring_keys() {
  static const std::vector<RingKey> keys = {
      {"size", RingStage::draw, read_size, write_size, "members drawn at random (selection random)"},
      {"selection", RingStage::selection, read_selection, write_selection, "random, hosts or planner"},
      {"hosts", RingStage::hosts, read_hosts, write_hosts, "host names in ring order (selection hosts)"},
      {"method", RingStage::planner, read_method, write_method, "selection planner: the ring construction method"},
      {"seed", RingStage::draw, read_seed, write_seed, "seed of the random draw"},
      {"routing", RingStage::planner, read_routing, write_routing, "selection planner: free, platform or auto"},
      {"candidates", RingStage::planner, read_candidates, write_candidates,
       "selection planner: the N fastest hosts are candidates (0: every host)"},
  };
  return keys;
}

void read_ring_object(const nlohmann::json& r, const std::string& where, RingConfig& ring) {
  if (!r.is_object()) throw InputError(where + ": 'ring' must be an object");
  io::require_known_keys(r, key_names(ring_keys()), where + " 'ring'");
  read_keys(ring_keys(), {RingStage::selection, RingStage::draw, RingStage::planner, RingStage::hosts}, r, where,
            ring);
}

nlohmann::json ring_json(const RingConfig& ring) {
  nlohmann::json out = nlohmann::json::object();
  write_keys(ring_keys(), ring, out);
  return out;
}

}  // namespace ringsim::io
