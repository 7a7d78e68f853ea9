#include "io/moves_config_json.hpp"

#include <nlohmann/json.hpp>

#include "io/json_input.hpp"
#include "io/json_values.hpp"
#include "model/errors.hpp"
#include "model/named.hpp"
#include "planners/kpbs/kpbs_planner.hpp"

namespace ringsim::io {
namespace {

using json_values::int_value;
using json_values::integer;
using json_values::number;
using json_values::seed_value;
using json_values::text;

// The move a key's reader fills: the staging itself, or the rebuild being read, the last of its run
// config's list.
StagingConfig& move_of(StagingConfig& staging) { return staging; }
RebuildConfig& move_of(RunConfig& cfg) { return cfg.rebuild.back(); }

// The keys of a move's KPBS schedule, the same in a staging and in a rebuild (docs/kpbs.md).

template <class Reading>
void read_k(const nlohmann::json& doc, const char* key, const std::string& where, Reading& into) {
  if (!doc.contains(key)) return;
  const long long v = integer(doc, key);
  if (v < 0) throw InputError(where + ": 'k' must be >= 1 (or 0: derived from the routes)");
  move_of(into).k = static_cast<std::size_t>(v);
}

template <class Reading>
void read_beta(const nlohmann::json& doc, const char* key, const std::string& where, Reading& into) {
  auto& move = move_of(into);
  if (doc.contains(key)) move.beta = number(doc, key);
  if (move.beta < 0) throw InputError(where + ": 'beta' must be >= 0");
}

template <class Reading>
void read_kpbs_algorithm(const nlohmann::json& doc, const char* key, const std::string& where, Reading& into) {
  if (!doc.contains(key)) return;
  const std::string name = text(doc, key);
  try {
    kpbs::check_kpbs_algorithm(name, "KPBS algorithm");
  } catch (const UnknownName& e) {
    throw InputError(where + ": " + e.what());
  }
  move_of(into).algorithm = name;
}

template <class Reading>
void read_overlap(const nlohmann::json& doc, const char* key, const std::string& where, Reading& into) {
  if (!doc.contains(key)) return;
  if (!doc[key].is_boolean()) throw InputError(where + ": 'overlap' must be true or false");
  move_of(into).overlap = doc[key].get<bool>();
}

template <auto field, class Object>
void write_move_field(const Object& from, const char* key, nlohmann::json& out) {
  out[key] = from.*field;
}

// The staging's own keys: its storage cluster (model/storage_cluster.hpp) and gateway.

void read_nodes(const nlohmann::json& doc, const char* key, const std::string& where, StagingConfig& staging) {
  if (!doc.contains(key)) return;
  const long long n = integer(doc, key);
  if (n < 1) throw InputError(where + ": 'nodes' must be >= 1");
  // Its memory (quadratic in the nodes) is checked with the run's: model/run_memory.hpp.
  staging.cluster.nodes = static_cast<std::size_t>(n);
}

template <double StorageClusterSpec::*field>
void read_cluster_link(const nlohmann::json& doc, const char* key, const std::string&, StagingConfig& staging) {
  if (doc.contains(key)) staging.cluster.*field = number(doc, key);
}

// The last of the links' keys: every bandwidth and latency is checked once all four are read.
void read_backbone_latency(const nlohmann::json& doc, const char* key, const std::string& where,
                           StagingConfig& staging) {
  read_cluster_link<&StorageClusterSpec::backbone_latency>(doc, key, where, staging);
  const StorageClusterSpec& c = staging.cluster;
  if (c.node_bandwidth <= 0 || c.backbone_bandwidth <= 0)
    throw InputError(where + ": 'node_bandwidth' and 'backbone_bandwidth' must be > 0 (bytes/s)");
  if (c.node_latency < 0 || c.backbone_latency < 0)
    throw InputError(where + ": 'node_latency' and 'backbone_latency' must be >= 0 (s)");
}

void read_gateway(const nlohmann::json& doc, const char* key, const std::string&, StagingConfig& staging) {
  if (doc.contains(key)) staging.gateway = text(doc, key);
}

template <auto field>
void write_cluster(const StagingConfig& staging, const char* key, nlohmann::json& out) {
  out[key] = staging.cluster.*field;
}

void write_gateway(const StagingConfig& staging, const char* key, nlohmann::json& out) {
  if (!staging.gateway.empty()) out[key] = staging.gateway;
}

// A rebuild's own keys: when it happens, and its ring, given or drawn.

// Required; rebuilds come in increasing order.
void read_after(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  if (!doc.contains(key)) throw InputError(where + ": missing field 'after'");
  RebuildConfig& rb = cfg.rebuild.back();
  rb.after = int_value(doc, key, where);
  if (rb.after < 1 || rb.after >= cfg.iterations)
    throw InputError(where + ": 'after' must be an iteration in [1, " + std::to_string(cfg.iterations - 1) + "]");
  if (cfg.rebuild.size() > 1 && rb.after <= cfg.rebuild[cfg.rebuild.size() - 2].after)
    throw InputError(where + ": rebuilds must come in increasing 'after'");
}

void read_rebuild_hosts(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  if (!doc.contains(key)) return;
  const auto& hosts = doc[key];
  if (!hosts.is_array() || hosts.empty()) throw InputError(where + ": 'hosts' must be a non-empty array of host names");
  for (const auto& h : hosts) {
    if (!h.is_string()) throw InputError(where + ": 'hosts' must be a non-empty array of host names");
    cfg.rebuild.back().hosts.push_back(h.get<std::string>());
  }
  if (doc.contains("size") || doc.contains("seed")) throw InputError(where + ": give either 'hosts' or 'size'/'seed'");
}

// The given hosts' number, or else the current ring's size unless given.
void read_rebuild_size(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  RebuildConfig& rb = cfg.rebuild.back();
  rb.size = rb.hosts.empty() ? cfg.ring.size : static_cast<int>(rb.hosts.size());
  if (doc.contains(key)) rb.size = int_value(doc, key, where);
  if (rb.size < 1 || rb.size > cfg.columns)
    throw InputError(where + ": the rebuilt ring needs between 1 and 'columns' members");
}

// By default each rebuild draws with its own seed: the ring's, plus 1 and its index.
void read_rebuild_seed(const nlohmann::json& doc, const char* key, const std::string&, RunConfig& cfg) {
  RebuildConfig& rb = cfg.rebuild.back();
  const std::size_t index = cfg.rebuild.size() - 1;
  rb.seed = cfg.ring.seed + 1 + index;
  if (doc.contains(key)) rb.seed = seed_value(doc, key);
}

// A drawn ring is written as its size and seed, given hosts as themselves.

void write_rebuild_hosts(const RebuildConfig& rb, const char* key, nlohmann::json& out) {
  if (!rb.hosts.empty()) out[key] = rb.hosts;
}

template <auto field>
void write_draw(const RebuildConfig& rb, const char* key, nlohmann::json& out) {
  if (rb.hosts.empty()) out[key] = rb.*field;
}

}  // namespace

// The meanings are the manual's (docs/configs.md#staging), shortened.
const std::vector<StagingKey>& staging_keys() {
  using S = StagingConfig;
  using C = StorageClusterSpec;
  static const std::vector<StagingKey> keys = {
      {"nodes", MoveStage::place, read_nodes, write_cluster<&C::nodes>, "storage nodes (v1)"},
      {"node_bandwidth", MoveStage::bandwidths, read_cluster_link<&C::node_bandwidth>,
       write_cluster<&C::node_bandwidth>,
       "a storage node's link (b1), bytes/s"},
      {"node_latency", MoveStage::latencies, read_cluster_link<&C::node_latency>, write_cluster<&C::node_latency>,
       "its latency, s"},
      {"backbone_bandwidth", MoveStage::bandwidths, read_cluster_link<&C::backbone_bandwidth>,
       write_cluster<&C::backbone_bandwidth>, "the backbone (bb), bytes/s"},
      {"backbone_latency", MoveStage::latencies, read_backbone_latency, write_cluster<&C::backbone_latency>,
       "its latency, s"},
      {"gateway", MoveStage::start, read_gateway, write_gateway, "the platform host where the backbone lands"},
      {"k", MoveStage::schedule, read_k<S>, write_move_field<&S::k, S>,
       "most transfers at once (0: derived from the routes)"},
      {"beta", MoveStage::schedule, read_beta<S>, write_move_field<&S::beta, S>,
       "setup delay of every schedule step, s"},
      {"algorithm", MoveStage::schedule, read_kpbs_algorithm<S>, write_move_field<&S::algorithm, S>, "KPBS planner"},
      {"overlap", MoveStage::start, read_overlap<S>, write_move_field<&S::overlap, S>,
       "members start as soon as they hold their own columns"},
  };
  return keys;
}

// The meanings are the manual's (docs/configs.md#rebuild), shortened.
const std::vector<RebuildKey>& rebuild_keys() {
  using R = RebuildConfig;
  static const std::vector<RebuildKey> keys = {
      {"after", MoveStage::place, read_after, write_move_field<&R::after, R>,
       "the iteration after which the ring moves"},
      {"hosts", MoveStage::place, read_rebuild_hosts, write_rebuild_hosts,
       "the new ring, in order (instead of size/seed)"},
      {"size", MoveStage::place, read_rebuild_size, write_draw<&R::size>, "hosts drawn at random"},
      {"seed", MoveStage::place, read_rebuild_seed, write_draw<&R::seed>, "seed of that draw"},
      {"k", MoveStage::schedule, read_k<RunConfig>, write_move_field<&R::k, R>,
       "most transfers at once (0: derived from the routes)"},
      {"beta", MoveStage::schedule, read_beta<RunConfig>, write_move_field<&R::beta, R>,
       "setup delay of every schedule step, s"},
      {"algorithm", MoveStage::schedule, read_kpbs_algorithm<RunConfig>, write_move_field<&R::algorithm, R>,
       "KPBS planner"},
      {"overlap", MoveStage::start, read_overlap<RunConfig>, write_move_field<&R::overlap, R>,
       "members start as soon as they hold their own columns"},
  };
  return keys;
}

void read_staging_object(const nlohmann::json& s, const std::string& where, StagingConfig& staging) {
  if (!s.is_object()) throw InputError(where + " must be an object");
  io::require_known_keys(s, key_names(staging_keys()), where);
  staging.enabled = true;
  read_keys(staging_keys(),
            {MoveStage::place, MoveStage::bandwidths, MoveStage::latencies, MoveStage::start, MoveStage::schedule}, s,
            where, staging);
}

void read_rebuild_list(const nlohmann::json& list, const std::string& where, RunConfig& cfg) {
  if (!list.is_array()) throw InputError(where + " must be an array of {\"after\": iteration, ...}");
  cfg.rebuild.clear();
  for (std::size_t n = 0; n < list.size(); ++n) {
    const auto& e = list[n];
    const std::string at = where + "[" + std::to_string(n) + "]";
    if (!e.is_object()) throw InputError(at + " must be an object");
    io::require_known_keys(e, key_names(rebuild_keys()), at);
    cfg.rebuild.emplace_back();
    read_keys(rebuild_keys(), {MoveStage::place, MoveStage::start, MoveStage::schedule}, e, at, cfg);
  }
}

nlohmann::json staging_json(const StagingConfig& staging) {
  nlohmann::json out = nlohmann::json::object();
  write_keys(staging_keys(), staging, out);
  return out;
}

nlohmann::json rebuild_json(const std::vector<RebuildConfig>& rebuild) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& rb : rebuild) {
    nlohmann::json e = nlohmann::json::object();
    write_keys(rebuild_keys(), rb, e);
    list.push_back(e);
  }
  return list;
}

}  // namespace ringsim::io
