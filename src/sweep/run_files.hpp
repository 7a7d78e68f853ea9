// A run's files: what `ringsim simulate CONFIG` reads (the config, and the platform and trace files
// it names, found beside it) and what it writes (the JSON summary, iterations.csv). A sweep's runs
// read and write the same.
#pragma once

#include <string>
#include <vector>

#include "model/run_config.hpp"
#include "model/run_result.hpp"

namespace ringsim::sweep {

// A relative path in a config or an experiment: beside that file if it exists there, else (a
// platform shipped with ringsim, platforms/...) in ringsim's source tree, else as given. An
// experiment's paths are made absolute (its runs' configs are written elsewhere, runs/<id>/).
enum class PathForm { as_found, absolute };
std::string resolve_beside(const std::string& path, const std::string& config_file,
                           PathForm form = PathForm::as_found);

// Every file a run reads besides its config, as the config names them (so that they can be found
// beside it, or digested): the platform, then its traces' files; a planetlab set given as a folder
// is named by its folder. Where the one list lives: a new trace source's files go here.
std::vector<std::string*> input_files_named(RunConfig& cfg);

// The config, with its platform and trace files resolved (the platform must exist) and the
// default trace source of its platform.
RunConfig read_simulate_config(const std::string& config_file);

// iterations.csv (when named) and the JSON summary (to `out` atomically, or to standard output
// when `out` is empty); a warning line for trace speeds above their host's peak.
void write_simulate_outputs(const RunConfig& cfg, const RunResult& res, double baseline, const std::string& out,
                            const std::string& iterations_csv);

}  // namespace ringsim::sweep
