#include "sweep/sweep_files.hpp"

#include <cstdio>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "build_commit.hpp"
#include "io/files.hpp"
#include "io/json_input.hpp"

namespace ringsim::sweep {

namespace fs = std::filesystem;

RunPaths paths_of(const fs::path& out, const ExperimentRun& run) {
  const fs::path dir = out / "runs" / run.id;
  return {dir, dir / "config.json", dir / "result.json", dir / "iterations.csv", dir / "log.txt"};
}

void write_configs(const Experiment& e, const fs::path& out) {
  for (const auto& run : e.runs) {
    const RunPaths p = paths_of(out, run);
    fs::create_directories(p.dir);
    const std::string text = run.config.dump(1) + "\n";
    // Unchanged configs are not rewritten: a resumed sweep leaves finished runs untouched.
    if (fs::exists(p.config) && io::read_text(p.config.string()) == text) continue;
    if (fs::exists(p.result)) fs::remove(p.result);  // a changed config invalidates its result
    io::write_file_atomically(p.config.string(), text);
  }
}

void merge_results(const Experiment& e, const fs::path& out, bool quick) {
  std::vector<nlohmann::json> results(e.runs.size());
  std::string iterations;
  std::size_t present = 0;
  std::string simgrid_version;
  std::set<std::string> models, options;  // what the runs had in force
  for (std::size_t k = 0; k < e.runs.size(); ++k) {
    const RunPaths p = paths_of(out, e.runs[k]);
    if (!fs::exists(p.result)) continue;
    ++present;
    results[k] = nlohmann::json::parse(io::read_text(p.result.string()));
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
  io::write_file_atomically((out / "runs.csv").string(), runs_csv(e, results));
  io::write_file_atomically((out / "iterations.csv").string(), iterations);
  // Which traces the runs used, from their configs (every canonical config names its source).
  std::set<std::string> sources;
  for (const auto& run : e.runs) sources.insert(run.config.at("traces").at("source").get<std::string>());
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(e.config_hash));
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
