// What a run writes: a JSON summary (one run) and CSV rows (per run, per iteration), in the style
// of Batsim's outputs: one row per item, provenance alongside.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/run_config.hpp"
#include "model/run_result.hpp"

namespace ringsim::sweep {

// baseline_makespan <= 0: unknown (normalized_time is then null).
nlohmann::json run_summary_json(const RunConfig& cfg, const RunResult& res, double baseline_makespan);

// One line saying that trace speeds above their host's peak were kept, and the first; "" if none.
std::string above_peak_warning(const RunResult& res);

// Header + one row per iteration; `run_id` (may be empty) prefixes every row.
std::string iterations_csv_text(const RunResult& res, const std::string& run_id);

}  // namespace ringsim::sweep
