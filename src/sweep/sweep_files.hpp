// A sweep's folder: runs/<id>/{config.json,result.json,iterations.csv,log.txt,.inputs.json} for each run, and
// what is merged from them (runs.csv, iterations.csv, summary.json with provenance). Every file is
// written atomically, so an interrupted sweep loses nothing and leaves nothing half-written.
#pragma once

#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "sweep/experiment.hpp"

namespace ringsim::sweep {

struct RunPaths {
  std::filesystem::path dir, config, result, iterations, log;
  std::filesystem::path inputs;  // the digests of the files the run reads, when its config was written
};

RunPaths paths_of(const std::filesystem::path& out, const ExperimentRun& run);

// The run's result when it is finished: a readable JSON object holding what the merge reads
// (is_run_summary); nullopt for none, or for an empty, cut or corrupt result.json (run again).
std::optional<nlohmann::json> finished_result(const RunPaths& paths);

// What identifies a run: its config.json and the content of every file it reads, recorded in its
// .inputs.json (file -> digest: the platform with the profiles it names, the trace files).
using RunInputs = std::vector<nlohmann::json>;

// Each run's input digests, after checking that no finished result would be lost: when a finished
// run's config or one of its files is not what this sweep's run would have, the sweep is refused
// (InputError, one line naming the folder, the run and what changed), its results kept.
RunInputs check_finished_runs(const Experiment& e, const std::filesystem::path& out);

// Each run's config.json and .inputs.json, written unless unchanged (a resumed sweep leaves finished
// runs untouched); `inputs` from check_finished_runs.
void write_configs(const Experiment& e, const std::filesystem::path& out, const RunInputs& inputs);

// runs.csv, iterations.csv and summary.json (provenance: versions, git SHA, options and models in
// force, config hash, trace sources) from the finished results; a result.json that is not one is
// merged as missing, named in one warning line.
void merge_results(const Experiment& e, const std::filesystem::path& out, bool quick);

}  // namespace ringsim::sweep
