// CPU availability traces of the Failure Trace Archive (FTA; Kondo, Javadi, Iosup and Epema, "The
// Failure Trace Archive: Enabling Comparative Analysis of Failures in Diverse Distributed Systems",
// CCGrid 2010; format: fta.scem.uws.edu.au, page FTAFormat). The archive's `event_trace` table,
// exported as text: one event per line, tab-separated columns in the table's order
//   event_id  component_id  node_id  platform_id  node_name  event_type  event_start_time  event_stop_time  [event_end_reason]
// event_type 0: the component is unavailable, 1: available; times in seconds (Unix epoch in the
// archive's traces). Lines starting with '#', empty lines and a header line whose first column is
// "event_id" are skipped. Every problem is a one-line InputError naming file:line.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/speed_traces.hpp"

namespace ringsim::io {

struct FtaEvent {
  bool available = true;  // event_type 1 (0: unavailable)
  double start = 0.0;     // event_start_time, s
  double stop = 0.0;      // event_stop_time, s (>= start)
  std::size_t line = 0;
};

struct FtaEventTrace {
  std::string path;
  double origin = 0.0;             // the earliest event_start_time in the file: time 0 of every node
  std::vector<std::string> nodes;  // node_id as written, in order of first appearance
  std::map<std::string, std::vector<FtaEvent>> events;  // node_id -> its events, by start time, disjoint
};

FtaEventTrace parse_fta_event_trace(const std::string& text, const std::string& where);
FtaEventTrace read_fta_event_trace(const std::string& path);

// The speed trace of `host` from node `node`'s events, time-indexed (seconds since the iterations
// start): an unavailable period runs at `unavailable_multiplier` of the peak, an available one, and
// any time no event covers, at the peak; trace time t is (t - origin) / time_scale (time_scale:
// seconds of trace per simulated second). A change is recorded only when the multiplier moves.
// InputError when the file has no such node.
HostTrace fta_host_trace(const FtaEventTrace& trace, const std::string& node, const std::string& host, double peak,
                         double unavailable_multiplier, double time_scale);

}  // namespace ringsim::io
