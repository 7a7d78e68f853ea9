#include "sweep/sweep_files.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "build_commit.hpp"
#include "io/files.hpp"
#include "io/json_input.hpp"
#include "io/platform_speed_files.hpp"
#include "io/run_config_json.hpp"
#include "model/errors.hpp"
#include "sweep/run_files.hpp"

namespace ringsim::sweep {

namespace fs = std::filesystem;

RunPaths paths_of(const fs::path& out, const ExperimentRun& run) {
  const fs::path dir = out / "runs" / run.id;
  return {dir, dir / "config.json", dir / "result.json", dir / "iterations.csv", dir / "log.txt", dir / ".inputs.json"};
}

std::optional<nlohmann::json> finished_result(const RunPaths& paths) {
  std::error_code error;
  if (!fs::exists(paths.result, error)) return std::nullopt;
  try {
    nlohmann::json result = io::read_json_document(paths.result.string());
    if (is_run_summary(result)) return result;
  } catch (const InputError&) {
  }
  return std::nullopt;
}

namespace {

std::string exact(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

std::string hex(std::uint64_t digest) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(digest));
  return text;
}

// The digests of the files runs read (sweep::input_files_named), each file read once per sweep.
// A platform's digest covers the profiles it names (speed, state, bandwidth and latency files,
// found as SimGrid finds them); a folder's, the names and contents of the files in it.
class InputDigests {
 public:
  // file -> FNV-1a of its content, for every file the run's config names (its paths are absolute:
  // an experiment's runs are written so).
  nlohmann::json of(const nlohmann::json& config) {
    nlohmann::json digests = nlohmann::json::object();
    RunConfig cfg = io::parse_run_config(config, "a run's config");
    const std::vector<std::string*> files = input_files_named(cfg);
    for (const std::string* file : files) digests[*file] = digest(*file, file == files.front());
    return digests;
  }

 private:
  std::map<std::string, std::string> known_;

  const std::string& digest(const std::string& file, bool platform) {
    auto at = known_.find(file);
    if (at != known_.end()) return at->second;
    std::error_code error;
    if (fs::is_directory(file, error)) return known_[file] = hex(fnv1a(folder_content(file)));
    std::string content = io::read_text(file);
    if (platform)
      for (const auto& profile : io::platform_profiles(file)) {
        content += "\n" + profile.element + ' ' + profile.what + ' ' + profile.where;
        for (const auto& [time, value] : profile.points) content += ' ' + exact(time) + ':' + exact(value);
      }
    return known_[file] = hex(fnv1a(content));
  }

  // The regular files of a folder (names starting with '.' aside, as a trace set reads it), sorted:
  // each one's name and digest.
  std::string folder_content(const std::string& folder) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder))
      if (entry.is_regular_file() && entry.path().filename().string().rfind('.', 0) != 0)
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    std::string content;
    for (const auto& name : names) content += name + ' ' + digest((fs::path(folder) / name).string(), false) + '\n';
    return content;
  }
};

// Whether the file holds exactly `text` (false when it is missing or unreadable).
bool holds(const fs::path& file, const std::string& text) {
  std::error_code error;
  if (!fs::exists(file, error)) return false;
  try {
    return io::read_text(file.string()) == text;
  } catch (const InputError&) {
    return false;
  }
}

// Why a finished run is not this sweep's run (its config text and input digests): "" when it is.
// A run finished before its inputs were recorded (no .inputs.json) is judged by its config alone.
std::string what_changed(const RunPaths& p, const std::string& config, const nlohmann::json& inputs) {
  if (!holds(p.config, config))
    return "its config.json is not this sweep's (the experiment or the --cfg options changed)";
  std::error_code error;
  if (!fs::exists(p.inputs, error)) return "";
  nlohmann::json before;
  try {
    before = io::read_json_document(p.inputs.string());
  } catch (const InputError&) {
    return "its record of the files it read is unreadable";
  }
  for (const auto& [file, digest] : inputs.items())
    if (!before.is_object() || !before.contains(file) || before[file] != digest) return "'" + file + "' changed since it ran";
  if (before != inputs) return "it read other files";
  return "";
}

}  // namespace

RunInputs check_finished_runs(const Experiment& e, const fs::path& out) {
  InputDigests digests;
  RunInputs inputs;
  std::size_t changed = 0;
  std::string first;
  for (const auto& run : e.runs) {
    inputs.push_back(digests.of(run.config));
    const RunPaths p = paths_of(out, run);
    if (!finished_result(p)) continue;
    const std::string why = what_changed(p, run.config.dump(1) + "\n", inputs.back());
    if (why.empty()) continue;
    if (changed++ == 0) first = "run " + run.id + ": " + why;
  }
  if (changed)
    throw InputError("'" + out.string() + "' holds " + std::to_string(changed) + " finished run(s) that this sweep " +
                     "would run differently (" + first + "); their results are kept: use another --out, or remove " +
                     "their folders under runs/ to run them again");
  return inputs;
}

void write_configs(const Experiment& e, const fs::path& out, const RunInputs& inputs) {
  for (std::size_t k = 0; k < e.runs.size(); ++k) {
    const RunPaths p = paths_of(out, e.runs[k]);
    fs::create_directories(p.dir);
    const std::string text = e.runs[k].config.dump(1) + "\n";
    const std::string recorded = inputs[k].dump(1) + "\n";
    // What is unchanged is not rewritten: a resumed sweep leaves finished runs untouched.
    if (!holds(p.config, text)) io::write_file_atomically(p.config.string(), text, io::Durability::rewritable);
    if (!holds(p.inputs, recorded)) io::write_file_atomically(p.inputs.string(), recorded, io::Durability::rewritable);
  }
}

void merge_results(const Experiment& e, const fs::path& out, bool quick) {
  std::vector<nlohmann::json> results(e.runs.size());
  std::string iterations;
  std::size_t present = 0;
  std::string simgrid_version;
  std::set<std::string> models, options;  // what the runs had in force
  std::size_t unfinished = 0;
  std::string first_unfinished;
  for (std::size_t k = 0; k < e.runs.size(); ++k) {
    const RunPaths p = paths_of(out, e.runs[k]);
    std::error_code error;
    if (!fs::exists(p.result, error)) continue;
    std::optional<nlohmann::json> result = finished_result(p);
    if (!result) {
      if (unfinished++ == 0) first_unfinished = p.result.string();
      continue;
    }
    ++present;
    results[k] = std::move(*result);
    simgrid_version = results[k].value("simgrid_version", "");
    models.insert(results[k].value("network_model", ""));
    nlohmann::json in_force = results[k].value("simgrid_options", nlohmann::json::object());
    in_force.erase("tracing/filename");  // each traced run writes its own
    options.insert(in_force.dump());
    if (fs::exists(p.iterations)) {
      std::istringstream in(io::read_text(p.iterations.string()));
      std::string line;
      bool header = true;
      while (std::getline(in, line)) {
        if (header) {
          if (iterations.empty()) iterations = "run_id," + line + "\n";
          header = false;
          continue;
        }
        iterations += e.runs[k].id + "," + line + "\n";
      }
    }
  }
  if (unfinished)
    std::cerr << "ringsim: warning: " << unfinished << " result.json file(s) are not finished results (unreadable, cut "
              << "or incomplete; first '" << first_unfinished << "'): merged as missing, run again by `ringsim run`\n";
  io::write_file_atomically((out / "runs.csv").string(), runs_csv(e, results));
  io::write_file_atomically((out / "iterations.csv").string(), iterations);
  // Which traces the runs used, from their configs (every canonical config names its source).
  std::set<std::string> sources;
  for (const auto& run : e.runs) sources.insert(run.config.at("traces").at("source").get<std::string>());
  const std::string hash = hex(e.config_hash);
  // One value when every run had the same, else the list of the different ones.
  auto one_or_all = [](const std::set<std::string>& values, bool json) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& v : values) all.push_back(json ? nlohmann::json::parse(v) : nlohmann::json(v));
    return all.size() == 1 ? all.front() : all;
  };
  const nlohmann::json summary = {{"experiment", e.name},
                                  {"description", e.description},
                                  {"quick", quick},
                                  {"runs", e.runs.size()},
                                  {"runs_with_results", present},
                                  {"ringsim_version", RINGSIM_VERSION},
                                  {"git_sha", RINGSIM_BUILD_COMMIT},
                                  {"simgrid_version", simgrid_version},
                                  {"network_model", one_or_all(models, false)},
                                  {"simgrid_options", one_or_all(options, true)},
                                  {"config_hash_fnv1a64", hash},
                                  {"trace_sources", sources},
                                  {"speeds_from_2004_machine_list", sources.count("measured") > 0}};
  io::write_file_atomically((out / "summary.json").string(), summary.dump(1) + "\n");
}

}  // namespace ringsim::sweep
