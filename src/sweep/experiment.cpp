#include "sweep/experiment.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "io/files.hpp"
#include "sweep/experiment_keys.hpp"
#include "io/fta_availability.hpp"
#include "io/planetlab_traces.hpp"
#include "io/utilization_csv.hpp"
#include "io/paper_platform.hpp"
#include "io/platform_speed_files.hpp"
#include "io/trace_files.hpp"
#include "policy/registry.hpp"
#include "io/run_config_json.hpp"
#include "model/errors.hpp"
#include "model/platform_graph.hpp"

namespace ringsim::sweep {
namespace {

// The number of runs a sweep of these lists makes (saturating: a count past any limit stays so).
std::size_t run_count(std::initializer_list<std::size_t> factors) {
  std::size_t n = 1;
  for (std::size_t f : factors) n = f != 0 && n > SIZE_MAX / f ? SIZE_MAX : n * f;
  return n;
}

std::string id_part(std::string s) {
  for (char& c : s)
    if (c == ':' || c == ',' || c == '/' || c == ' ') c = '_';
  return s;
}

// A ratio in a run id: %g's six digits when they read back as the ratio, else the fewest digits
// that do. Each id names one double (ratios 1 and 1.000001 get two ids, 0.1 and
// 0.10000000000000001 are one double, so one id), and an ordinary ratio keeps the id %g gives it.
std::string format_ratio(double r) {
  char buf[32];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, r);
    if (std::strtod(buf, nullptr) == r) break;
  }
  return buf;
}

// Each run its own id, hence its own folder: two runs on one id would share a result.
void check_ids_unique(const std::vector<ExperimentRun>& runs, const std::string& where) {
  std::set<std::string> seen;
  for (const auto& run : runs)
    if (!seen.insert(run.id).second)
      throw InputError(where + ": two runs get the id '" + run.id + "' (their scheme or algorithm names differ only "
                       "in ':', ',', '/' or ' ', which ids write '_'): rename one");
}

// Whether the base's traces source draws its traces from a seed (not files, not the platform's).
bool traces_take_seed(const nlohmann::json& base) {
  if (!base.contains("traces") || !base["traces"].is_object() || !base["traces"].contains("source")) return true;
  const auto& s = base["traces"]["source"];
  return !(s.is_string() && (s.get<std::string>() == "files" || s.get<std::string>() == "platform" ||
                              s.get<std::string>() == "fta"));
}

// The trace files (or the platform's profiles) exist and parse; a given ring's members each have
// a trace (unless "default": "constant"). The hosts' peaks are not known here: only the files'
// syntax is checked.
void check_trace_files(const RunConfig& cfg, const std::string& where) {
  const TraceSource source = cfg.traces.source;
  if (source != TraceSource::files && source != TraceSource::platform && source != TraceSource::fta &&
      source != TraceSource::planetlab && source != TraceSource::utilization_csv)
    return;
  try {
    // The whole set, once: a run reads only the series its members draw.
    if (cfg.traces.source == TraceSource::planetlab) {
      io::check_planetlab_set(cfg.traces.real);
      return;
    }
    if (cfg.traces.source == TraceSource::utilization_csv) {
      io::read_utilization_csv(cfg.traces.real);
      return;
    }
    if (cfg.traces.source == TraceSource::fta) {
      const io::FtaEventTrace trace = io::read_fta_event_trace(cfg.traces.fta.file);
      for (const auto& [host, node] : cfg.traces.fta.nodes)
        if (!trace.events.count(node))
          throw InputError("traces 'nodes': host '" + host + "' maps to node '" + node + "', which '" +
                           cfg.traces.fta.file + "' does not hold");
      if (cfg.ring.selection == RingSelection::hosts && !cfg.traces.fta.nodes.empty())
        for (const auto& h : cfg.ring.hosts)
          if (std::none_of(cfg.traces.fta.nodes.begin(), cfg.traces.fta.nodes.end(),
                           [&](const auto& p) { return p.first == h; }))
            throw InputError("no FTA node for ring host '" + h + "' in traces 'nodes'");
      return;
    }
    if (cfg.traces.source == TraceSource::platform) {
      for (const auto& [host, profile] : io::declared_speed_profiles(cfg.platform))
        io::parse_speed_profile(profile.text, profile.where, host, 1.0);
      return;
    }
    if (!cfg.traces.csv.empty()) {
      const io::SpeedCsv csv = io::read_speed_csv(cfg.traces.csv);
      if (cfg.ring.selection == RingSelection::hosts && !cfg.traces.default_constant)
        for (const auto& h : cfg.ring.hosts)
          if (!io::has_trace(csv, h))
            throw InputError("no speed trace for ring host '" + h + "' in '" + cfg.traces.csv +
                             "' (\"default\": \"constant\" keeps such members at their peak speed)");
      return;
    }
    for (const auto& [host, file] : cfg.traces.profiles) io::read_speed_profile(file, host, 1.0);
    if (cfg.ring.selection == RingSelection::hosts && !cfg.traces.default_constant)
      for (const auto& h : cfg.ring.hosts)
        if (std::none_of(cfg.traces.profiles.begin(), cfg.traces.profiles.end(),
                         [&](const auto& p) { return p.first == h; }))
          throw InputError("no speed trace for ring host '" + h + "' in traces 'profiles' (\"default\": \"constant\" "
                           "keeps such members at their peak speed)");
  } catch (const InputError& err) {
    throw InputError(where + ": " + err.what());
  }
}

// The hosts a run names, each with its role in the messages.
std::vector<NamedHost> named_hosts(const RunConfig& cfg) {
  std::vector<NamedHost> out;
  for (const auto& h : cfg.ring.hosts) out.push_back({h, "ring host"});
  for (const auto& rb : cfg.rebuild)
    for (const auto& h : rb.hosts) out.push_back({h, "rebuild after iteration " + std::to_string(rb.after) + ": ring host"});
  if (cfg.staging.enabled && !cfg.staging.gateway.empty()) out.push_back({cfg.staging.gateway, "staging gateway", true});
  for (auto& h : io::trace_file_hosts(cfg)) out.push_back({std::move(h.name), std::move(h.role)});
  return out;
}

// A reference checked in the simulation is no slower than the fixed schemes it is checked against
// (scheme.hpp): in a sweep these include every fixed scheme of the sweep, which its tables compare
// it with, unless the sweep's base gives its own `reference_check` (`[]`: the points alone).
void check_against_sweep(RunConfig& cfg, const nlohmann::json& base, const std::vector<std::string>& schemes) {
  const policy::SchemeEntry* reference = policy::reference_scheme(cfg.scheme.name);
  if (!reference || !reference->checked_in_simulation || base.contains("reference_check")) return;
  for (const auto& s : schemes) {
    bool fixed = false;
    try {
      fixed = policy::is_fixed_scheme(s, cfg.iterations);
    } catch (const InputError&) {  // a malformed scheme: its own run refuses it
    }
    if (fixed && std::find(cfg.reference_check.begin(), cfg.reference_check.end(), s) == cfg.reference_check.end())
      cfg.reference_check.push_back(s);
  }
}

// Counted before anything is built: each run costs its config in memory and its folder on disk.
void check_run_count(const ExperimentConfig& l, const SweepLimits& limits, const std::string& where) {
  const std::size_t runs = run_count({l.ring_sizes.size(), l.ratios.size(), l.seeds.size(),
                                      static_cast<std::size_t>(l.repetitions),
                                      1 + (l.schemes.size() - 1) * l.algorithms.size()});
  if (runs > limits.max_runs)
    throw InputError(where + ": the sweep has " + (runs == SIZE_MAX ? std::string("more than ") + std::to_string(SIZE_MAX - 1)
                                                                       : std::to_string(runs)) +
                     " runs, more than --max-runs " + std::to_string(limits.max_runs) + " (raise it to run them)");
}

// The base as a run would read it (the first ring size, ratio and scheme): what every run shares.
RunConfig shared_run_config(const nlohmann::json& base, const ExperimentConfig& l, const std::string& where) {
  nlohmann::json first = base;
  first["ratio"] = l.ratios.front();
  if (!first.contains("ring")) first["ring"] = nlohmann::json::object();
  if (first["ring"].is_object() && !first["ring"].contains("hosts")) first["ring"]["size"] = l.ring_sizes.front();
  const RunConfig shared = io::parse_run_config(first, where + " 'base'");
  for (int size : l.ring_sizes)
    if (shared.ring.selection == RingSelection::hosts && static_cast<std::size_t>(size) != shared.ring.hosts.size())
      throw InputError(where + ": ring size " + std::to_string(size) + " is not the size of the given ring 'hosts' (" +
                       std::to_string(shared.ring.hosts.size()) + " hosts): list ring_sizes [" +
                       std::to_string(shared.ring.hosts.size()) + "] or draw the ring at random");
  return shared;
}

// What the sweep's platform offers its rings.
struct SweepPlatform {
  std::size_t hosts = 0;  // that reach each other
  bool paper = false;     // the paper's platform, whose default traces are the 2004 machine list
};

// The platform exists and holds the hosts the runs name, its trace files parse, and every ring
// size fits among its hosts that reach each other.
SweepPlatform check_platform(const nlohmann::json& base, const RunConfig& shared, const std::vector<int>& sizes,
                             const HostCount& host_count, const std::string& where) {
  SweepPlatform platform;
  if (base["platform"].is_string()) {
    const std::string p = base["platform"].get<std::string>();
    if (!std::filesystem::exists(p)) throw InputError(where + ": platform file '" + p + "' does not exist");
    try {
      platform.hosts = host_count(p, named_hosts(shared));
    } catch (const InputError& err) {
      throw InputError(where + ": " + err.what());
    }
    platform.paper = io::is_paper_platform(p);
  }
  check_trace_files(shared, where);
  for (int size : sizes)
    if (size < 1 || static_cast<std::size_t>(size) > platform.hosts)
      throw InputError(where + ": ring size " + std::to_string(size) + " does not fit the platform (" +
                       std::to_string(platform.hosts) + " hosts that reach each other): list ring_sizes of at most " +
                       std::to_string(platform.hosts) + ", or use a platform with more hosts");
  return platform;
}

// What one run of the sweep shares with the others: the experiment's base and its checks.
struct SweepContext {
  const nlohmann::json& base;
  const std::vector<std::string>& schemes;
  bool seeded_traces;  // the base's traces are drawn from a seed, which each run derives
  bool paper_platform;
  const SweepLimits& limits;
  const std::string& where;
};

// The config of `run` (its size, ratio, scheme, algorithm, seed and repetition set), checked as the
// run itself will check it, in canonical form.
nlohmann::json run_config(const ExperimentRun& run, const SweepContext& sweep) {
  nlohmann::json cfg = sweep.base;
  cfg["ratio"] = run.ratio;
  cfg["scheme"] = run.scheme;
  cfg["algorithm"] = run.scheme == policy::kBaselineScheme ? "auto" : run.planner;
  if (!cfg.contains("ring")) cfg["ring"] = nlohmann::json::object();
  cfg["ring"]["size"] = run.ring_size;
  cfg["ring"]["seed"] = derived_seed(run.seed, run.repetition);
  if (sweep.seeded_traces) {  // a trace read from files or from the platform has no seed
    if (!cfg.contains("traces")) cfg["traces"] = nlohmann::json::object();
    cfg["traces"]["seed"] = derived_seed(run.seed, run.repetition);
  }
  cfg["baseline"] = false;
  const std::string where = sweep.where + " run " + run.id;
  RunConfig parsed = io::parse_run_config(cfg, where);  // checks before any run
  check_run_memory(parsed, sweep.limits.memory_bytes, where);
  policy::scheme_redistributes(run.scheme, parsed.iterations, where);
  policy::check_scheme_fits(parsed, where);
  check_against_sweep(parsed, sweep.base, sweep.schemes);
  resolve_default_trace_source(parsed, sweep.paper_platform);
  return io::run_config_to_json(parsed);
}

// The runs of one (size, ratio, seed, repetition): the baseline, then each scheme with each
// algorithm (the baseline with none: it never redistributes).
void add_runs(int size, double ratio, std::uint64_t seed, int k, const ExperimentConfig& l, const SweepContext& sweep,
              std::vector<ExperimentRun>& runs) {
  const std::string common = "p" + std::to_string(size) + "_r" + format_ratio(ratio);
  const std::string tail = "_s" + std::to_string(seed) + "_k" + std::to_string(k);
  const std::string baseline = common + "_none" + tail;
  for (const auto& scheme : l.schemes)
    for (std::size_t a = 0; a < l.algorithms.size(); ++a) {
      const bool none = scheme == policy::kBaselineScheme;
      if (none && a > 0) continue;  // no redistribution: the algorithm is irrelevant
      ExperimentRun run;
      run.ring_size = size;
      run.ratio = ratio;
      run.scheme = scheme;
      run.planner = none ? "-" : l.algorithms[a];
      run.seed = seed;
      run.repetition = k;
      run.id = none ? baseline : common + "_" + id_part(scheme) + "_" + id_part(l.algorithms[a]) + tail;
      run.baseline_id = baseline;
      run.config = run_config(run, sweep);
      runs.push_back(std::move(run));
    }
}

}  // namespace

std::uint64_t derived_seed(std::uint64_t seed, int repetition) {
  return seed + 7919ULL * static_cast<std::uint64_t>(repetition);
}

Experiment load_experiment(const std::string& path, bool quick, const HostCount& host_count, const SweepLimits& limits) {
  const std::string where = "'" + path + "'";
  const ExperimentReading reading = read_experiment_keys(path, quick, where);
  const ExperimentConfig& c = reading.config;
  Experiment e;
  e.name = c.name;
  e.description = c.description;
  const nlohmann::json& base = c.base;
  const bool seeded_traces = traces_take_seed(base);
  check_run_count(c, limits, where);
  const RunConfig shared = shared_run_config(base, c, where);
  const SweepPlatform platform = check_platform(base, shared, c.ring_sizes, host_count, where);
  const SweepContext sweep{base, c.schemes, seeded_traces, platform.paper, limits, where};
  for (int size : c.ring_sizes)
    for (double ratio : c.ratios)
      for (std::uint64_t seed : c.seeds)
        for (int k = 0; k < c.repetitions; ++k) add_runs(size, ratio, seed, k, c, sweep, e.runs);
  check_ids_unique(e.runs, where);
  e.config_hash = fnv1a(reading.document.dump());
  return e;
}

// What a reader needs to judge a reference run before dividing by it: whether its points are
// optimal under the simulation's model (hindsight, hindsight-targets; online-optimal's optimum is
// over online rules in expectation, so it has no such flag), its points' simulated makespan over
// their prediction, and, for a reference checked in the simulation, whether its points were kept
// (false: a checked fixed scheme was faster and is what the run simulated). Empty for the schemes
// that are not references, and the last for a reference not checked.
static std::string reference_columns(const nlohmann::json& r) {
  for (const char* section : {"hindsight", "online_optimal"}) {
    if (!r.contains(section)) continue;
    const nlohmann::json& ref = r[section];
    std::ostringstream os;
    os.precision(17);
    if (ref.contains("optimal_under_model")) os << (ref["optimal_under_model"].get<bool>() ? "true" : "false");
    os << ',' << ref["simulated_over_predicted"].get<double>() << ',';
    if (ref.contains("check")) os << (ref["check"]["points_kept"].get<bool>() ? "true" : "false");
    return os.str();
  }
  return ",,";
}

bool is_run_summary(const nlohmann::json& r) {
  const auto has = [](const nlohmann::json& o, const char* key, bool (nlohmann::json::*is)() const noexcept) {
    return o.is_object() && o.contains(key) && (o[key].*is)();
  };
  const auto absent_or = [&](const nlohmann::json& o, const char* key, bool (nlohmann::json::*is)() const noexcept) {
    return !o.contains(key) || (o[key].*is)();
  };
  using J = nlohmann::json;
  for (const char* key : {"makespan", "time_over_ideal", "ideal_time", "redistribution_time", "decision_time",
                          "transfer_time", "predicted_transfer_time"})
    if (!has(r, key, &J::is_number)) return false;
  for (const char* key : {"redistributions", "redistribution_points"}) {  // counts read as int
    if (!has(r, key, &J::is_number_integer)) return false;
    const bool fits = r[key].is_number_unsigned() ? r[key].get<std::uint64_t>() <= INT_MAX
                                                  : r[key].get<std::int64_t>() >= INT_MIN && r[key].get<std::int64_t>() <= INT_MAX;
    if (!fits) return false;
  }
  if (!has(r, "network_model", &J::is_string) || !has(r, "ring", &J::is_array)) return false;
  for (const auto& host : r["ring"])
    if (!host.is_string()) return false;
  if (r.contains("staging") && !(has(r["staging"], "simulated", &J::is_number) && has(r["staging"], "planned", &J::is_number)))
    return false;
  if (!absent_or(r, "rebuilds", &J::is_array)) return false;
  if (r.contains("rebuilds"))
    for (const auto& b : r["rebuilds"])
      if (!has(b, "simulated", &J::is_number)) return false;
  for (const char* section : {"hindsight", "online_optimal"}) {
    if (!r.contains(section)) continue;
    const J& ref = r[section];
    if (!has(ref, "simulated_over_predicted", &J::is_number) || !absent_or(ref, "optimal_under_model", &J::is_boolean))
      return false;
    if (ref.contains("check") && !has(ref["check"], "points_kept", &J::is_boolean)) return false;
  }
  return absent_or(r, "realized_ratio", &J::is_number) && absent_or(r, "simgrid_version", &J::is_string) &&
         absent_or(r, "simgrid_options", &J::is_object);
}

std::string runs_csv(const Experiment& e, const std::vector<nlohmann::json>& results) {
  std::map<std::string, double> makespan;
  for (std::size_t k = 0; k < e.runs.size(); ++k)
    if (!results[k].is_null()) makespan[e.runs[k].id] = results[k]["makespan"].get<double>();
  std::ostringstream os;
  os.precision(17);
  os << "run_id,ring_size,ratio,scheme,algorithm,seed,repetition,redistributions,redistribution_points,makespan,"
        "normalized_time,time_over_ideal,ideal_time,redistribution_time,decision_time,transfer_time,"
        "predicted_transfer_time,staging_time,planned_staging_time,rebuilds,rebuild_time,network_model,ring,"
        "reference_optimal_under_model,reference_simulated_over_predicted,reference_points_kept,realized_ratio\n";
  for (std::size_t k = 0; k < e.runs.size(); ++k) {
    const auto& run = e.runs[k];
    const auto& r = results[k];
    if (r.is_null()) continue;
    const auto base = makespan.find(run.baseline_id);
    os << run.id << ',' << run.ring_size << ',' << run.ratio << ',' << io::csv_field(run.scheme) << ','
       << io::csv_field(run.planner) << ','
       << run.seed << ',' << run.repetition << ',' << r["redistributions"].get<int>() << ','
       << r["redistribution_points"].get<int>() << ',' << r["makespan"].get<double>() << ',';
    if (base != makespan.end()) os << r["makespan"].get<double>() / base->second;
    os << ',' << r["time_over_ideal"].get<double>() << ',' << r["ideal_time"].get<double>() << ','
       << r["redistribution_time"].get<double>() << ',' << r["decision_time"].get<double>() << ','
       << r["transfer_time"].get<double>() << ',' << r["predicted_transfer_time"].get<double>() << ',';
    if (r.contains("staging")) os << r["staging"]["simulated"].get<double>() << ',' << r["staging"]["planned"].get<double>();
    else os << ',';
    double rebuild_time = 0.0;
    const std::size_t rebuilds = r.contains("rebuilds") ? r["rebuilds"].size() : 0;
    for (std::size_t b = 0; b < rebuilds; ++b) rebuild_time += r["rebuilds"][b]["simulated"].get<double>();
    os << ',' << rebuilds << ',' << rebuild_time << ',' << io::csv_field(r["network_model"].get<std::string>()) << ',';
    os << io::csv_list_field(r["ring"].get<std::vector<std::string>>()) << ',' << reference_columns(r) << ',';
    if (r.contains("realized_ratio")) os << r["realized_ratio"].get<double>();  // absent from older results
    os << '\n';
  }
  return os.str();
}

}  // namespace ringsim::sweep
