#include "io/fta_availability.hpp"

#include <algorithm>

#include "io/json_input.hpp"
#include "io/text_fields.hpp"
#include "model/errors.hpp"

namespace ringsim::io {
namespace {

constexpr const char* kColumns =
    "event_id, component_id, node_id, platform_id, node_name, event_type, event_start_time, event_stop_time "
    "[, event_end_reason]";

}  // namespace

FtaEventTrace parse_fta_event_trace(const std::string& text, const std::string& where) {
  FtaEventTrace t;
  t.path = where;
  bool any = false;
  for_each_data_line(text, [&](std::size_t line, const std::string& raw, const std::string&) {
    // Split the raw line, not the trimmed one: a leading tab is an empty first column.
    const auto f = split_fields(raw, '\t');
    if (f[0] == "event_id") return;  // a header
    if (f.size() < 8 || f.size() > 9)
      throw InputError(file_line(where, line) + ": expected 8 or 9 tab-separated columns (" + kColumns + "), got " +
                       std::to_string(f.size()));
    const std::string& node = f[2];
    if (node.empty()) throw InputError(file_line(where, line) + ": empty node_id (column 3)");
    FtaEvent e;
    e.line = line;
    if (f[5] == "1") e.available = true;
    else if (f[5] == "0") e.available = false;
    else
      throw InputError(file_line(where, line) + ": unknown event_type '" + f[5] +
                       "' (column 6: 0 = unavailable, 1 = available)");
    if (!to_number(f[6], e.start)) throw InputError(file_line(where, line) + ": event_start_time (column 7) must be a number, got '" + f[6] + "'");
    if (!to_number(f[7], e.stop)) throw InputError(file_line(where, line) + ": event_stop_time (column 8) must be a number, got '" + f[7] + "'");
    if (e.stop < e.start)
      throw InputError(file_line(where, line) + ": event_stop_time " + f[7] + " is before event_start_time " + f[6]);
    auto& events = t.events[node];
    if (events.empty()) t.nodes.push_back(node);
    events.push_back(e);
    t.origin = any ? std::min(t.origin, e.start) : e.start;
    any = true;
  });
  if (!any) throw InputError("'" + where + "': no events (expected tab-separated lines " + kColumns + ")");
  for (auto& [node, events] : t.events) {
    std::stable_sort(events.begin(), events.end(), [](const FtaEvent& a, const FtaEvent& b) { return a.start < b.start; });
    for (std::size_t k = 1; k < events.size(); ++k)
      if (events[k].start < events[k - 1].stop) {
        const auto& [first, second] = events[k].line > events[k - 1].line ? std::pair{events[k - 1], events[k]}
                                                                           : std::pair{events[k], events[k - 1]};
        throw InputError(file_line(where, second.line) + ": the event of node '" + node + "' overlaps the one at line " +
                         std::to_string(first.line) + " (each node's intervals must be disjoint)");
      }
  }
  return t;
}

FtaEventTrace read_fta_event_trace(const std::string& path) { return parse_fta_event_trace(read_text(path), path); }

HostTrace fta_host_trace(const FtaEventTrace& trace, const std::string& node, const std::string& host, double peak,
                         double unavailable_multiplier, double time_scale) {
  const auto it = trace.events.find(node);
  if (it == trace.events.end()) throw InputError("no node '" + node + "' in FTA event trace '" + trace.path + "'");
  HostTrace t{host, peak, {}};
  double current = 1.0;
  const auto set = [&](double time, double m) {
    if (m == current) return;
    SpeedChange c;
    c.time = (time - trace.origin) / time_scale;
    c.multiplier = m;
    // Two changes at one time (an event ending where the next starts): the later one holds.
    if (!t.changes.empty() && t.changes.back().time == c.time) t.changes.pop_back();
    if (t.changes.empty() ? m != 1.0 : t.changes.back().multiplier != m) t.changes.push_back(c);
    current = m;
  };
  const auto& events = it->second;
  for (std::size_t k = 0; k < events.size(); ++k) {
    const FtaEvent& e = events[k];
    set(e.start, e.available ? 1.0 : unavailable_multiplier);
    // Uncovered time after it counts as available.
    if (k + 1 == events.size() || events[k + 1].start > e.stop) set(e.stop, 1.0);
  }
  return t;
}

}  // namespace ringsim::io
