#include "io/run_config_json.hpp"

#include <sstream>

#include <nlohmann/json.hpp>

#include "io/config_keys.hpp"
#include "io/json_input.hpp"
#include "io/json_values.hpp"
#include "io/moves_config_json.hpp"
#include "io/ring_config_json.hpp"
#include "io/run_config_traces_json.hpp"
#include "io/simgrid_option_values.hpp"
#include "model/errors.hpp"
#include "model/named.hpp"
#include "planners/redistribution/redistribution_planner.hpp"

namespace ringsim::io {
namespace {

using json_values::int_value;
using json_values::number;
using json_values::number_at_most;
using json_values::text;

// SimGrid options as --cfg=name:value would give them: names without ':' or separators, values as
// strings (numbers written as JSON gives them, booleans as yes/no). SimGrid itself checks names and
// values when the run starts (exit 2, one line).
std::vector<std::pair<std::string, std::string>> simgrid_options(const nlohmann::json& doc, const std::string& where) {
  if (!doc.is_object()) throw InputError(where + ": 'simgrid' must be an object {\"option/name\": value, ...}");
  std::vector<std::pair<std::string, std::string>> options;
  for (const auto& [name, value] : doc.items()) {
    if (name.empty() || name.find_first_of(": \t\n,") != std::string::npos)
      throw InputError(where + ": 'simgrid' option name '" + name + "' must not be empty or hold ':', ',' or spaces");
    std::string v;
    if (value.is_string()) v = value.get<std::string>();
    else if (value.is_boolean()) v = value.get<bool>() ? "yes" : "no";
    else if (value.is_number()) v = value.dump();
    else throw InputError(where + ": 'simgrid' option '" + name + "' must be a string, a number or true/false");
    if (v.find_first_of(" \t\n,") != std::string::npos)
      throw InputError(where + ": 'simgrid' option '" + name + "' value '" + v + "' must not hold ',' or spaces");
    refuse_unrunnable_option(name, v, " in 'simgrid' of " + where);
    options.emplace_back(name, v);
  }
  return options;
}

std::vector<std::string> simgrid_log(const nlohmann::json& doc, const std::string& where) {
  if (!doc.is_array()) throw InputError(where + ": 'simgrid_log' must be an array of --log settings");
  std::vector<std::string> settings;
  for (const auto& s : doc) {
    if (!s.is_string() || s.get<std::string>().empty())
      throw InputError(where + ": 'simgrid_log' entries must be non-empty strings such as \"ringsim_app.thres:debug\"");
    settings.push_back(s.get<std::string>());
  }
  return settings;
}

// The schemes of 'reference_check' (the policies layer checks each is a fixed scheme).
std::vector<std::string> scheme_list(const nlohmann::json& doc, const std::string& where) {
  if (!doc.is_array()) throw InputError(where + ": 'reference_check' must be an array of fixed schemes");
  std::vector<std::string> schemes;
  for (const auto& s : doc) {
    if (!s.is_string()) throw InputError(where + ": 'reference_check' entries must be schemes such as \"every-10\"");
    schemes.push_back(s.get<std::string>());
  }
  return schemes;
}

// The readers of the table's keys (RunConfigKey::read): each reads doc[key] into its field when the
// config gives it, and checks it, with the keys read before it where a check needs them.

template <std::string RunConfig::*field>
void read_text(const nlohmann::json& doc, const char* key, const std::string&, RunConfig& cfg) {
  if (doc.contains(key)) cfg.*field = text(doc, key);
}

template <int RunConfig::*field>
void read_int(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  if (doc.contains(key)) cfg.*field = int_value(doc, key, where);
}

// Messages are sized in whole bytes (a 64-bit count in SimGrid): at most 2^53, where doubles are
// still exact integers; work in flops likewise.
template <double RunConfig::*field>
void read_cost(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  if (doc.contains(key)) cfg.*field = number_at_most(doc, key, 0x1p53, where);
}

// The last of the matrix's sizes, checked with the others. What these sizes cost in memory is
// checked with the run's budget: model/run_memory.hpp.
void read_iterations(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  read_int<&RunConfig::iterations>(doc, key, where, cfg);
  if (cfg.rows < 1 || cfg.columns < 1 || cfg.iterations < 1)
    throw InputError(where + ": rows, columns and iterations must be >= 1");
}

// Required. Beyond its range a column's work and its message differ by more than SimGrid's solver
// resolves (its precision is relative): the run would stop, or one side would cost nothing.
void read_ratio(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  if (!doc.contains(key)) throw InputError(where + ": missing field 'ratio'");
  cfg.ratio = number(doc, key);
  if (!(cfg.ratio >= kLeastRatio && cfg.ratio <= kGreatestRatio)) {
    if (cfg.ratio <= 0) throw InputError(where + ": 'ratio' must be > 0");
    std::ostringstream os;
    os << where << ": 'ratio' must be in [" << kLeastRatio << ", " << kGreatestRatio << "]";
    throw InputError(os.str());
  }
}

// The scheme names a policy of the simulation layer, which checks it (policy/registry.hpp).
void read_scheme(const nlohmann::json& doc, const char* key, const std::string&, RunConfig& cfg) {
  if (doc.contains(key)) cfg.scheme.name = text(doc, key);
}

// Checked here, not at the first redistribution point.
void read_algorithm(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  if (!doc.contains(key)) return;
  cfg.algorithm = text(doc, key);
  try {
    redistribution::check_redistribution_algorithm(cfg.algorithm);
  } catch (const UnknownName& e) {
    throw InputError(where + ": " + e.what());
  }
}

void read_targets(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  if (doc.contains(key)) cfg.targets = config_keys::targets.read(doc, key, where, "'targets'");
}

void read_traces_key(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  if (doc.contains(key)) read_traces(doc[key], where, cfg);
}

void read_network_model(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  if (doc.contains(key)) cfg.network_model = config_keys::network_model.read(doc, key, where, "'network_model'");
}

// The second of the decision's costs, checked with the first.
void read_report_bytes(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  read_cost<&RunConfig::report_bytes>(doc, key, where, cfg);
  if (cfg.decision_flops < 0 || cfg.report_bytes < 0)
    throw InputError(where + ": 'decision_flops' and 'report_bytes' must be >= 0");
}

void read_baseline(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  if (!doc.contains(key)) return;
  if (!doc[key].is_boolean()) throw InputError(where + ": 'baseline' must be true or false");
  cfg.baseline = doc[key].get<bool>();
}

// Read after the traces: the platform's profiles cannot follow a staging.
void read_staging(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  if (doc.contains(key)) read_staging_object(doc[key], where + " 'staging'", cfg.staging);
  if (cfg.staging.enabled && cfg.traces.source == TraceSource::platform)
    throw InputError(where + ": traces source 'platform' cannot be combined with 'staging': the platform's profiles "
                     "count from time 0, and ringsim's traces start when the staging ends");
}

// Read after the ring and the matrix, which a rebuild's defaults and checks use.
void read_rebuild(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  if (!doc.contains(key)) return;
  read_rebuild_list(doc[key], where + " 'rebuild'", cfg);
  if (!cfg.rebuild.empty() && cfg.ring.selection == RingSelection::planner)
    throw InputError(where + ": 'rebuild' needs ring selection random or hosts (a planner ring's platform routes "
                     "only the ring's own neighbours)");
}

void read_simgrid(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  if (doc.contains(key)) cfg.simgrid = simgrid_options(doc[key], where);
}

void read_simgrid_log(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  if (doc.contains(key)) cfg.simgrid_log = simgrid_log(doc[key], where);
}

void read_reference_check(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  if (doc.contains(key)) cfg.reference_check = scheme_list(doc[key], where);
}

// Read after `columns`, which the ring's size must not exceed.
void read_ring(const nlohmann::json& doc, const char* key, const std::string& where, RunConfig& cfg) {
  if (doc.contains(key)) read_ring_object(doc[key], where, cfg.ring);
  if (cfg.ring.size < 1) throw InputError(where + ": ring 'size' must be >= 1");
  if (cfg.ring.size > cfg.columns)
    throw InputError(where + ": a ring of " + std::to_string(cfg.ring.size) +
                     " members needs at least as many columns");
}

// The writers of the table's keys (RunConfigKey::write). The keys written only when used are left
// out at their default, so that the canonical form (and hash) of older configs does not change.

template <auto field>
void write_value(const RunConfig& cfg, const char* key, nlohmann::json& out) {
  out[key] = cfg.*field;
}

template <auto field>
void write_name(const RunConfig& cfg, const char* key, nlohmann::json& out) {
  out[key] = to_string(cfg.*field);
}

void write_ring(const RunConfig& cfg, const char* key, nlohmann::json& out) { out[key] = ring_json(cfg.ring); }
void write_scheme(const RunConfig& cfg, const char* key, nlohmann::json& out) { out[key] = cfg.scheme.name; }
void write_traces(const RunConfig& cfg, const char* key, nlohmann::json& out) { out[key] = traces_json(cfg); }

void write_staging(const RunConfig& cfg, const char* key, nlohmann::json& out) {
  if (cfg.staging.enabled) out[key] = staging_json(cfg.staging);
}

void write_rebuild(const RunConfig& cfg, const char* key, nlohmann::json& out) {
  if (!cfg.rebuild.empty()) out[key] = rebuild_json(cfg.rebuild);
}

void write_simgrid(const RunConfig& cfg, const char* key, nlohmann::json& out) {
  if (cfg.simgrid.empty()) return;
  nlohmann::json o = nlohmann::json::object();
  for (const auto& [name, value] : cfg.simgrid) o[name] = value;
  out[key] = o;
}

void write_simgrid_log(const RunConfig& cfg, const char* key, nlohmann::json& out) {
  if (!cfg.simgrid_log.empty()) out[key] = cfg.simgrid_log;
}

void write_reference_check(const RunConfig& cfg, const char* key, nlohmann::json& out) {
  if (cfg.reference_check != default_reference_check()) out[key] = cfg.reference_check;
}

using Stage = RunConfigStage;

}  // namespace

// The keys of a run config's top level (docs/configs.md#top-level), in the order `ringsim
// config-keys` lists them. The meanings are the manual's, shortened.
const std::vector<RunConfigKey>& run_config_keys() {
  static const std::vector<RunConfigKey> keys = {
      {"platform", Stage::matrix, read_text<&RunConfig::platform>, write_value<&RunConfig::platform>,
       "the SimGrid platform file (default: the 2004 paper's 90 hosts)"},
      {"ring", Stage::ring, read_ring, write_ring, "which hosts form the ring, in what order"},
      {"rows", Stage::matrix, read_int<&RunConfig::rows>, write_value<&RunConfig::rows>, "matrix rows"},
      {"columns", Stage::matrix, read_int<&RunConfig::columns>, write_value<&RunConfig::columns>,
       "matrix columns, the atomic data item"},
      {"iterations", Stage::matrix, read_iterations, write_value<&RunConfig::iterations>,
       "iterations of the application"},
      {"ratio", Stage::matrix, read_ratio, write_value<&RunConfig::ratio>,
       "computation-to-communication ratio (required)"},
      {"scheme", Stage::policy, read_scheme, write_scheme, "redistribution policy: when to redistribute"},
      {"algorithm", Stage::policy, read_algorithm, write_value<&RunConfig::algorithm>, "redistribution planner"},
      {"targets", Stage::policy, read_targets, write_name<&RunConfig::targets>,
       "the speeds a decision balances for: oracle or measured"},
      {"traces", Stage::traces, read_traces_key, write_traces, "the ring members' speed changes"},
      {"network_model", Stage::simulator, read_network_model, write_name<&RunConfig::network_model>,
       "SimGrid network preset: linear or lv08"},
      {"decision_flops", Stage::decision_costs, read_cost<&RunConfig::decision_flops>,
       write_value<&RunConfig::decision_flops>, "the decision's work at a redistribution point, per member"},
      {"report_bytes", Stage::decision_costs, read_report_bytes, write_value<&RunConfig::report_bytes>,
       "one member's report in the all-gather"},
      {"baseline", Stage::decision_costs, read_baseline, write_value<&RunConfig::baseline>,
       "also simulate scheme none to normalize"},
      {"staging", Stage::moves, read_staging, write_staging, "the matrix starts on a storage cluster"},
      {"rebuild", Stage::moves, read_rebuild, write_rebuild, "the ring moves to other processors during the run"},
      {"simgrid", Stage::simulator, read_simgrid, write_simgrid, "SimGrid options as --cfg=name:value gives them"},
      {"simgrid_log", Stage::simulator, read_simgrid_log, write_simgrid_log, "log settings as --log= gives them"},
      {"reference_check", Stage::simulator, read_reference_check, write_reference_check,
       "the fixed schemes a clairvoyant reference is checked against"},
  };
  return keys;
}

std::vector<std::string> run_config_key_names() { return key_names(run_config_keys()); }

namespace {

// The config's fields, each checked (parse_run_config), stage by stage (RunConfigKey::Stage).
RunConfig parse_run_config_fields(const nlohmann::json& doc, const std::string& where) {
  if (!doc.is_object()) throw InputError(where + " must be a JSON object");
  io::require_known_keys(doc, run_config_key_names(), where);
  RunConfig cfg;
  read_keys(run_config_keys(),
            {Stage::matrix, Stage::policy, Stage::simulator, Stage::decision_costs, Stage::ring, Stage::traces,
             Stage::moves},
            doc, where, cfg);
  check_fta_nodes_in_ring(cfg, where);
  return cfg;
}

}  // namespace

// Every refusal names the file: a message that does not already (a value of the wrong type, from
// the shared readers above) gets it in front.
RunConfig parse_run_config(const nlohmann::json& doc, const std::string& where) {
  try {
    return parse_run_config_fields(doc, where);
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (what.find(where) != std::string::npos) throw;
    throw InputError(where + ": " + what);
  }
}

nlohmann::json run_config_to_json(const RunConfig& cfg) {
  nlohmann::json out = nlohmann::json::object();
  write_keys(run_config_keys(), cfg, out);
  return out;
}

}  // namespace ringsim::io
