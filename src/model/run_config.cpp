#include "model/run_config.hpp"


namespace ringsim {

const char* to_string(RingSelection s) {
  switch (s) {
    case RingSelection::random: return "random";
    case RingSelection::hosts: return "hosts";
    case RingSelection::planner: return "planner";
  }
  return "";
}
std::string trace_source_name(const RunConfig& cfg) {
  if (!cfg.trace_source.empty()) return cfg.trace_source;
  return cfg.trace_from_measured ? "measured" : "factor";
}

bool draws_from_2004_machine_list(const RunConfig& cfg) { return cfg.trace_source.empty() && cfg.trace_from_measured; }

void resolve_default_trace_source(RunConfig& cfg, bool paper_platform) {
  if (cfg.trace_source_given) return;
  cfg.trace_from_measured = paper_platform;
  cfg.trace_source_given = true;
}

const char* to_string(TargetMode m) { return m == TargetMode::oracle ? "oracle" : "measured"; }
const char* to_string(NetworkModel m) { return m == NetworkModel::linear ? "linear" : "lv08"; }

}  // namespace ringsim
