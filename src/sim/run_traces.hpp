// The run's speed traces (run_traces.cpp): read, checked, written back, and the ideal time.
#pragma once

#include "sim/run_state.hpp"

namespace ringsim::sim {

// Every iteration balanced at the speeds of its ring's hosts (`rings`: each ring in effect).
double ideal_time(const RunSetup& s, const RingHistory& rings);
// traces.csv and the profiles of the hosts `s` traces; `ring` is the ring in effect, `out` what the
// run recorded (after_run) or nothing yet.
void write_traces(const RunSetup& s, const RingShape& ring, const RunOutputs& out, const std::string& dir,
                  bool after_run);
// Reads the config's traces whole (source, seeds, families, files, platform, iterations).
std::vector<HostTrace> traces_for(const RunConfig& cfg, const std::vector<sg4::Host*>& ring,
                                  const std::vector<std::vector<sg4::Host*>>& rebuilt,
                                  std::vector<SpeedAbovePeak>* above = nullptr);
// io::suspect_trace_lines with the platform's peak speeds: the warnings of a run's trace files.
std::vector<std::string> suspect_trace_lines(const RunConfig& cfg);

}  // namespace ringsim::sim
