#include "io/run_config_json.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <sstream>

#include <nlohmann/json.hpp>

#include "io/config_keys.hpp"
#include "io/json_input.hpp"
#include "io/simgrid_option_values.hpp"
#include "model/errors.hpp"
#include "model/named.hpp"
#include "model/trace_families.hpp"
#include "planners/kpbs/kpbs_planner.hpp"
#include "planners/redistribution/redistribution_planner.hpp"

namespace ringsim::io {
namespace {

const nlohmann::json& typed(const nlohmann::json& doc, const char* key, nlohmann::json::value_t type,
                            const char* type_name) {
  const auto& v = doc.at(key);
  const bool ok = type == nlohmann::json::value_t::number_float ? v.is_number() : v.type() == type ||
                  (type == nlohmann::json::value_t::number_integer && v.is_number_unsigned());
  if (!ok) throw InputError(std::string("'") + key + "' must be " + type_name);
  return v;
}

double number(const nlohmann::json& doc, const char* key) {
  const double v = typed(doc, key, nlohmann::json::value_t::number_float, "a number").get<double>();
  if (!std::isfinite(v)) throw InputError(std::string("'") + key + "' must be finite");
  return v;
}

// JSON integers reach 2^64: each is checked at full width before it is narrowed, since a narrowing
// cast wraps silently (4294967297 iterations would run one).
long long integer(const nlohmann::json& doc, const char* key) {
  const auto& v = typed(doc, key, nlohmann::json::value_t::number_integer, "an integer");
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
    throw InputError(std::string("'") + key + "' must be an integer of at most " + std::to_string(INT64_MAX));
  return v.get<long long>();
}

// An integer held in an int (counts of rows, columns, iterations, members): at most 2^31 - 1.
int int_value(const nlohmann::json& doc, const char* key, const std::string& where) {
  const long long v = integer(doc, key);
  if (v > INT_MAX) throw InputError(where + ": '" + key + "' must be at most " + std::to_string(INT_MAX));
  if (v < INT_MIN) throw InputError(where + ": '" + key + "' must be at least " + std::to_string(INT_MIN));
  return static_cast<int>(v);
}

// A seed: any integer from -2^63 to 2^64 - 1, taken modulo 2^64 (the generators' seed width).
std::uint64_t seed_value(const nlohmann::json& doc, const char* key) {
  const auto& v = typed(doc, key, nlohmann::json::value_t::number_integer, "an integer");
  return v.is_number_unsigned() ? v.get<std::uint64_t>() : static_cast<std::uint64_t>(v.get<long long>());
}

// A number at most `most`: what feeds a cost or a size must stay finite, and exact where SimGrid
// takes it as an integer (a message's bytes are a 64-bit count).
double number_at_most(const nlohmann::json& doc, const char* key, double most, const std::string& where) {
  const double v = number(doc, key);
  if (v > most) {
    std::ostringstream os;
    os << where << ": '" << key << "' must be at most " << most;
    throw InputError(os.str());
  }
  return v;
}

std::string text(const nlohmann::json& doc, const char* key) {
  return typed(doc, key, nlohmann::json::value_t::string, "a string").get<std::string>();
}

std::string kpbs_algorithm(const nlohmann::json& doc, const std::string& where) {
  const std::string name = text(doc, "algorithm");
  try {
    kpbs::check_kpbs_algorithm(name, "KPBS algorithm");
  } catch (const UnknownName& e) {
    throw InputError(where + ": " + e.what());
  }
  return name;
}

// k (0 = derived from the routes), beta and the KPBS algorithm of a staging or a rebuild.
void read_kpbs_options(const nlohmann::json& doc, const std::string& where, std::size_t& k, double& beta,
                       std::string& algorithm, bool& overlap) {
  if (doc.contains("overlap")) {
    if (!doc["overlap"].is_boolean()) throw InputError(where + ": 'overlap' must be true or false");
    overlap = doc["overlap"].get<bool>();
  }
  if (doc.contains("k")) {
    const long long v = integer(doc, "k");
    if (v < 0) throw InputError(where + ": 'k' must be >= 1 (or 0: derived from the routes)");
    k = static_cast<std::size_t>(v);
  }
  if (doc.contains("beta")) beta = number(doc, "beta");
  if (beta < 0) throw InputError(where + ": 'beta' must be >= 0");
  if (doc.contains("algorithm")) algorithm = kpbs_algorithm(doc, where);
}

StagingConfig parse_staging(const nlohmann::json& s, const std::string& where) {
  if (!s.is_object()) throw InputError(where + " must be an object");
  io::require_known_keys(s, config_keys::staging, where);
  StagingConfig st;
  st.enabled = true;
  if (s.contains("nodes")) {
    const long long n = integer(s, "nodes");
    if (n < 1) throw InputError(where + ": 'nodes' must be >= 1");
    // Its memory (quadratic in the nodes) is checked with the run's: model/run_memory.hpp.
    st.cluster.nodes = static_cast<std::size_t>(n);
  }
  if (s.contains("node_bandwidth")) st.cluster.node_bandwidth = number(s, "node_bandwidth");
  if (s.contains("backbone_bandwidth")) st.cluster.backbone_bandwidth = number(s, "backbone_bandwidth");
  if (s.contains("node_latency")) st.cluster.node_latency = number(s, "node_latency");
  if (s.contains("backbone_latency")) st.cluster.backbone_latency = number(s, "backbone_latency");
  if (st.cluster.node_bandwidth <= 0 || st.cluster.backbone_bandwidth <= 0)
    throw InputError(where + ": 'node_bandwidth' and 'backbone_bandwidth' must be > 0 (bytes/s)");
  if (st.cluster.node_latency < 0 || st.cluster.backbone_latency < 0)
    throw InputError(where + ": 'node_latency' and 'backbone_latency' must be >= 0 (s)");
  if (s.contains("gateway")) st.gateway = text(s, "gateway");
  read_kpbs_options(s, where, st.k, st.beta, st.algorithm, st.overlap);
  return st;
}

std::vector<RebuildConfig> parse_rebuilds(const nlohmann::json& list, const RunConfig& cfg, const std::string& where) {
  if (!list.is_array()) throw InputError(where + " must be an array of {\"after\": iteration, ...}");
  std::vector<RebuildConfig> out;
  for (std::size_t n = 0; n < list.size(); ++n) {
    const auto& e = list[n];
    const std::string at = where + "[" + std::to_string(n) + "]";
    if (!e.is_object()) throw InputError(at + " must be an object");
    io::require_known_keys(e, config_keys::rebuild, at);
    RebuildConfig rb;
    if (!e.contains("after")) throw InputError(at + ": missing field 'after'");
    rb.after = int_value(e, "after", at);
    if (rb.after < 1 || rb.after >= cfg.iterations)
      throw InputError(at + ": 'after' must be an iteration in [1, " + std::to_string(cfg.iterations - 1) + "]");
    if (!out.empty() && rb.after <= out.back().after) throw InputError(at + ": rebuilds must come in increasing 'after'");
    if (e.contains("hosts")) {
      if (!e["hosts"].is_array() || e["hosts"].empty()) throw InputError(at + ": 'hosts' must be a non-empty array of host names");
      for (const auto& h : e["hosts"]) {
        if (!h.is_string()) throw InputError(at + ": 'hosts' must be a non-empty array of host names");
        rb.hosts.push_back(h.get<std::string>());
      }
      if (e.contains("size") || e.contains("seed")) throw InputError(at + ": give either 'hosts' or 'size'/'seed'");
    }
    rb.size = rb.hosts.empty() ? cfg.ring_size : static_cast<int>(rb.hosts.size());
    if (e.contains("size")) rb.size = int_value(e, "size", at);
    if (rb.size < 1 || rb.size > cfg.columns)
      throw InputError(at + ": the rebuilt ring needs between 1 and 'columns' members");
    rb.seed = cfg.ring_seed + 1 + n;
    if (e.contains("seed")) rb.seed = seed_value(e, "seed");
    read_kpbs_options(e, at, rb.k, rb.beta, rb.algorithm, rb.overlap);
    out.push_back(std::move(rb));
  }
  return out;
}

// traces 'placement': where changes given by iteration take effect. SimGrid profiles are given by
// time only, so the key is refused there rather than silently ignored (a CSV may be either).
TracePlacement parse_placement(const nlohmann::json& t, const std::string& source, const std::string& where) {
  if (source == "files" && !t.contains("csv"))
    throw InputError(where + ": traces 'placement' applies to changes given by iteration; SimGrid 'profiles' are "
                     "given by time");
  if ((source == "planetlab" || source == "utilization-csv") &&
      !(t.contains("time_scale") && t["time_scale"] == "span") && !t.contains("per_iteration"))
    throw InputError(where + ": traces 'placement' applies to changes given by iteration (time_scale \"span\" or "
                     "per_iteration); a numeric time_scale gives changes by time");
  const std::string p = text(t, "placement");
  if (!config_keys::accepts(config_keys::trace_placement, p))
    throw InputError(where + ": traces 'placement' must be " + config_keys::listed(config_keys::trace_placement) +
                     ", got '" + p + "'");
  if (p == "iteration") return TracePlacement::iteration;
  if (p == "nominal-time") return TracePlacement::nominal_time;
  throw InputError(where + ": traces 'placement' must be iteration or nominal-time, got '" + p + "'");
}

nlohmann::json kpbs_options_json(std::size_t k, double beta, const std::string& algorithm, bool overlap) {
  return {{"k", k}, {"beta", beta}, {"algorithm", algorithm}, {"overlap", overlap}};
}

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

// A non-empty string key of `t` (a file, a column name).
std::string named(const nlohmann::json& t, const char* key, const std::string& where) {
  std::string v = text(t, key);
  if (v.empty()) throw InputError(where + ": traces '" + key + "' must not be empty");
  return v;
}

// planetlab 'set': a folder, or a non-empty array of files.
void read_trace_set(const nlohmann::json& set, RealTraceConfig& r, const std::string& where) {
  const std::string what = where + ": traces 'set' must name a folder or be a non-empty array of files";
  if (set.is_string()) {
    r.folder = set.get<std::string>();
    if (r.folder.empty()) throw InputError(what);
    return;
  }
  if (!set.is_array() || set.empty()) throw InputError(what);
  for (const auto& f : set) {
    if (!f.is_string() || f.get<std::string>().empty()) throw InputError(what);
    r.files.push_back(f.get<std::string>());
  }
}

// 'offset' of planetlab and utilization-csv, into `a`.
AvailabilitySpec read_offset(const nlohmann::json& t, AvailabilitySpec a, const std::string& where) {
  if (t.contains("offset")) {
    const auto& o = t["offset"];
    if (o.is_string() && config_keys::accepts(config_keys::offset_words, o.get<std::string>())) {
      a.random_offset = true;
    } else if (o.is_number()) {
      a.offset = number(t, "offset");
      if (!(a.offset >= 0.0)) throw InputError(where + ": traces 'offset' must be >= 0 (seconds since the series' start)");
    } else {
      throw InputError(where + ": traces 'offset' must be a number of seconds >= 0 or \"random\"");
    }
  }
  return a;
}

// 'conversion', 'floor', 'time_scale' or 'per_iteration', and 'offset' of planetlab and utilization-csv.
AvailabilitySpec read_availability(const nlohmann::json& t, const std::string& source, const std::string& where) {
  AvailabilitySpec a;
  // No rule suits every trace: the config says which it means (docs/traces.md derives each).
  if (!t.contains("conversion"))
    throw InputError(where + ": traces source " + source + " needs a 'conversion': " +
                     config_keys::listed(config_keys::conversion, true));
  const std::string c = text(t, "conversion");
  if (!config_keys::accepts(config_keys::conversion, c))
    throw InputError(where + ": traces 'conversion' must be " + config_keys::listed(config_keys::conversion, true) +
                     ", got '" + c + "'");
  if (c == "load" && source == "planetlab")
    throw InputError(where + ": traces 'conversion' \"load\" reads load averages; PlanetLab files hold utilizations "
                     "(\"dedicated\" or \"time-sharing\")");
  a.rule = c == "load" ? AvailabilityRule::load_average
           : c == "time-sharing" ? AvailabilityRule::time_sharing : AvailabilityRule::dedicated;
  if (t.contains("floor")) a.floor = number(t, "floor");
  if (!(a.floor > 0.0 && a.floor <= 1.0))
    throw InputError(where + ": traces 'floor' must be in (0, 1] (the least share of the peak; 0 would stall the host)");
  check_multiplier(a.floor, where + ": traces 'floor'");
  // No one scale suits every run either: a day of samples over a run of seconds needs thousands.
  if (t.contains("per_iteration")) {
    if (t.contains("time_scale"))
      throw InputError(where + ": traces 'per_iteration' and 'time_scale' both map the series' time to the run: give one");
    a.per_iteration = number(t, "per_iteration");
    if (!(a.per_iteration > 0.0))
      throw InputError(where + ": traces 'per_iteration' must be > 0 (seconds of the series each iteration covers)");
    a.over_iterations = true;
    return read_offset(t, a, where);
  }
  if (!t.contains("time_scale"))
    throw InputError(where + ": traces source " + source + " needs a 'time_scale' (seconds of trace per simulated "
                     "second, or \"span\": the series' span over the run's iterations) or a 'per_iteration' (seconds "
                     "of trace per iteration)");
  const auto& ts = t["time_scale"];
  if (ts.is_string() && config_keys::accepts(config_keys::time_scale_words, ts.get<std::string>())) {
    a.over_iterations = true;
  } else if (ts.is_number()) {
    a.time_scale = number(t, "time_scale");
    if (!(a.time_scale > 0.0)) throw InputError(where + ": traces 'time_scale' must be > 0 (seconds of trace per simulated second)");
  } else {
    throw InputError(where + ": traces 'time_scale' must be a number > 0 or \"span\"");
  }
  return read_offset(t, a, where);
}

RealTraceConfig read_real_traces(const nlohmann::json& t, const std::string& source, const std::string& where) {
  RealTraceConfig r;
  if (source == "planetlab") {
    if (!t.contains("set"))
      throw InputError(where + ": traces source planetlab needs a 'set' (a folder of trace files, or a list of files)");
    read_trace_set(t["set"], r, where);
    if (t.contains("period")) r.period = number(t, "period");
    if (!(r.period > 0.0)) throw InputError(where + ": traces 'period' must be > 0 (seconds per sample)");
  } else {
    if (!t.contains("file")) throw InputError(where + ": traces source utilization-csv needs a 'file' (a CSV)");
    r.file = named(t, "file", where);
    if (t.contains("time_column")) r.time_column = named(t, "time_column", where);
    if (t.contains("machine_column")) r.machine_column = named(t, "machine_column", where);
    if (!t.contains("value_column"))
      throw InputError(where + ": traces source utilization-csv needs a 'value_column' (the column of the values)");
    r.value_column = named(t, "value_column", where);
    r.samples = 2;
  }
  const std::size_t least = source == "planetlab" ? 1 : 2;
  if (t.contains("samples")) {
    const long long n = integer(t, "samples");
    if (n < static_cast<long long>(least))
      throw InputError(where + ": traces 'samples' must be >= " + std::to_string(least));
    r.samples = static_cast<std::size_t>(n);
  }
  r.availability = read_availability(t, source, where);
  return r;
}

// With the ring's hosts given, an FTA 'nodes' entry for a host that is never a member is a mistake
// (a misspelt host would leave its member on the file's default), refused naming it.
void check_fta_nodes_in_ring(const RunConfig& cfg, const std::string& where) {
  if (cfg.trace_source != "fta" || cfg.selection != RingSelection::hosts) return;
  for (const auto& [host, node] : cfg.fta.nodes) {
    bool member = std::find(cfg.ring_hosts.begin(), cfg.ring_hosts.end(), host) != cfg.ring_hosts.end();
    for (const auto& rb : cfg.rebuilds)
      member = member || std::find(rb.hosts.begin(), rb.hosts.end(), host) != rb.hosts.end();
    if (!member)
      throw InputError(where + ": traces 'nodes' names host '" + host + "', which is not in the ring's 'hosts'");
  }
}

nlohmann::json real_traces_json(const RunConfig& cfg) {
  const RealTraceConfig& r = cfg.real;
  const AvailabilitySpec& a = r.availability;
  nlohmann::json traces = {{"seed", cfg.trace_seed}, {"source", cfg.trace_source}};
  if (cfg.trace_source == "planetlab") {
    if (r.folder.empty()) traces["set"] = r.files;
    else traces["set"] = r.folder;
    traces["period"] = r.period;
  } else {
    traces.update({{"file", r.file}, {"time_column", r.time_column}, {"machine_column", r.machine_column},
                   {"value_column", r.value_column}});
  }
  traces.update({{"samples", r.samples}, {"conversion", to_string(a.rule)}, {"floor", a.floor}});
  if (a.per_iteration > 0.0) traces.update({{"per_iteration", a.per_iteration}, {"placement", to_string(cfg.trace_placement)}});
  else if (a.over_iterations) traces.update({{"time_scale", "span"}, {"placement", to_string(cfg.trace_placement)}});
  else traces["time_scale"] = a.time_scale;
  if (a.random_offset) traces["offset"] = "random";
  else traces["offset"] = a.offset;
  return traces;
}

// The matrix and the run's length: rows, columns, iterations, and the ratio of a column's work to
// its message.
void read_matrix_and_ratio(const nlohmann::json& doc, const std::string& where, RunConfig& cfg) {
  if (doc.contains("platform")) cfg.platform = text(doc, "platform");
  if (doc.contains("rows")) cfg.rows = int_value(doc, "rows", where);
  if (doc.contains("columns")) cfg.columns = int_value(doc, "columns", where);
  if (doc.contains("iterations")) cfg.iterations = int_value(doc, "iterations", where);
  if (cfg.rows < 1 || cfg.columns < 1 || cfg.iterations < 1)
    throw InputError(where + ": rows, columns and iterations must be >= 1");
  // What these sizes cost in memory is checked with the run's budget: model/run_memory.hpp.
  if (!doc.contains("ratio")) throw InputError(where + ": missing field 'ratio'");
  cfg.ratio = number(doc, "ratio");
  // Beyond this range a column's work and its message differ by more than SimGrid's solver
  // resolves (its precision is relative): the run would stop, or one side would cost nothing.
  if (!(cfg.ratio >= kLeastRatio && cfg.ratio <= kGreatestRatio)) {
    if (cfg.ratio <= 0) throw InputError(where + ": 'ratio' must be > 0");
    std::ostringstream os;
    os << where << ": 'ratio' must be in [" << kLeastRatio << ", " << kGreatestRatio << "]";
    throw InputError(os.str());
  }
}

// The redistribution policy: its scheme, its planner and the speeds its decisions balance for.
void read_scheme_and_policy(const nlohmann::json& doc, const std::string& where, RunConfig& cfg) {
  // The scheme names a policy of the simulation layer, which checks it (policy/registry.hpp).
  cfg.scheme.name = doc.contains("scheme") ? text(doc, "scheme") : "none";
  if (doc.contains("algorithm")) {
    cfg.algorithm = text(doc, "algorithm");
    try {  // here, not at the first redistribution point
      redistribution::check_redistribution_algorithm(cfg.algorithm);
    } catch (const UnknownName& e) {
      throw InputError(where + ": " + e.what());
    }
  }
  if (doc.contains("targets")) {
    const auto t = text(doc, "targets");
    if (!config_keys::accepts(config_keys::targets, t))
      throw InputError(where + ": 'targets' must be " + config_keys::listed(config_keys::targets, true));
    cfg.targets = t == "oracle" ? TargetMode::oracle : TargetMode::measured;
  }
}

// How SimGrid simulates the run: its network model, its options and its log settings.
void read_simulator_settings(const nlohmann::json& doc, const std::string& where, RunConfig& cfg) {
  if (doc.contains("network_model")) {
    const auto m = text(doc, "network_model");
    if (!config_keys::accepts(config_keys::network_model, m))
      throw InputError(where + ": 'network_model' must be " + config_keys::listed(config_keys::network_model, true));
    cfg.network = m == "linear" ? NetworkModel::linear : NetworkModel::lv08;
  }
  if (doc.contains("simgrid")) cfg.simgrid_options = simgrid_options(doc["simgrid"], where);
  if (doc.contains("simgrid_log")) cfg.simgrid_log = simgrid_log(doc["simgrid_log"], where);
}

// What a run reports beside its own makespan (the reference's check, the baseline), and the cost of
// a decision: its work and the members' reports.
void read_outputs_and_decision_costs(const nlohmann::json& doc, const std::string& where, RunConfig& cfg) {
  if (doc.contains("reference_check")) cfg.reference_check = scheme_list(doc["reference_check"], where);
  // Messages are sized in whole bytes (a 64-bit count in SimGrid): at most 2^53, where doubles are
  // still exact integers; work in flops likewise.
  if (doc.contains("decision_flops")) cfg.decision_flops = number_at_most(doc, "decision_flops", 0x1p53, where);
  if (doc.contains("report_bytes")) cfg.report_bytes = number_at_most(doc, "report_bytes", 0x1p53, where);
  if (cfg.decision_flops < 0 || cfg.report_bytes < 0)
    throw InputError(where + ": 'decision_flops' and 'report_bytes' must be >= 0");
  if (doc.contains("baseline")) {
    if (!doc["baseline"].is_boolean()) throw InputError(where + ": 'baseline' must be true or false");
    cfg.baseline = doc["baseline"].get<bool>();
  }
}

// ring 'selection', and 'routing' and 'candidates', which only a planner's ring takes.
void read_ring_selection(const nlohmann::json& r, const std::string& where, RunConfig& cfg) {
  if (r.contains("selection")) {
    const auto s = text(r, "selection");
    if (!config_keys::accepts(config_keys::ring_selection, s))
      throw InputError(where + ": ring 'selection' must be " + config_keys::listed(config_keys::ring_selection));
    if (s == "random") cfg.selection = RingSelection::random;
    else if (s == "hosts") cfg.selection = RingSelection::hosts;
    else if (s == "planner") cfg.selection = RingSelection::planner;
    else throw InputError(where + ": ring 'selection' must be random, hosts or planner");
  }
  if (r.contains("size")) cfg.ring_size = int_value(r, "size", where + " 'ring'");
  if (r.contains("seed")) cfg.ring_seed = seed_value(r, "seed");
  if (r.contains("method")) cfg.ring_method = text(r, "method");
  if (r.contains("routing")) {
    const auto name = text(r, "routing");
    const auto routing = ring_routing_from_string(name);
    if (!routing || !config_keys::accepts(config_keys::ring_routing, name))
      throw InputError(where + ": ring 'routing' must be " + config_keys::listed(config_keys::ring_routing));
    cfg.ring_routing = *routing;
  }
  if (r.contains("candidates")) {
    const auto n = integer(r, "candidates");
    if (n < 0) throw InputError(where + ": ring 'candidates' must be >= 0 (0: every host)");
    cfg.ring_candidates = static_cast<std::size_t>(n);
  }
  if ((r.contains("routing") || r.contains("candidates")) && cfg.selection != RingSelection::planner)
    throw InputError(where + ": ring 'routing' and 'candidates' apply to selection 'planner'");
}

// 'ring': how its members are chosen (or which they are), and its size against the columns.
void read_ring(const nlohmann::json& doc, const std::string& where, RunConfig& cfg) {
  if (doc.contains("ring")) {
    const auto& r = doc["ring"];
    if (!r.is_object()) throw InputError(where + ": 'ring' must be an object");
    io::require_known_keys(r, config_keys::ring, where + " 'ring'");
    read_ring_selection(r, where, cfg);
    if (r.contains("hosts")) {
      if (!r["hosts"].is_array()) throw InputError(where + ": ring 'hosts' must be an array of host names");
      for (const auto& h : r["hosts"]) {
        if (!h.is_string()) throw InputError(where + ": ring 'hosts' must be an array of host names");
        cfg.ring_hosts.push_back(h.get<std::string>());
      }
      if (!r.contains("selection")) cfg.selection = RingSelection::hosts;
      cfg.ring_size = static_cast<int>(cfg.ring_hosts.size());
    }
    if (cfg.selection == RingSelection::hosts && cfg.ring_hosts.empty())
      throw InputError(where + ": ring selection 'hosts' needs a 'hosts' list");
  }
  if (cfg.ring_size < 1) throw InputError(where + ": ring 'size' must be >= 1");
  if (cfg.ring_size > cfg.columns)
    throw InputError(where + ": a ring of " + std::to_string(cfg.ring_size) + " members needs at least as many columns");
}

// traces 'factor' and 'windows' (sources measured and factor).
void read_factor_windows(const nlohmann::json& t, const std::string& where, RunConfig& cfg) {
  if (t.contains("factor")) {
    const auto& f = t["factor"];
    if (!f.is_array() || f.size() != 2 || !f[0].is_number() || !f[1].is_number())
      throw InputError(where + ": traces 'factor' must be [low, high]");
    cfg.factor_low = f[0].get<double>();
    cfg.factor_high = f[1].get<double>();
    if (!(cfg.factor_low > 0 && cfg.factor_low <= cfg.factor_high))
      throw InputError(where + ": traces 'factor' must satisfy 0 < low <= high");
    check_multiplier(cfg.factor_low, where + ": traces 'factor' low");
    check_multiplier(cfg.factor_high, where + ": traces 'factor' high");
  }
  if (t.contains("windows")) {
    const auto& w = t["windows"];
    if (!w.is_array()) throw InputError(where + ": traces 'windows' must be [[lo, hi], ...]");
    cfg.trace_windows.clear();
    for (const auto& p : w) {
      if (!p.is_array() || p.size() != 2 || !p[0].is_number_integer() || !p[1].is_number_integer())
        throw InputError(where + ": traces 'windows' must be [[lo, hi], ...]");
      const nlohmann::json pair = {{"lo", p[0]}, {"hi", p[1]}};
      cfg.trace_windows.emplace_back(int_value(pair, "lo", where + " traces 'windows'"),
                                     int_value(pair, "hi", where + " traces 'windows'"));
    }
  }
}

// Source files: SimGrid profiles by host, or one CSV; 'default' for the members without a trace.
void read_trace_files(const nlohmann::json& t, const std::string& where, RunConfig& cfg) {
  if (t.contains("default")) {
    const std::string d = text(t, "default");
    if (!config_keys::accepts(config_keys::files_default, d))
      throw InputError(where + ": traces 'default' must be \"refuse\" (a member without a trace is an error) or "
                       "\"constant\" (it keeps its peak speed)");
    cfg.trace_default_constant = d == "constant";
  }
  if (t.contains("profiles") == t.contains("csv"))
    throw InputError(where + ": traces source files needs either 'profiles' {host: file, ...} or 'csv'");
  if (t.contains("csv")) {
    cfg.trace_csv = text(t, "csv");
    if (cfg.trace_csv.empty()) throw InputError(where + ": traces 'csv' must name a file");
    return;
  }
  const auto& p = t["profiles"];
  if (!p.is_object() || p.empty())
    throw InputError(where + ": traces 'profiles' must be a non-empty object {host: profile file, ...}");
  for (const auto& [host, file] : p.items()) {
    if (!file.is_string() || file.get<std::string>().empty())
      throw InputError(where + ": traces 'profiles' entry '" + host + "' must name a file");
    cfg.trace_profiles.emplace_back(host, file.get<std::string>());
  }
}

void read_random_walk(const nlohmann::json& t, const std::string& where, RandomWalkSpec& rw) {
  if (t.contains("step")) rw.step = number(t, "step");
  if (t.contains("low")) rw.low = number(t, "low");
  if (t.contains("high")) rw.high = number(t, "high");
  if (t.contains("every")) rw.every = int_value(t, "every", where + " 'traces'");
  validate(rw, where + " 'traces'");
}

// on-off 'durations', with the 'cv' or 'shape' its law needs.
void read_on_off_durations(const nlohmann::json& t, const std::string& where, OnOffSpec& oo) {
  if (t.contains("durations")) {
    const std::string d = text(t, "durations");
    if (!config_keys::accepts(config_keys::on_off_durations, d))
      throw InputError(where + ": on-off 'durations' must be " + config_keys::listed(config_keys::on_off_durations) +
                       ", got '" + d + "'");
    if (d == "pareto") oo.durations = OnOffDurations::pareto;
    else if (d == "weibull") oo.durations = OnOffDurations::weibull;
    else if (d == "hyperexponential") oo.durations = OnOffDurations::hyperexponential;
    else if (d != "geometric")
      throw InputError(where + ": on-off 'durations' must be geometric, pareto, weibull or hyperexponential, got '" +
                       d + "'");
  }
  if (t.contains("cv")) {
    if (oo.durations != OnOffDurations::hyperexponential)
      throw InputError(where + ": on-off 'cv' applies to durations hyperexponential");
    oo.cv = number(t, "cv");
  } else if (oo.durations == OnOffDurations::hyperexponential) {
    throw InputError(where + ": on-off durations hyperexponential needs a 'cv' (its coefficient of variation)");
  }
  if (t.contains("shape")) {
    if (oo.durations != OnOffDurations::pareto && oo.durations != OnOffDurations::weibull)
      throw InputError(where + ": on-off 'shape' applies to durations pareto or weibull");
    oo.shape = number(t, "shape");
  } else if (oo.durations == OnOffDurations::weibull) {
    // No one shape stands for every system's availability: the config says which.
    throw InputError(where + ": on-off durations weibull needs a 'shape'");
  }
}

void read_on_off(const nlohmann::json& t, const std::string& where, OnOffSpec& oo) {
  if (t.contains("available")) oo.available = number(t, "available");
  if (t.contains("loaded")) oo.loaded = number(t, "loaded");
  if (t.contains("load_factor")) oo.load_factor = number(t, "load_factor");
  read_on_off_durations(t, where, oo);
  validate(oo, where + " 'traces'");
}

void read_daily(const nlohmann::json& t, const std::string& where, DailySpec& d) {
  if (t.contains("period")) d.period = number(t, "period");
  if (t.contains("low")) d.low = number(t, "low");
  if (t.contains("high")) d.high = number(t, "high");
  if (t.contains("noise")) d.noise = number(t, "noise");
  if (t.contains("correlation")) d.correlation = number(t, "correlation");
  if (t.contains("every")) d.every = int_value(t, "every", where + " 'traces'");
  if (t.contains("phase")) {
    const auto& ph = t["phase"];
    if (ph.is_string() && config_keys::accepts(config_keys::daily_phase, ph.get<std::string>())) {
      d.random_phase = true;
    } else if (ph.is_number()) {
      d.random_phase = false;
      d.phase = number(t, "phase");
    } else {
      throw InputError(where + ": daily 'phase' must be \"random\" or a number of iterations");
    }
  }
  validate(d, where + " 'traces'");
}

// Source fta: the event trace file, its nodes by host, and how availability maps to speed.
void read_fta(const nlohmann::json& t, const std::string& where, FtaTraceConfig& f) {
  if (!t.contains("file")) throw InputError(where + ": traces source fta needs 'file' (an FTA event_trace file)");
  f.file = text(t, "file");
  if (f.file.empty()) throw InputError(where + ": traces 'file' must name a file");
  if (t.contains("nodes")) {
    const auto& n = t["nodes"];
    if (!n.is_object() || n.empty())
      throw InputError(where + ": traces 'nodes' must be a non-empty object {host: node_id, ...}");
    for (const auto& [host, node] : n.items()) {
      if (node.is_string() && !node.get<std::string>().empty()) f.nodes.emplace_back(host, node.get<std::string>());
      else if (node.is_number_integer()) f.nodes.emplace_back(host, node.dump());
      else throw InputError(where + ": traces 'nodes' entry '" + host + "' must be a node_id (a string or an integer)");
    }
  }
  if (t.contains("unavailable_multiplier")) f.unavailable_multiplier = number(t, "unavailable_multiplier");
  if (!(f.unavailable_multiplier > 0.0 && f.unavailable_multiplier <= 1.0))
    throw InputError(where + ": fta 'unavailable_multiplier' must be in (0, 1] (the speed while unavailable, as a "
                     "fraction of the peak; 0 would stall the host)");
  check_multiplier(f.unavailable_multiplier, where + ": fta 'unavailable_multiplier'");
  if (t.contains("time_scale")) f.time_scale = number(t, "time_scale");
  if (!(f.time_scale > 0.0))
    throw InputError(where + ": fta 'time_scale' must be > 0 (seconds of trace per simulated second)");
}

// 'traces': the source of the members' speeds, each source with its own keys (docs/traces.md).
void read_traces(const nlohmann::json& t, const std::string& where, RunConfig& cfg) {
  if (!t.is_object()) throw InputError(where + ": 'traces' must be an object");
  const std::string source = t.contains("source") ? text(t, "source") : "measured";
  const std::string tw = where + " 'traces'";
  const auto* keys = config_keys::traces_keys(source);
  if (!keys) throw InputError(where + ": traces 'source' must be " + config_keys::listed(config_keys::trace_sources));
  io::require_known_keys(t, *keys, tw);
  cfg.trace_source_given = t.contains("source");
  if (t.contains("seed")) cfg.trace_seed = seed_value(t, "seed");
  if (t.contains("placement")) cfg.trace_placement = parse_placement(t, source, where);
  cfg.trace_from_measured = source == "measured";
  if (source != "measured" && source != "factor") cfg.trace_source = source;
  read_factor_windows(t, where, cfg);
  if (source == "files") read_trace_files(t, where, cfg);
  if (source == "random-walk") read_random_walk(t, where, cfg.random_walk);
  if (source == "on-off") read_on_off(t, where, cfg.on_off);
  if (source == "daily") read_daily(t, where, cfg.daily);
  if (source == "fta") read_fta(t, where, cfg.fta);
  if (source == "planetlab" || source == "utilization-csv") cfg.real = read_real_traces(t, source, where);
}

// 'staging' and 'rebuild': the matrix staged in before the run, the ring moved during it.
void read_staging_and_rebuilds(const nlohmann::json& doc, const std::string& where, RunConfig& cfg) {
  if (doc.contains("staging")) cfg.staging = parse_staging(doc["staging"], where + " 'staging'");
  if (cfg.staging.enabled && cfg.trace_source == "platform")
    throw InputError(where + ": traces source 'platform' cannot be combined with 'staging': the platform's profiles "
                     "count from time 0, and ringsim's traces start when the staging ends");
  if (doc.contains("rebuild")) {
    cfg.rebuilds = parse_rebuilds(doc["rebuild"], cfg, where + " 'rebuild'");
    if (!cfg.rebuilds.empty() && cfg.selection == RingSelection::planner)
      throw InputError(where + ": 'rebuild' needs ring selection random or hosts (a planner ring's platform routes "
                       "only the ring's own neighbours)");
  }
}

// The config's fields, each checked (parse_run_config). The groups are read in this order, so that
// of several mistakes the same one is reported first.
RunConfig parse_run_config_fields(const nlohmann::json& doc, const std::string& where) {
  if (!doc.is_object()) throw InputError(where + " must be a JSON object");
  io::require_known_keys(doc, config_keys::run_config, where);
  RunConfig cfg;
  read_matrix_and_ratio(doc, where, cfg);
  read_scheme_and_policy(doc, where, cfg);
  read_simulator_settings(doc, where, cfg);
  read_outputs_and_decision_costs(doc, where, cfg);
  read_ring(doc, where, cfg);
  if (doc.contains("traces")) read_traces(doc["traces"], where, cfg);
  read_staging_and_rebuilds(doc, where, cfg);
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

namespace {

// The canonical form of the config's 'traces' (run_config_to_json).
nlohmann::json traces_json(const RunConfig& cfg) {
  const char* placement = to_string(cfg.trace_placement);
  nlohmann::json windows = nlohmann::json::array();
  for (const auto& [lo, hi] : cfg.trace_windows) windows.push_back({lo, hi});
  nlohmann::json traces = {{"seed", cfg.trace_seed}, {"source", cfg.trace_from_measured ? "measured" : "factor"},
                           {"windows", windows}, {"placement", placement}};
  if (!cfg.trace_from_measured) traces["factor"] = {cfg.factor_low, cfg.factor_high};
  // The other sources (only then, so that the canonical form of older configs does not change).
  if (cfg.trace_source == "platform") {
    traces = {{"source", "platform"}};
  } else if (cfg.trace_source == "files") {
    traces = {{"source", "files"}};
    if (cfg.trace_default_constant) traces["default"] = "constant";
    if (!cfg.trace_csv.empty()) {
      traces["csv"] = cfg.trace_csv;
      traces["placement"] = placement;
    } else {
      nlohmann::json p = nlohmann::json::object();
      for (const auto& [host, file] : cfg.trace_profiles) p[host] = file;
      traces["profiles"] = p;
    }
  } else if (cfg.trace_source == "random-walk") {
    const auto& rw = cfg.random_walk;
    traces = {{"seed", cfg.trace_seed}, {"source", "random-walk"}, {"step", rw.step},
              {"low", rw.low},          {"high", rw.high},           {"every", rw.every},
              {"placement", placement}};
  } else if (cfg.trace_source == "on-off") {
    const auto& oo = cfg.on_off;
    traces = {{"seed", cfg.trace_seed}, {"source", "on-off"}, {"available", oo.available},
              {"loaded", oo.loaded},     {"load_factor", oo.load_factor}, {"placement", placement}};
    if (oo.durations != OnOffDurations::geometric) {  // geometric configs keep their former canonical form
      traces["durations"] = to_string(oo.durations);
      if (oo.durations == OnOffDurations::hyperexponential) traces["cv"] = oo.cv;
      else traces["shape"] = oo.shape;
    }
  } else if (cfg.trace_source == "daily") {
    const auto& d = cfg.daily;
    traces = {{"seed", cfg.trace_seed}, {"source", "daily"},         {"period", d.period},
              {"low", d.low},           {"high", d.high},            {"noise", d.noise},
              {"correlation", d.correlation}, {"every", d.every},    {"placement", placement}};
    if (d.random_phase) traces["phase"] = "random";
    else traces["phase"] = d.phase;
  } else if (cfg.trace_source == "fta") {
    const auto& f = cfg.fta;
    traces = {{"source", "fta"}, {"file", f.file}, {"unavailable_multiplier", f.unavailable_multiplier},
              {"time_scale", f.time_scale}};
    if (!f.nodes.empty()) {
      nlohmann::json n = nlohmann::json::object();
      for (const auto& [host, node] : f.nodes) n[host] = node;
      traces["nodes"] = n;
    }
  } else if (cfg.trace_source == "planetlab" || cfg.trace_source == "utilization-csv") {
    traces = real_traces_json(cfg);
  }
  return traces;
}

}  // namespace

nlohmann::json run_config_to_json(const RunConfig& cfg) {
  nlohmann::json ring = {{"selection", to_string(cfg.selection)}, {"size", cfg.ring_size}, {"seed", cfg.ring_seed}};
  if (cfg.selection == RingSelection::hosts) ring["hosts"] = cfg.ring_hosts;
  if (cfg.selection == RingSelection::planner) {
    ring["method"] = cfg.ring_method;
    ring["routing"] = to_string(cfg.ring_routing);
    if (cfg.ring_candidates > 0) ring["candidates"] = cfg.ring_candidates;
  }
  const nlohmann::json traces = traces_json(cfg);
  nlohmann::json out = {{"platform", cfg.platform},   {"ring", ring},
          {"rows", cfg.rows},           {"columns", cfg.columns},
          {"iterations", cfg.iterations}, {"ratio", cfg.ratio},
          {"scheme", cfg.scheme.name},  {"algorithm", cfg.algorithm},
          {"targets", to_string(cfg.targets)}, {"traces", traces},
          {"network_model", to_string(cfg.network)}, {"decision_flops", cfg.decision_flops},
          {"report_bytes", cfg.report_bytes}, {"baseline", cfg.baseline}};
  // Only when used, so that the canonical form (and hash) of older configs does not change.
  if (!cfg.simgrid_options.empty()) {
    nlohmann::json o = nlohmann::json::object();
    for (const auto& [name, value] : cfg.simgrid_options) o[name] = value;
    out["simgrid"] = o;
  }
  if (!cfg.simgrid_log.empty()) out["simgrid_log"] = cfg.simgrid_log;
  if (cfg.reference_check != default_reference_check()) out["reference_check"] = cfg.reference_check;
  if (cfg.staging.enabled) {
    const auto& st = cfg.staging;
    nlohmann::json s = kpbs_options_json(st.k, st.beta, st.algorithm, st.overlap);
    s.update({{"nodes", st.cluster.nodes},
              {"node_bandwidth", st.cluster.node_bandwidth},
              {"node_latency", st.cluster.node_latency},
              {"backbone_bandwidth", st.cluster.backbone_bandwidth},
              {"backbone_latency", st.cluster.backbone_latency}});
    if (!st.gateway.empty()) s["gateway"] = st.gateway;
    out["staging"] = s;
  }
  if (!cfg.rebuilds.empty()) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& rb : cfg.rebuilds) {
      nlohmann::json e = kpbs_options_json(rb.k, rb.beta, rb.algorithm, rb.overlap);
      e["after"] = rb.after;
      if (rb.hosts.empty()) e.update({{"size", rb.size}, {"seed", rb.seed}});
      else e["hosts"] = rb.hosts;
      list.push_back(e);
    }
    out["rebuild"] = list;
  }
  return out;
}

}  // namespace ringsim::io
