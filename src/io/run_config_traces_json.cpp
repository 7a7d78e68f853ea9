#include "io/run_config_traces_json.hpp"

#include <algorithm>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "io/config_keys.hpp"
#include "io/json_input.hpp"
#include "io/json_values.hpp"
#include "io/run_config_real_traces_json.hpp"
#include "model/errors.hpp"
#include "model/trace_families.hpp"

namespace ringsim::io {
namespace {

using json_values::int_value;
using json_values::number;
using json_values::seed_value;
using json_values::text;

// The keys the sources share: the seed of the seeded ones, the name, and where changes take effect.

void read_traces_seed(const nlohmann::json& t, const char* key, const std::string&, SpeedTracesConfig& traces) {
  if (t.contains(key)) traces.seed = seed_value(t, key);
}

// A source's name in a config (read_traces has refused any other name).
void read_source(const nlohmann::json& t, const char* key, const std::string&, SpeedTracesConfig& traces) {
  traces.source = t.contains(key) ? *config_keys::trace_sources.find(text(t, key)) : TraceSource::unnamed;
}

// The values of traces 'placement', which `ringsim config-keys` lists (traces_values).
const config_keys::Enumerated<TracePlacement> placement_values =
    config_keys::named({TracePlacement::iteration, TracePlacement::nominal_time},
                       config_keys::Listing::plain_then_given);

// traces 'placement': where changes given by iteration take effect. SimGrid profiles are given by
// time only, so the key is refused there rather than silently ignored (a CSV may be either).
void read_placement(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  if (!t.contains(key)) return;
  const TraceSource source = traces.source;
  if (source == TraceSource::files && !t.contains("csv"))
    throw InputError(where + ": traces 'placement' applies to changes given by iteration; SimGrid 'profiles' are "
                     "given by time");
  if ((source == TraceSource::planetlab || source == TraceSource::utilization_csv) &&
      !(t.contains("time_scale") && t["time_scale"] == "span") && !t.contains("per_iteration"))
    throw InputError(where + ": traces 'placement' applies to changes given by iteration (time_scale \"span\" or "
                     "per_iteration); a numeric time_scale gives changes by time");
  traces.placement = placement_values.read(t, key, where, "traces 'placement'");
}

void write_traces_seed(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  out[key] = traces.seed;
}

void write_source(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  out[key] = to_string(traces.source);
}

// Written where the changes are given by iteration, as read_placement takes it.
void write_placement(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  if (traces.source == TraceSource::files && traces.csv.empty()) return;
  const AvailabilitySpec& a = traces.real.availability;
  if ((traces.source == TraceSource::planetlab || traces.source == TraceSource::utilization_csv) &&
      !(a.per_iteration > 0.0 || a.over_iterations))
    return;
  out[key] = to_string(traces.placement);
}

// Sources measured and factor: a change in each window, a factor's range (docs/traces.md).

void read_factor(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  if (!t.contains(key)) return;
  const auto& f = t[key];
  if (!f.is_array() || f.size() != 2 || !f[0].is_number() || !f[1].is_number())
    throw InputError(where + ": traces 'factor' must be [low, high]");
  traces.factor.low = f[0].get<double>();
  traces.factor.high = f[1].get<double>();
  if (!(traces.factor.low > 0 && traces.factor.low <= traces.factor.high))
    throw InputError(where + ": traces 'factor' must satisfy 0 < low <= high");
  check_multiplier(traces.factor.low, where + ": traces 'factor' low");
  check_multiplier(traces.factor.high, where + ": traces 'factor' high");
}

void read_windows(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  if (!t.contains(key)) return;
  const auto& w = t[key];
  if (!w.is_array()) throw InputError(where + ": traces 'windows' must be [[lo, hi], ...]");
  traces.windows.clear();
  for (const auto& p : w) {
    if (!p.is_array() || p.size() != 2 || !p[0].is_number_integer() || !p[1].is_number_integer())
      throw InputError(where + ": traces 'windows' must be [[lo, hi], ...]");
    const nlohmann::json pair = {{"lo", p[0]}, {"hi", p[1]}};
    traces.windows.emplace_back(int_value(pair, "lo", where + " traces 'windows'"),
                                int_value(pair, "hi", where + " traces 'windows'"));
  }
}

// The factor's range is a key of source factor only, though measured reads it too.
void write_factor(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  if (traces.source == TraceSource::factor) out[key] = {traces.factor.low, traces.factor.high};
}

void write_windows(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  nlohmann::json windows = nlohmann::json::array();
  for (const auto& [lo, hi] : traces.windows) windows.push_back({lo, hi});
  out[key] = windows;
}

// Source files: SimGrid profiles by host, or one CSV; 'default' for the members without a trace.

const config_keys::Keys files_default_values = {"refuse", "constant"};

void read_files_default(const nlohmann::json& t, const char* key, const std::string& where,
                        SpeedTracesConfig& traces) {
  if (!t.contains(key)) return;
  const std::string d = text(t, key);
  if (!config_keys::accepts(files_default_values, d))
    throw InputError(where + ": traces 'default' must be \"refuse\" (a member without a trace is an error) or "
                     "\"constant\" (it keeps its peak speed)");
  traces.default_constant = d == "constant";
}

// The first of the pair, of which a config gives exactly one.
void read_profiles(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  if (t.contains(key) == t.contains("csv"))
    throw InputError(where + ": traces source files needs either 'profiles' {host: file, ...} or 'csv'");
  if (!t.contains(key)) return;
  const auto& p = t[key];
  if (!p.is_object() || p.empty())
    throw InputError(where + ": traces 'profiles' must be a non-empty object {host: profile file, ...}");
  for (const auto& [host, file] : p.items()) {
    if (!file.is_string() || file.get<std::string>().empty())
      throw InputError(where + ": traces 'profiles' entry '" + host + "' must name a file");
    traces.profiles.emplace_back(host, file.get<std::string>());
  }
}

void read_csv(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  if (!t.contains(key)) return;
  traces.csv = text(t, key);
  if (traces.csv.empty()) throw InputError(where + ": traces 'csv' must name a file");
}

void write_profiles(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  if (!traces.csv.empty()) return;
  nlohmann::json p = nlohmann::json::object();
  for (const auto& [host, file] : traces.profiles) p[host] = file;
  out[key] = p;
}

void write_csv(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  if (!traces.csv.empty()) out[key] = traces.csv;
}

// "refuse", the default, is written as no key.
void write_files_default(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  if (traces.default_constant) out[key] = "constant";
}

// The generated families' keys (model/trace_families.hpp), each a field of the family's spec:
// `spec`, a member of SpeedTracesConfig, and `field`, one of the spec's.

template <auto spec, auto field>
void read_spec_number(const nlohmann::json& t, const char* key, const std::string&, SpeedTracesConfig& traces) {
  if (t.contains(key)) traces.*spec.*field = number(t, key);
}

template <auto spec, auto field>
void write_spec_value(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  out[key] = traces.*spec.*field;
}

// The last of random-walk's keys: the walk is checked with it.
void read_walk_every(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  RandomWalkSpec& rw = traces.random_walk;
  if (t.contains(key)) rw.every = int_value(t, key, where + " 'traces'");
  validate(rw, where + " 'traces'");
}

// on-off 'durations', with the 'cv' or 'shape' its law needs.
const config_keys::Enumerated<OnOffDurations> durations_values =
    config_keys::named({OnOffDurations::geometric, OnOffDurations::pareto, OnOffDurations::weibull,
                        OnOffDurations::hyperexponential},
                       config_keys::Listing::plain_then_given);

void read_durations(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  if (t.contains(key)) traces.on_off.durations = durations_values.read(t, key, where, "on-off 'durations'");
}

void read_cv(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  OnOffSpec& oo = traces.on_off;
  if (t.contains(key)) {
    if (oo.durations != OnOffDurations::hyperexponential)
      throw InputError(where + ": on-off 'cv' applies to durations hyperexponential");
    oo.cv = number(t, key);
  } else if (oo.durations == OnOffDurations::hyperexponential) {
    throw InputError(where + ": on-off durations hyperexponential needs a 'cv' (its coefficient of variation)");
  }
}

// The last of on-off's keys: the family is checked with it.
void read_shape(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  OnOffSpec& oo = traces.on_off;
  if (t.contains(key)) {
    if (oo.durations != OnOffDurations::pareto && oo.durations != OnOffDurations::weibull)
      throw InputError(where + ": on-off 'shape' applies to durations pareto or weibull");
    oo.shape = number(t, key);
  } else if (oo.durations == OnOffDurations::weibull) {
    // No one shape stands for every system's availability: the config says which.
    throw InputError(where + ": on-off durations weibull needs a 'shape'");
  }
  validate(oo, where + " 'traces'");
}

// Geometric durations, the default, are written as no key: the canonical form of a config is the
// same whether or not it names them. Each other law is written with its parameter.
void write_durations(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  if (traces.on_off.durations != OnOffDurations::geometric) out[key] = to_string(traces.on_off.durations);
}

void write_cv(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  if (traces.on_off.durations == OnOffDurations::hyperexponential) out[key] = traces.on_off.cv;
}

void write_shape(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  const OnOffDurations d = traces.on_off.durations;
  if (d == OnOffDurations::pareto || d == OnOffDurations::weibull) out[key] = traces.on_off.shape;
}

void read_daily_every(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  if (t.contains(key)) traces.daily.every = int_value(t, key, where + " 'traces'");
}

// The strings daily 'phase' accepts besides a number.
const config_keys::Keys phase_words = {"random"};

// The last of daily's keys: the family is checked with it.
void read_phase(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  DailySpec& d = traces.daily;
  if (t.contains(key)) {
    const auto& ph = t[key];
    if (ph.is_string() && config_keys::accepts(phase_words, ph.get<std::string>())) {
      d.random_phase = true;
    } else if (ph.is_number()) {
      d.random_phase = false;
      d.phase = number(t, key);
    } else {
      throw InputError(where + ": daily 'phase' must be \"random\" or a number of iterations");
    }
  }
  validate(d, where + " 'traces'");
}

void write_phase(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  if (traces.daily.random_phase) out[key] = "random";
  else out[key] = traces.daily.phase;
}

// Source fta: the event trace file, its nodes by host, and how availability maps to speed.

void read_fta_file(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  if (!t.contains(key)) throw InputError(where + ": traces source fta needs 'file' (an FTA event_trace file)");
  traces.fta.file = text(t, key);
  if (traces.fta.file.empty()) throw InputError(where + ": traces 'file' must name a file");
}

void read_fta_nodes(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  if (!t.contains(key)) return;
  const auto& n = t[key];
  if (!n.is_object() || n.empty())
    throw InputError(where + ": traces 'nodes' must be a non-empty object {host: node_id, ...}");
  for (const auto& [host, node] : n.items()) {
    if (node.is_string() && !node.get<std::string>().empty())
      traces.fta.nodes.emplace_back(host, node.get<std::string>());
    else if (node.is_number_integer()) traces.fta.nodes.emplace_back(host, node.dump());
    else throw InputError(where + ": traces 'nodes' entry '" + host + "' must be a node_id (a string or an integer)");
  }
}

void read_unavailable_multiplier(const nlohmann::json& t, const char* key, const std::string& where,
                                 SpeedTracesConfig& traces) {
  FtaTraceConfig& f = traces.fta;
  if (t.contains(key)) f.unavailable_multiplier = number(t, key);
  if (!(f.unavailable_multiplier > 0.0 && f.unavailable_multiplier <= 1.0))
    throw InputError(where + ": fta 'unavailable_multiplier' must be in (0, 1] (the speed while unavailable, as a "
                     "fraction of the peak; 0 would stall the host)");
  check_multiplier(f.unavailable_multiplier, where + ": fta 'unavailable_multiplier'");
}

void read_fta_time_scale(const nlohmann::json& t, const char* key, const std::string& where,
                         SpeedTracesConfig& traces) {
  if (t.contains(key)) traces.fta.time_scale = number(t, key);
  if (!(traces.fta.time_scale > 0.0))
    throw InputError(where + ": fta 'time_scale' must be > 0 (seconds of trace per simulated second)");
}

// The nodes as the file's order gives them (none given) are written as no key.
void write_fta_nodes(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  if (traces.fta.nodes.empty()) return;
  nlohmann::json n = nlohmann::json::object();
  for (const auto& [host, node] : traces.fta.nodes) n[host] = node;
  out[key] = n;
}

// The keys every source shares: its name; and those of every seeded source, its seed first and its
// placement last, its own keys between them.
const TracesKey traces_source_key = {"source", TracesStage::common, read_source, write_source,
                                     "where the speed changes come from"};
const TracesKey traces_placement_key = {"placement", TracesStage::common, read_placement, write_placement,
                                        "where changes given by iteration take effect: iteration or nominal-time"};

std::vector<TracesKey> seeded(std::vector<TracesKey> own) {
  static const TracesKey seed = {"seed", TracesStage::common, read_traces_seed, write_traces_seed,
                                 "seed of the draws (a sweep sets it to each seed)"};
  own.insert(own.begin(), {seed, traces_source_key});
  own.push_back(traces_placement_key);
  return own;
}

const std::vector<TracesKey>& windows_keys() {
  static const std::vector<TracesKey> keys = seeded({
      {"factor", TracesStage::own, read_factor, write_factor, "factor: the range [low, high] of the multipliers"},
      {"windows", TracesStage::own, read_windows, write_windows, "[[lo, hi], ...]: one change in each"},
  });
  return keys;
}

// Source files takes no seed, and a placement with a CSV by iteration only (read_placement).
const std::vector<TracesKey>& files_keys() {
  static const std::vector<TracesKey> keys = {
      traces_source_key,
      {"profiles", TracesStage::last, read_profiles, write_profiles, "{host: SimGrid profile file, ...}"},
      {"csv", TracesStage::last, read_csv, write_csv, "or one CSV of speeds, by iteration or by time"},
      // Read into SpeedTracesConfig::default_constant: `default` is a C++ keyword.
      {"default", TracesStage::own, read_files_default, write_files_default,
       "a member without a trace: refuse or constant"},
      traces_placement_key,
  };
  return keys;
}

const std::vector<TracesKey>& platform_keys() {
  static const std::vector<TracesKey> keys = {traces_source_key};
  return keys;
}

const std::vector<TracesKey>& random_walk_keys() {
  using W = RandomWalkSpec;
  constexpr auto walk = &SpeedTracesConfig::random_walk;
  static const std::vector<TracesKey> keys = seeded({
      {"step", TracesStage::own, read_spec_number<walk, &W::step>, write_spec_value<walk, &W::step>,
       "the multiplier is multiplied or divided by 1 + step"},
      {"low", TracesStage::own, read_spec_number<walk, &W::low>, write_spec_value<walk, &W::low>, "least multiplier"},
      {"high", TracesStage::own, read_spec_number<walk, &W::high>, write_spec_value<walk, &W::high>,
       "greatest multiplier"},
      {"every", TracesStage::own, read_walk_every, write_spec_value<walk, &W::every>, "iterations between steps"},
  });
  return keys;
}

const std::vector<TracesKey>& on_off_keys() {
  using O = OnOffSpec;
  constexpr auto on_off = &SpeedTracesConfig::on_off;
  static const std::vector<TracesKey> keys = seeded({
      {"available", TracesStage::own, read_spec_number<on_off, &O::available>,
       write_spec_value<on_off, &O::available>, "mean iterations without load"},
      {"loaded", TracesStage::own, read_spec_number<on_off, &O::loaded>, write_spec_value<on_off, &O::loaded>,
       "mean iterations under load"},
      {"load_factor", TracesStage::own, read_spec_number<on_off, &O::load_factor>,
       write_spec_value<on_off, &O::load_factor>, "the multiplier under load"},
      {"durations", TracesStage::own, read_durations, write_durations,
       "law of the durations: geometric, pareto, weibull or hyperexponential"},
      {"shape", TracesStage::last, read_shape, write_shape, "durations pareto or weibull: the law's shape"},
      {"cv", TracesStage::own, read_cv, write_cv, "durations hyperexponential: the coefficient of variation"},
  });
  return keys;
}

const std::vector<TracesKey>& daily_keys() {
  using D = DailySpec;
  constexpr auto daily = &SpeedTracesConfig::daily;
  static const std::vector<TracesKey> keys = seeded({
      {"period", TracesStage::own, read_spec_number<daily, &D::period>, write_spec_value<daily, &D::period>,
       "iterations per day"},
      {"low", TracesStage::own, read_spec_number<daily, &D::low>, write_spec_value<daily, &D::low>,
       "the multiplier at the day's low"},
      {"high", TracesStage::own, read_spec_number<daily, &D::high>, write_spec_value<daily, &D::high>,
       "the multiplier at the day's high"},
      {"noise", TracesStage::own, read_spec_number<daily, &D::noise>, write_spec_value<daily, &D::noise>,
       "standard deviation of the noise, a multiplier"},
      {"correlation", TracesStage::own, read_spec_number<daily, &D::correlation>,
       write_spec_value<daily, &D::correlation>, "of the noise from one change to the next, in [0, 1)"},
      {"phase", TracesStage::last, read_phase, write_phase, "\"random\" or iterations"},
      {"every", TracesStage::own, read_daily_every, write_spec_value<daily, &D::every>, "iterations between changes"},
  });
  return keys;
}

// Source fta takes no seed (its availability is the file's) and no placement (it is given by time).
const std::vector<TracesKey>& fta_keys() {
  using F = FtaTraceConfig;
  constexpr auto fta = &SpeedTracesConfig::fta;
  static const std::vector<TracesKey> keys = {
      traces_source_key,
      {"file", TracesStage::own, read_fta_file, write_spec_value<fta, &F::file>, "an FTA event_trace file"},
      {"nodes", TracesStage::own, read_fta_nodes, write_fta_nodes, "{host: node_id, ...}"},
      {"unavailable_multiplier", TracesStage::own, read_unavailable_multiplier,
       write_spec_value<fta, &F::unavailable_multiplier>,
       "the speed while unavailable, a fraction of the peak"},
      {"time_scale", TracesStage::own, read_fta_time_scale, write_spec_value<fta, &F::time_scale>,
       "seconds of trace per simulated second"},
  };
  return keys;
}

const std::vector<TracesKey>& planetlab_keys() {
  static const std::vector<TracesKey> keys = seeded(planetlab_own_keys());
  return keys;
}

const std::vector<TracesKey>& utilization_csv_keys() {
  static const std::vector<TracesKey> keys = seeded(utilization_csv_own_keys());
  return keys;
}

}  // namespace

const std::vector<TracesKey>& traces_keys(TraceSource source) {
  switch (source) {
    case TraceSource::files: return files_keys();
    case TraceSource::platform: return platform_keys();
    case TraceSource::random_walk: return random_walk_keys();
    case TraceSource::on_off: return on_off_keys();
    case TraceSource::daily: return daily_keys();
    case TraceSource::fta: return fta_keys();
    case TraceSource::planetlab: return planetlab_keys();
    case TraceSource::utilization_csv: return utilization_csv_keys();
    case TraceSource::measured:
    case TraceSource::factor:
    case TraceSource::unnamed: break;
  }
  return windows_keys();
}

nlohmann::json traces_values() {
  nlohmann::json values = {{"traces.placement", placement_values.names()},
                           {"traces.default", files_default_values},
                           {"traces.durations", durations_values.names()},
                           {"traces.phase", phase_words}};
  values.update(real_traces_values());
  return values;
}

void read_traces(const nlohmann::json& t, const std::string& where, RunConfig& cfg) {
  if (!t.is_object()) throw InputError(where + ": 'traces' must be an object");
  const std::string name = t.contains("source") ? text(t, "source") : "measured";
  const TraceSource* source = config_keys::trace_sources.find(name);
  if (!source)
    throw InputError(where + ": traces 'source' must be " + config_keys::listed(config_keys::trace_sources.names()));
  const auto& keys = traces_keys(*source);
  io::require_known_keys(t, key_names(keys), where + " 'traces'");
  read_keys(keys, {TracesStage::common, TracesStage::own, TracesStage::last}, t, where, cfg.traces);
}

nlohmann::json traces_json(const RunConfig& cfg) {
  nlohmann::json out = nlohmann::json::object();
  write_keys(traces_keys(cfg.traces.source), cfg.traces, out);
  return out;
}

void check_fta_nodes_in_ring(const RunConfig& cfg, const std::string& where) {
  if (cfg.traces.source != TraceSource::fta || cfg.ring.selection != RingSelection::hosts) return;
  for (const auto& [host, node] : cfg.traces.fta.nodes) {
    bool member = std::find(cfg.ring.hosts.begin(), cfg.ring.hosts.end(), host) != cfg.ring.hosts.end();
    for (const auto& rb : cfg.rebuild)
      member = member || std::find(rb.hosts.begin(), rb.hosts.end(), host) != rb.hosts.end();
    if (!member)
      throw InputError(where + ": traces 'nodes' names host '" + host + "', which is not in the ring's 'hosts'");
  }
}

}  // namespace ringsim::io
