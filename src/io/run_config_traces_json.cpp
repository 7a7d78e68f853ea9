#include "io/run_config_traces_json.hpp"

#include <algorithm>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "io/config_keys.hpp"
#include "io/json_input.hpp"
#include "io/json_values.hpp"
#include "model/errors.hpp"
#include "model/trace_families.hpp"

namespace ringsim::io {
namespace {

using json_values::int_value;
using json_values::integer;
using json_values::number;
using json_values::seed_value;
using json_values::text;

// A source's name in a config: the enumerators of TraceSource follow config_keys::trace_sources.
TraceSource trace_source_of(const std::string& name) {
  const auto& names = config_keys::trace_sources;
  return static_cast<TraceSource>(std::find(names.begin(), names.end(), name) - names.begin());
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

nlohmann::json real_traces_json(const RunConfig& cfg) {
  const RealTraceConfig& r = cfg.traces.real;
  const AvailabilitySpec& a = r.availability;
  nlohmann::json traces = {{"seed", cfg.traces.seed}, {"source", to_string(cfg.traces.source)}};
  if (cfg.traces.source == TraceSource::planetlab) {
    if (r.folder.empty()) traces["set"] = r.files;
    else traces["set"] = r.folder;
    traces["period"] = r.period;
  } else {
    traces.update({{"file", r.file}, {"time_column", r.time_column}, {"machine_column", r.machine_column},
                   {"value_column", r.value_column}});
  }
  traces.update({{"samples", r.samples}, {"conversion", to_string(a.rule)}, {"floor", a.floor}});
  const char* placement = to_string(cfg.traces.placement);
  if (a.per_iteration > 0.0) traces.update({{"per_iteration", a.per_iteration}, {"placement", placement}});
  else if (a.over_iterations) traces.update({{"time_scale", "span"}, {"placement", placement}});
  else traces["time_scale"] = a.time_scale;
  if (a.random_offset) traces["offset"] = "random";
  else traces["offset"] = a.offset;
  return traces;
}



// traces 'factor' and 'windows' (sources measured and factor).
void read_factor_windows(const nlohmann::json& t, const std::string& where, RunConfig& cfg) {
  if (t.contains("factor")) {
    const auto& f = t["factor"];
    if (!f.is_array() || f.size() != 2 || !f[0].is_number() || !f[1].is_number())
      throw InputError(where + ": traces 'factor' must be [low, high]");
    cfg.traces.factor.low = f[0].get<double>();
    cfg.traces.factor.high = f[1].get<double>();
    if (!(cfg.traces.factor.low > 0 && cfg.traces.factor.low <= cfg.traces.factor.high))
      throw InputError(where + ": traces 'factor' must satisfy 0 < low <= high");
    check_multiplier(cfg.traces.factor.low, where + ": traces 'factor' low");
    check_multiplier(cfg.traces.factor.high, where + ": traces 'factor' high");
  }
  if (t.contains("windows")) {
    const auto& w = t["windows"];
    if (!w.is_array()) throw InputError(where + ": traces 'windows' must be [[lo, hi], ...]");
    cfg.traces.windows.clear();
    for (const auto& p : w) {
      if (!p.is_array() || p.size() != 2 || !p[0].is_number_integer() || !p[1].is_number_integer())
        throw InputError(where + ": traces 'windows' must be [[lo, hi], ...]");
      const nlohmann::json pair = {{"lo", p[0]}, {"hi", p[1]}};
      cfg.traces.windows.emplace_back(int_value(pair, "lo", where + " traces 'windows'"),
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
    cfg.traces.default_constant = d == "constant";
  }
  if (t.contains("profiles") == t.contains("csv"))
    throw InputError(where + ": traces source files needs either 'profiles' {host: file, ...} or 'csv'");
  if (t.contains("csv")) {
    cfg.traces.csv = text(t, "csv");
    if (cfg.traces.csv.empty()) throw InputError(where + ": traces 'csv' must name a file");
    return;
  }
  const auto& p = t["profiles"];
  if (!p.is_object() || p.empty())
    throw InputError(where + ": traces 'profiles' must be a non-empty object {host: profile file, ...}");
  for (const auto& [host, file] : p.items()) {
    if (!file.is_string() || file.get<std::string>().empty())
      throw InputError(where + ": traces 'profiles' entry '" + host + "' must name a file");
    cfg.traces.profiles.emplace_back(host, file.get<std::string>());
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

}  // namespace

void read_traces(const nlohmann::json& t, const std::string& where, RunConfig& cfg) {
  if (!t.is_object()) throw InputError(where + ": 'traces' must be an object");
  const std::string source = t.contains("source") ? text(t, "source") : "measured";
  const std::string tw = where + " 'traces'";
  const auto* keys = config_keys::traces_keys(source);
  if (!keys) throw InputError(where + ": traces 'source' must be " + config_keys::listed(config_keys::trace_sources));
  io::require_known_keys(t, *keys, tw);
  if (t.contains("seed")) cfg.traces.seed = seed_value(t, "seed");
  if (t.contains("placement")) cfg.traces.placement = parse_placement(t, source, where);
  cfg.traces.source = t.contains("source") ? trace_source_of(source) : TraceSource::unnamed;
  read_factor_windows(t, where, cfg);
  if (source == "files") read_trace_files(t, where, cfg);
  if (source == "random-walk") read_random_walk(t, where, cfg.traces.random_walk);
  if (source == "on-off") read_on_off(t, where, cfg.traces.on_off);
  if (source == "daily") read_daily(t, where, cfg.traces.daily);
  if (source == "fta") read_fta(t, where, cfg.traces.fta);
  if (source == "planetlab" || source == "utilization-csv") cfg.traces.real = read_real_traces(t, source, where);
}



nlohmann::json traces_json(const RunConfig& cfg) {
  const char* placement = to_string(cfg.traces.placement);
  nlohmann::json windows = nlohmann::json::array();
  for (const auto& [lo, hi] : cfg.traces.windows) windows.push_back({lo, hi});
  nlohmann::json traces = {{"seed", cfg.traces.seed}, {"source", to_string(cfg.traces.source)},
                           {"windows", windows}, {"placement", placement}};
  if (cfg.traces.source == TraceSource::factor) traces["factor"] = {cfg.traces.factor.low, cfg.traces.factor.high};
  // The other sources (only then, so that the canonical form of older configs does not change).
  if (cfg.traces.source == TraceSource::platform) {
    traces = {{"source", "platform"}};
  } else if (cfg.traces.source == TraceSource::files) {
    traces = {{"source", "files"}};
    if (cfg.traces.default_constant) traces["default"] = "constant";
    if (!cfg.traces.csv.empty()) {
      traces["csv"] = cfg.traces.csv;
      traces["placement"] = placement;
    } else {
      nlohmann::json p = nlohmann::json::object();
      for (const auto& [host, file] : cfg.traces.profiles) p[host] = file;
      traces["profiles"] = p;
    }
  } else if (cfg.traces.source == TraceSource::random_walk) {
    const auto& rw = cfg.traces.random_walk;
    traces = {{"seed", cfg.traces.seed}, {"source", "random-walk"}, {"step", rw.step},
              {"low", rw.low},          {"high", rw.high},           {"every", rw.every},
              {"placement", placement}};
  } else if (cfg.traces.source == TraceSource::on_off) {
    const auto& oo = cfg.traces.on_off;
    traces = {{"seed", cfg.traces.seed}, {"source", "on-off"}, {"available", oo.available},
              {"loaded", oo.loaded},     {"load_factor", oo.load_factor}, {"placement", placement}};
    // Geometric durations, the default, are written as no key: the canonical form of a config is the
    // same whether or not it names them.
    if (oo.durations != OnOffDurations::geometric) {
      traces["durations"] = to_string(oo.durations);
      if (oo.durations == OnOffDurations::hyperexponential) traces["cv"] = oo.cv;
      else traces["shape"] = oo.shape;
    }
  } else if (cfg.traces.source == TraceSource::daily) {
    const auto& d = cfg.traces.daily;
    traces = {{"seed", cfg.traces.seed}, {"source", "daily"},         {"period", d.period},
              {"low", d.low},           {"high", d.high},            {"noise", d.noise},
              {"correlation", d.correlation}, {"every", d.every},    {"placement", placement}};
    if (d.random_phase) traces["phase"] = "random";
    else traces["phase"] = d.phase;
  } else if (cfg.traces.source == TraceSource::fta) {
    const auto& f = cfg.traces.fta;
    traces = {{"source", "fta"}, {"file", f.file}, {"unavailable_multiplier", f.unavailable_multiplier},
              {"time_scale", f.time_scale}};
    if (!f.nodes.empty()) {
      nlohmann::json n = nlohmann::json::object();
      for (const auto& [host, node] : f.nodes) n[host] = node;
      traces["nodes"] = n;
    }
  } else if (cfg.traces.source == TraceSource::planetlab || cfg.traces.source == TraceSource::utilization_csv) {
    traces = real_traces_json(cfg);
  }
  return traces;
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
