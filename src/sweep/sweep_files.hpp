// A sweep's folder: runs/<id>/{config.json,result.json,iterations.csv,log.txt} for each run, and
// what is merged from them (runs.csv, iterations.csv, summary.json with provenance). Every file is
// written atomically, so an interrupted sweep loses nothing and leaves nothing half-written.
#pragma once

#include <filesystem>

#include "sweep/experiment.hpp"

namespace ringsim::sweep {

struct RunPaths {
  std::filesystem::path dir, config, result, iterations, log;
};

RunPaths paths_of(const std::filesystem::path& out, const ExperimentRun& run);

// Each run's config.json; an unchanged config is not rewritten (a resumed sweep leaves finished runs
// untouched), a changed one drops its run's result.
void write_configs(const Experiment& e, const std::filesystem::path& out);

// runs.csv, iterations.csv and summary.json (provenance: versions, git SHA, options and models in
// force, config hash, trace sources) from whatever results exist.
void merge_results(const Experiment& e, const std::filesystem::path& out, bool quick);

}  // namespace ringsim::sweep
