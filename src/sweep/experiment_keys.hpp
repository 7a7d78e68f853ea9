// The keys of an experiment (`ringsim run EXPERIMENT`, docs/configs.md#experiments-ringsim-run) and of
// its `quick` object, declared key by key as a run config's are (io/config_key.hpp): each table drives
// the reader, its refusal of any other key and `ringsim config-keys` (src/cli/cmd_config_keys.cpp),
// whose lists the JSON Schema test holds docs/schema/experiment.schema.json to.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/config_key.hpp"

namespace ringsim::sweep {

// What an experiment's keys say, each field named as its key: the run config every run starts from,
// and the lists whose product is the set of runs.
struct ExperimentConfig {
  std::string name;  // the file's stem when not given
  std::string description;
  nlohmann::json base;  // its platform and trace files found beside the experiment, made absolute
  std::vector<int> ring_sizes;
  std::vector<double> ratios;
  std::vector<std::string> schemes;  // the baseline scheme first unless listed
  std::vector<std::string> algorithms = {"auto"};
  std::vector<std::uint64_t> seeds;
  int repetitions = 1;
};

// The keys are read with the experiment's file (its stem is the default name, its folder holds the
// base's files) and whether `--quick` asks for the quick form. `document` is the experiment as its
// other keys read it: the quick form merged in when asked for (its 'base' keys into the base, its
// other keys in place of the experiment's), 'quick' removed; the sweep's config hash is of it.
struct ExperimentReading {
  std::string path;
  bool quick = false;
  nlohmann::json document;
  ExperimentConfig config;
};

// The quick form is merged in first: every other key is read from the merged document, in the
// table's order.
enum class ExperimentStage { quick, sweep };
// An experiment is never written back (a sweep keeps its file and hashes its document): its keys
// have no write function (ConfigKey::write is null).
using ExperimentKey = io::ConfigKey<ExperimentConfig, ExperimentStage, ExperimentReading>;
// A key of `quick` is read into the experiment's document, over the experiment's own.
using QuickKey = io::ConfigKey<nlohmann::json, ExperimentStage, nlohmann::json>;

// Every key of an experiment's top level, and of its `quick`, in the order `ringsim config-keys`
// lists them.
const std::vector<ExperimentKey>& experiment_keys();
const std::vector<QuickKey>& experiment_quick_keys();

// Reads and checks the experiment file `path` (InputErrors name `where`), its quick form merged in
// when `quick`.
ExperimentReading read_experiment_keys(const std::string& path, bool quick, const std::string& where);

}  // namespace ringsim::sweep
