#include "sweep/run_files.hpp"

#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "sweep/run_output.hpp"
#include "io/files.hpp"
#include "io/json_input.hpp"
#include "io/paper_platform.hpp"
#include "io/run_config_json.hpp"
#include "model/errors.hpp"
#include "policy/registry.hpp"

namespace ringsim::sweep {

std::string resolve_beside(const std::string& path, const std::string& config_file, PathForm form) {
  namespace fs = std::filesystem;
  if (fs::path(path).is_absolute()) return path;
  const fs::path beside = fs::path(config_file).parent_path() / path;
  // A config on standard input ("-") has no folder: an experiment's paths are then the working
  // directory's, a run config's stay as given.
  if ((config_file != "-" || form == PathForm::absolute) && fs::exists(beside))
    return (form == PathForm::absolute ? fs::absolute(beside) : beside).lexically_normal().string();
#ifdef RINGSIM_SOURCE_DIR
  // The platforms shipped with ringsim (platforms/...) are found from anywhere.
  const fs::path shipped = fs::path(RINGSIM_SOURCE_DIR) / path;
  if (!fs::exists(path) && fs::exists(shipped)) return shipped.lexically_normal().string();
#endif
  return path;
}

std::vector<std::string*> input_files_named(RunConfig& cfg) {
  std::vector<std::string*> files{&cfg.platform};
  for (std::string* file : {&cfg.traces.csv, &cfg.traces.fta.file, &cfg.traces.real.file, &cfg.traces.real.folder})
    if (!file->empty()) files.push_back(file);
  for (auto& [host, file] : cfg.traces.profiles) files.push_back(&file);
  for (auto& file : cfg.traces.real.files) files.push_back(&file);
  return files;
}

RunConfig read_simulate_config(const std::string& config_file) {
  RunConfig cfg = io::parse_run_config(io::read_json_document(config_file), "'" + config_file + "'");
  for (std::string* file : input_files_named(cfg)) *file = resolve_beside(*file, config_file);
  if (!std::filesystem::exists(cfg.platform)) throw InputError("platform file '" + cfg.platform + "' does not exist");
  resolve_default_trace_source(cfg, io::is_paper_platform(cfg.platform));
  policy::scheme_redistributes(cfg.scheme.name, cfg.iterations, "'" + config_file + "'");  // checks the scheme
  policy::check_scheme_fits(cfg, "'" + config_file + "'");
  return cfg;
}

void write_simulate_outputs(const RunConfig& cfg, const RunResult& res, double baseline, const std::string& out,
                            const std::string& iterations_csv) {
  if (const std::string w = above_peak_warning(res); !w.empty()) std::cerr << "ringsim: warning: " << w << '\n';
  for (const auto& w : res.trace_warnings) std::cerr << "ringsim: warning: " << w << '\n';
  if (!iterations_csv.empty()) io::write_file_atomically(iterations_csv, iterations_csv_text(res, ""));
  const std::string summary = run_summary_json(cfg, res, baseline).dump(1) + "\n";
  if (out.empty()) {
    std::cout << summary;
    return;
  }
  try {
    io::write_file_atomically(out, summary);
  } catch (...) {
    // A run's outputs are one set: without its summary, its iterations would pass for a finished run's.
    std::error_code error;
    if (!iterations_csv.empty() && std::filesystem::is_regular_file(iterations_csv, error))
      std::filesystem::remove(iterations_csv, error);
    throw;
  }
}

}  // namespace ringsim::sweep
