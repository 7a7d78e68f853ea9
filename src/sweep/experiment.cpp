#include "sweep/experiment.hpp"
#include "sweep/run_files.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "io/files.hpp"
#include "sweep/cluster_scripts.hpp"
#include "io/config_keys.hpp"
#include "io/fta_availability.hpp"
#include "io/planetlab_traces.hpp"
#include "io/utilization_csv.hpp"
#include "io/json_input.hpp"
#include "io/paper_platform.hpp"
#include "io/platform_speed_files.hpp"
#include "io/trace_files.hpp"
#include "policy/registry.hpp"
#include "io/run_config_json.hpp"
#include "model/errors.hpp"
#include "model/platform_graph.hpp"

namespace ringsim::sweep {
namespace {

template <class T>
std::vector<T> list_of(const nlohmann::json& doc, const char* key, const std::string& where) {
  if (!doc.contains(key)) throw InputError(where + ": missing field '" + key + "'");
  const auto& a = doc.at(key);
  if (!a.is_array() || a.empty()) throw InputError(where + ": '" + key + "' must be a non-empty array");
  std::vector<T> out;
  for (const auto& v : a) {
    try {
      if constexpr (std::is_same_v<T, std::string>) {
        if (!v.is_string()) throw 0;
      } else if constexpr (std::is_integral_v<T>) {
        if (!v.is_number_integer()) throw 0;
        // Checked at full width: a narrowing get<T> would wrap (ring size 4294967300 is 4).
        const bool fits = v.is_number_unsigned()
                              ? v.template get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())
                              : v.template get<std::int64_t>() >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
                                    (std::is_unsigned_v<T> ||
                                     v.template get<std::int64_t>() <= static_cast<std::int64_t>(std::numeric_limits<T>::max()));
        if (!fits)
          throw InputError(where + ": '" + key + "' value " + v.dump() + " is out of range [" +
                           std::to_string(std::numeric_limits<T>::min()) + ", " +
                           std::to_string(std::numeric_limits<T>::max()) + "]");
      } else {
        if (!v.is_number()) throw 0;
      }
      out.push_back(v.get<T>());
    } catch (int) {
      throw InputError(where + ": '" + key + "' has an element of the wrong type");
    }
  }
  // Each value once: a repeated seed, ratio or size would give runs of the same id, which the sweep
  // would run once and count twice (or merge silently). The first value seen before is named.
  std::set<T> seen;
  for (std::size_t i = 0; i < out.size(); ++i)
    if (!seen.insert(out[i]).second)
      throw InputError(where + ": '" + key + "' lists " + a[i].dump() + " twice (each value once)");
  return out;
}

// The value of an optional string key (InputError naming the key when it is not a string).
std::string string_or(const nlohmann::json& doc, const char* key, const std::string& fallback, const std::string& where) {
  if (!doc.contains(key)) return fallback;
  if (!doc[key].is_string()) throw InputError(where + ": '" + key + "' must be a string");
  return doc[key].get<std::string>();
}

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

// An experiment's name names its default folder, out/<name>, and its SLURM jobs: a name, not a path.
void check_experiment_name(const std::string& name, const std::string& where) {
  refuse_control_characters(name, where + ": 'name'");
  std::string why;
  if (name.empty()) why = "it is empty";
  else if (name == "." || name == "..") why = "it names a folder";
  else if (name.find('/') != std::string::npos) why = "it holds a '/'";
  if (!why.empty())
    throw InputError(where + ": 'name' \"" + name + "\" is not a name (" + why +
                     "): the sweep's folder is out/<name>; give a name without '/' (and --out for a folder elsewhere)");
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

// The experiment's document, its 'quick' form merged in when asked for (its 'base' keys into the
// base, its other keys in place of the experiment's).
nlohmann::json read_experiment_document(const std::string& path, bool quick, const std::string& where) {
  nlohmann::json doc = io::read_json_document(path);
  if (!doc.is_object()) throw InputError(where + " must be a JSON object");
  io::require_known_keys(doc, io::config_keys::experiment, where);
  if (quick && doc.contains("quick")) {
    const auto& q = doc["quick"];
    if (!q.is_object()) throw InputError(where + ": 'quick' must be an object");
    io::require_known_keys(q, io::config_keys::experiment_quick, where + " 'quick'");
    for (const auto& item : q.items()) {
      if (item.key() == "base") doc["base"].update(item.value());
      else doc[item.key()] = item.value();
    }
  }
  doc.erase("quick");
  return doc;
}

// The base every run's config starts from, its platform and trace files found beside the
// experiment: each run's config lies elsewhere (DIR/runs/<id>/), the files stay here.
nlohmann::json base_with_files_beside(const nlohmann::json& doc, const std::string& path, const std::string& where) {
  if (!doc.contains("base") || !doc["base"].is_object()) throw InputError(where + ": 'base' must be an object");
  nlohmann::json base = doc["base"];
  if (!base.contains("platform")) base["platform"] = RunConfig().platform;  // the paper's platform
  auto beside_experiment = [&](nlohmann::json& file) {
    if (!file.is_string()) return;  // the run's parse says what is wrong
    file = resolve_beside(file.get<std::string>(), path, PathForm::absolute);
  };
  beside_experiment(base["platform"]);
  if (base.contains("traces") && base["traces"].is_object()) {
    auto& t = base["traces"];
    if (t.contains("csv")) beside_experiment(t["csv"]);
    if (t.contains("file")) beside_experiment(t["file"]);
    if (t.contains("set") && t["set"].is_array())
      for (auto& file : t["set"]) beside_experiment(file);
    else if (t.contains("set")) beside_experiment(t["set"]);
    if (t.contains("profiles") && t["profiles"].is_object())
      for (auto& [host, file] : t["profiles"].items()) beside_experiment(file);
  }
  return base;
}

// The lists a sweep crosses, each run one of each.
struct SweepLists {
  std::vector<int> sizes;
  std::vector<double> ratios;
  std::vector<std::string> schemes;  // the baseline scheme first unless listed
  std::vector<std::string> planners;
  std::vector<std::uint64_t> seeds;
  int repetitions = 1;
};

int repetitions_of(const nlohmann::json& doc, const std::string& where) {
  if (doc.contains("repetitions") && !doc["repetitions"].is_number_integer())
    throw InputError(where + ": 'repetitions' must be an integer");
  if (doc.contains("repetitions") && doc["repetitions"].is_number_unsigned() &&
      doc["repetitions"].get<std::uint64_t>() > static_cast<std::uint64_t>(INT_MAX))
    throw InputError(where + ": 'repetitions' must be at most " + std::to_string(INT_MAX));
  const long long reps_given = doc.contains("repetitions") ? doc["repetitions"].get<long long>() : 1;
  if (reps_given < 1) throw InputError(where + ": 'repetitions' must be >= 1");
  return static_cast<int>(reps_given);
}

SweepLists sweep_lists(const nlohmann::json& doc, const std::string& where) {
  SweepLists l;
  l.sizes = list_of<int>(doc, "ring_sizes", where);
  l.ratios = list_of<double>(doc, "ratios", where);
  l.schemes = list_of<std::string>(doc, "schemes", where);
  l.planners = doc.contains("algorithms") ? list_of<std::string>(doc, "algorithms", where)
                                            : std::vector<std::string>{"auto"};
  l.seeds = list_of<std::uint64_t>(doc, "seeds", where);
  l.repetitions = repetitions_of(doc, where);
  // The no-redistribution run of each (size, ratio, seed, repetition) normalizes the others.
  if (std::find(l.schemes.begin(), l.schemes.end(), policy::kBaselineScheme) == l.schemes.end())
    l.schemes.insert(l.schemes.begin(), policy::kBaselineScheme);
  return l;
}

// Counted before anything is built: each run costs its config in memory and its folder on disk.
void check_run_count(const SweepLists& l, const SweepLimits& limits, const std::string& where) {
  const std::size_t runs = run_count({l.sizes.size(), l.ratios.size(), l.seeds.size(),
                                      static_cast<std::size_t>(l.repetitions),
                                      1 + (l.schemes.size() - 1) * l.planners.size()});
  if (runs > limits.max_runs)
    throw InputError(where + ": the sweep has " + (runs == SIZE_MAX ? std::string("more than ") + std::to_string(SIZE_MAX - 1)
                                                                       : std::to_string(runs)) +
                     " runs, more than --max-runs " + std::to_string(limits.max_runs) + " (raise it to run them)");
}

// The base as a run would read it (the first ring size, ratio and scheme): what every run shares.
RunConfig shared_run_config(const nlohmann::json& base, const SweepLists& l, const std::string& where) {
  nlohmann::json first = base;
  first["ratio"] = l.ratios.front();
  if (!first.contains("ring")) first["ring"] = nlohmann::json::object();
  if (first["ring"].is_object() && !first["ring"].contains("hosts")) first["ring"]["size"] = l.sizes.front();
  const RunConfig shared = io::parse_run_config(first, where + " 'base'");
  for (int size : l.sizes)
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
void add_runs(int size, double ratio, std::uint64_t seed, int k, const SweepLists& l, const SweepContext& sweep,
              std::vector<ExperimentRun>& runs) {
  const std::string common = "p" + std::to_string(size) + "_r" + format_ratio(ratio);
  const std::string tail = "_s" + std::to_string(seed) + "_k" + std::to_string(k);
  const std::string baseline = common + "_none" + tail;
  for (const auto& scheme : l.schemes)
    for (std::size_t a = 0; a < l.planners.size(); ++a) {
      const bool none = scheme == policy::kBaselineScheme;
      if (none && a > 0) continue;  // no redistribution: the algorithm is irrelevant
      ExperimentRun run;
      run.ring_size = size;
      run.ratio = ratio;
      run.scheme = scheme;
      run.planner = none ? "-" : l.planners[a];
      run.seed = seed;
      run.repetition = k;
      run.id = none ? baseline : common + "_" + id_part(scheme) + "_" + id_part(l.planners[a]) + tail;
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
  const nlohmann::json doc = read_experiment_document(path, quick, where);
  Experiment e;
  e.name = string_or(doc, "name", std::filesystem::path(path).stem().string(), where);
  check_experiment_name(e.name, where);
  e.description = string_or(doc, "description", "", where);
  const nlohmann::json base = base_with_files_beside(doc, path, where);
  const bool seeded_traces = traces_take_seed(base);
  const SweepLists lists = sweep_lists(doc, where);
  check_run_count(lists, limits, where);
  const RunConfig shared = shared_run_config(base, lists, where);
  const SweepPlatform platform = check_platform(base, shared, lists.sizes, host_count, where);
  const SweepContext sweep{base, lists.schemes, seeded_traces, platform.paper, limits, where};
  for (int size : lists.sizes)
    for (double ratio : lists.ratios)
      for (std::uint64_t seed : lists.seeds)
        for (int k = 0; k < lists.repetitions; ++k) add_runs(size, ratio, seed, k, lists, sweep, e.runs);
  check_ids_unique(e.runs, where);
  e.config_hash = fnv1a(doc.dump());
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
