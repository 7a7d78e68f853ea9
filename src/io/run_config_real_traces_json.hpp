// The own keys of the traces sources of measured CPU load, `planetlab` and `utilization-csv`
// (docs/traces.md#measured-cpu-load-planetlab-and-utilization-csv): the series' set, how a value
// becomes a share of the peak, and the series' clock. Each source's table
// (io/run_config_traces_json.hpp) holds them between the seed and source, and the placement.
#pragma once

#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "io/run_config_traces_json.hpp"

namespace ringsim::io {

const std::vector<TracesKey>& planetlab_own_keys();
const std::vector<TracesKey>& utilization_csv_own_keys();

// {"traces.conversion": [...], ...}: the values of their enumerated keys, by key path.
nlohmann::json real_traces_values();

}  // namespace ringsim::io
