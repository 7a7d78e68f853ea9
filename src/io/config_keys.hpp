// The keys run configs (`ringsim simulate`) and experiments (`ringsim run`) accept, object by
// object: the readers refuse any other key with these lists, and `ringsim config-keys` prints them
// so that the JSON Schema in docs/schema/ can be compared with them (tests/docs/check_schema.py).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ringsim::config_keys {

using Keys = std::vector<std::string>;

extern const Keys run_config;  // the top level of a run config (an experiment's `base`)
extern const Keys ring;
extern const Keys staging;
extern const Keys rebuild;  // each entry of `rebuild`
// `traces`, by source (measured and factor share theirs)
extern const Keys traces_measured_or_factor;
extern const Keys traces_files;
extern const Keys traces_platform;
extern const Keys traces_random_walk;
extern const Keys traces_on_off;
extern const Keys traces_daily;
extern const Keys traces_fta;
extern const Keys experiment;  // the top level of an experiment
extern const Keys experiment_quick;

// {"run_config": {"": [...], "ring": [...], ..., "traces/<source>": [...]},
//  "experiment": {"": [...], "quick": [...]}}
nlohmann::json all();

}  // namespace ringsim::config_keys
