#include "io/config_keys.hpp"

#include <nlohmann/json.hpp>

namespace ringsim::config_keys {

const Keys run_config = {"platform", "ring",          "rows",           "columns",      "iterations", "ratio",
                         "scheme",   "algorithm",     "targets",        "traces",       "network_model",
                         "decision_flops", "report_bytes", "baseline", "staging", "rebuild", "simgrid", "simgrid_log"};
const Keys ring = {"size", "selection", "hosts", "method", "seed", "routing", "candidates"};
const Keys staging = {"nodes", "node_bandwidth", "node_latency", "backbone_bandwidth", "backbone_latency",
                      "gateway", "k", "beta", "algorithm", "overlap"};
const Keys rebuild = {"after", "hosts", "size", "seed", "k", "beta", "algorithm", "overlap"};
const Keys traces_measured_or_factor = {"seed", "source", "factor", "windows", "placement"};
const Keys traces_files = {"source", "profiles", "csv", "default", "placement"};
const Keys traces_platform = {"source"};
const Keys traces_random_walk = {"seed", "source", "step", "low", "high", "every", "placement"};
const Keys traces_on_off = {"seed", "source", "available", "loaded", "load_factor", "durations", "shape", "cv",
                            "placement"};
const Keys traces_daily = {"seed", "source", "period", "low", "high", "noise", "correlation", "phase", "every",
                           "placement"};
const Keys traces_fta = {"source", "file", "nodes", "unavailable_multiplier", "time_scale"};
const Keys experiment = {"name", "description", "base", "ring_sizes", "ratios", "schemes", "algorithms", "seeds",
                         "repetitions", "quick"};
const Keys experiment_quick = {"ring_sizes", "ratios", "schemes", "algorithms", "seeds", "repetitions", "base"};

nlohmann::json all() {
  return {{"run_config",
           {{"", run_config},
            {"ring", ring},
            {"staging", staging},
            {"rebuild[]", rebuild},
            {"traces/measured", traces_measured_or_factor},
            {"traces/factor", traces_measured_or_factor},
            {"traces/files", traces_files},
            {"traces/platform", traces_platform},
            {"traces/random-walk", traces_random_walk},
            {"traces/on-off", traces_on_off},
            {"traces/daily", traces_daily},
            {"traces/fta", traces_fta}}},
          {"experiment", {{"", experiment}, {"quick", experiment_quick}}}};
}

}  // namespace ringsim::config_keys
