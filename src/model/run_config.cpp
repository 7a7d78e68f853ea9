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
const char* to_string(TraceSource s) {
  switch (s) {
    case TraceSource::measured: return "measured";
    case TraceSource::factor: return "factor";
    case TraceSource::files: return "files";
    case TraceSource::platform: return "platform";
    case TraceSource::random_walk: return "random-walk";
    case TraceSource::on_off: return "on-off";
    case TraceSource::daily: return "daily";
    case TraceSource::fta: return "fta";
    case TraceSource::planetlab: return "planetlab";
    case TraceSource::utilization_csv: return "utilization-csv";
    case TraceSource::unnamed: return "measured";
  }
  return "";
}

std::string trace_source_name(const RunConfig& cfg) { return to_string(cfg.traces.source); }

bool draws_from_2004_machine_list(const RunConfig& cfg) {
  return cfg.traces.source == TraceSource::measured || cfg.traces.source == TraceSource::unnamed;
}

void resolve_default_trace_source(RunConfig& cfg, bool paper_platform) {
  if (cfg.traces.source != TraceSource::unnamed) return;
  cfg.traces.source = paper_platform ? TraceSource::measured : TraceSource::factor;
}

const char* to_string(TargetMode m) { return m == TargetMode::oracle ? "oracle" : "measured"; }
const char* to_string(NetworkModel m) { return m == NetworkModel::linear ? "linear" : "lv08"; }

}  // namespace ringsim
