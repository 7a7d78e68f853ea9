#include "sweep/experiment_keys.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <set>
#include <type_traits>

#include "io/json_input.hpp"
#include "model/errors.hpp"
#include "model/run_config.hpp"
#include "policy/registry.hpp"
#include "sweep/cluster_scripts.hpp"
#include "sweep/run_files.hpp"

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
        using limits = std::numeric_limits<T>;
        const bool fits = v.is_number_unsigned()
                              ? v.template get<std::uint64_t>() <= static_cast<std::uint64_t>(limits::max())
                              : v.template get<std::int64_t>() >= static_cast<std::int64_t>(limits::min()) &&
                                    (std::is_unsigned_v<T> ||
                                     v.template get<std::int64_t>() <= static_cast<std::int64_t>(limits::max()));
        if (!fits)
          throw InputError(where + ": '" + key + "' value " + v.dump() + " is out of range [" +
                           std::to_string(limits::min()) + ", " + std::to_string(limits::max()) + "]");
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
std::string string_or(const nlohmann::json& doc, const char* key, const std::string& fallback,
                      const std::string& where) {
  if (!doc.contains(key)) return fallback;
  if (!doc[key].is_string()) throw InputError(where + ": '" + key + "' must be a string");
  return doc[key].get<std::string>();
}

// Without --quick the quick form is neither read nor checked; with it, its keys replace the
// experiment's, its base merged into the base (experiment_quick_keys).
void read_quick(const nlohmann::json& doc, const char* key, const std::string& where, ExperimentReading& into) {
  if (into.quick && doc.contains(key)) {
    const auto& q = doc[key];
    if (!q.is_object()) throw InputError(where + ": '" + key + "' must be an object");
    io::require_known_keys(q, io::key_names(experiment_quick_keys()), where + " '" + key + "'");
    io::read_keys(experiment_quick_keys(), {ExperimentStage::quick}, q, where, into.document);
  }
  into.document.erase(key);
}

// An experiment's name names its default folder, out/<name>, and its SLURM jobs: a name, not a path.
void read_name(const nlohmann::json& doc, const char* key, const std::string& where, ExperimentReading& into) {
  const std::string name = string_or(doc, key, std::filesystem::path(into.path).stem().string(), where);
  refuse_control_characters(name, where + ": 'name'");
  std::string why;
  if (name.empty()) why = "it is empty";
  else if (name == "." || name == "..") why = "it names a folder";
  else if (name.find('/') != std::string::npos) why = "it holds a '/'";
  if (!why.empty())
    throw InputError(where + ": 'name' \"" + name + "\" is not a name (" + why +
                     "): the sweep's folder is out/<name>; give a name without '/' (and --out for a folder elsewhere)");
  into.config.name = name;
}

void read_description(const nlohmann::json& doc, const char* key, const std::string& where, ExperimentReading& into) {
  into.config.description = string_or(doc, key, "", where);
}

// The base every run's config starts from, its platform and trace files found beside the
// experiment: each run's config lies elsewhere (DIR/runs/<id>/), the files stay here.
void read_base(const nlohmann::json& doc, const char* key, const std::string& where, ExperimentReading& into) {
  if (!doc.contains(key) || !doc[key].is_object()) throw InputError(where + ": '" + key + "' must be an object");
  nlohmann::json base = doc[key];
  if (!base.contains("platform")) base["platform"] = RunConfig().platform;  // the paper's platform
  auto beside_experiment = [&](nlohmann::json& file) {
    if (!file.is_string()) return;  // the run's parse says what is wrong
    file = resolve_beside(file.get<std::string>(), into.path, PathForm::absolute);
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
  into.config.base = std::move(base);
}

// A list's reader: list_of into the field of the same name.
template <class T, std::vector<T> ExperimentConfig::*field>
void read_list(const nlohmann::json& doc, const char* key, const std::string& where, ExperimentReading& into) {
  into.config.*field = list_of<T>(doc, key, where);
}

// The no-redistribution run of each (size, ratio, seed, repetition) normalizes the others.
void read_schemes(const nlohmann::json& doc, const char* key, const std::string& where, ExperimentReading& into) {
  auto& schemes = into.config.schemes;
  schemes = list_of<std::string>(doc, key, where);
  if (std::find(schemes.begin(), schemes.end(), policy::kBaselineScheme) == schemes.end())
    schemes.insert(schemes.begin(), policy::kBaselineScheme);
}

void read_algorithms(const nlohmann::json& doc, const char* key, const std::string& where, ExperimentReading& into) {
  if (doc.contains(key)) into.config.algorithms = list_of<std::string>(doc, key, where);
}

void read_repetitions(const nlohmann::json& doc, const char* key, const std::string& where, ExperimentReading& into) {
  if (!doc.contains(key)) return;
  const auto& reps = doc[key];
  if (!reps.is_number_integer()) throw InputError(where + ": '" + key + "' must be an integer");
  if (reps.is_number_unsigned() && reps.get<std::uint64_t>() > static_cast<std::uint64_t>(INT_MAX))
    throw InputError(where + ": '" + key + "' must be at most " + std::to_string(INT_MAX));
  if (reps.get<long long>() < 1) throw InputError(where + ": '" + key + "' must be >= 1");
  into.config.repetitions = static_cast<int>(reps.get<long long>());
}

// A key of the quick form replaces the experiment's; its `base` is merged into the experiment's.
void replace_key(const nlohmann::json& quick, const char* key, const std::string&, nlohmann::json& document) {
  if (quick.contains(key)) document[key] = quick[key];
}

// Both must be objects: a key-by-key merge has no meaning otherwise.
void merge_base(const nlohmann::json& quick, const char* key, const std::string& where, nlohmann::json& document) {
  if (!quick.contains(key)) return;
  if (!quick[key].is_object()) throw InputError(where + " 'quick': '" + key + "' must be an object");
  if (document.contains(key) && !document[key].is_object())
    throw InputError(where + ": '" + key + "' must be an object");
  document[key].update(quick[key]);
}

}  // namespace

// The meanings are the manual's (docs/configs.md#experiments-ringsim-run), shortened.
const std::vector<ExperimentKey>& experiment_keys() {
  using S = ExperimentStage;
  using C = ExperimentConfig;
  static const std::vector<ExperimentKey> keys = {
      {"name", S::sweep, read_name, nullptr, "the sweep's name (the file's stem): its folder is out/<name>"},
      {"description", S::sweep, read_description, nullptr, "free text, copied to summary.json"},
      {"base", S::sweep, read_base, nullptr, "the run config every run starts from"},
      {"ring_sizes", S::sweep, read_list<int, &C::ring_sizes>, nullptr, "ring sizes, hosts"},
      {"ratios", S::sweep, read_list<double, &C::ratios>, nullptr, "each run's ratio"},
      {"schemes", S::sweep, read_schemes, nullptr, "each run's scheme; none is always added"},
      {"algorithms", S::sweep, read_algorithms, nullptr, "each run's algorithm (default [\"auto\"])"},
      {"seeds", S::sweep, read_list<std::uint64_t, &C::seeds>, nullptr, "each draws the ring and generated traces"},
      {"repetitions", S::sweep, read_repetitions, nullptr, "runs per seed; repetition r uses seed + 7919 r"},
      {"quick", S::quick, read_quick, nullptr, "what --quick overrides: the lists, and base keys"},
  };
  return keys;
}

const std::vector<QuickKey>& experiment_quick_keys() {
  using S = ExperimentStage;
  static const std::vector<QuickKey> keys = {
      {"ring_sizes", S::quick, replace_key, nullptr, "ring sizes, in place of the experiment's"},
      {"ratios", S::quick, replace_key, nullptr, "ratios, in place of the experiment's"},
      {"schemes", S::quick, replace_key, nullptr, "schemes, in place of the experiment's"},
      {"algorithms", S::quick, replace_key, nullptr, "algorithms, in place of the experiment's"},
      {"seeds", S::quick, replace_key, nullptr, "seeds, in place of the experiment's"},
      {"repetitions", S::quick, replace_key, nullptr, "runs per seed, in place of the experiment's"},
      {"base", S::quick, merge_base, nullptr, "run-config keys merged into the experiment's base"},
  };
  return keys;
}

ExperimentReading read_experiment_keys(const std::string& path, bool quick, const std::string& where) {
  ExperimentReading reading;
  reading.path = path;
  reading.quick = quick;
  const nlohmann::json doc = io::read_json_document(path);
  if (!doc.is_object()) throw InputError(where + " must be a JSON object");
  io::require_known_keys(doc, io::key_names(experiment_keys()), where);
  reading.document = doc;
  io::read_keys(experiment_keys(), {ExperimentStage::quick}, doc, where, reading);
  io::read_keys(experiment_keys(), {ExperimentStage::sweep}, reading.document, where, reading);
  return reading;
}

}  // namespace ringsim::sweep
