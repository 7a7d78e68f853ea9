#include "io/trace_files.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>

#include "io/json_input.hpp"
#include "io/text_fields.hpp"
#include "model/errors.hpp"
#include "model/trace_families.hpp"

namespace ringsim::io {
namespace {

std::vector<std::string> split_ws(const std::string& line) {
  std::istringstream is(line);
  std::vector<std::string> out;
  for (std::string w; is >> w;) out.push_back(w);
  return out;
}

std::string fmt(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

// `v` as printf's %g writes it (30, 100000, 2e+09), with more digits only where it would not read
// back as `v` (0.2, not 0.20000000000000001).
std::string shortest(double v) {
  for (int digits = 6; digits < 17; ++digits) {
    std::ostringstream os;
    os.precision(digits);
    os << v;
    if (std::strtod(os.str().c_str(), nullptr) == v) return os.str();  // strtod: denormals read back too
  }
  return fmt(v);
}

// The unit a CSV speed (flop/s) that no host could run at was most likely written in: of a
// multiplier of the peak, Mflop/s and Gflop/s, the one that puts it nearest the host's peak, if
// within a thousandfold of it. "" when none does.
std::string likely_speed_unit(double speed, double peak) {
  const std::pair<const char*, double> units[] = {{"as a multiplier of the peak", peak}, {"in Mflop/s", 1e6}, {"in Gflop/s", 1e9}};
  const char* likely = nullptr;
  double nearest = std::log(1e3);
  for (const auto& [unit, scale] : units)
    if (const double d = std::abs(std::log(speed * scale / peak)); d <= nearest) nearest = d, likely = unit;
  return likely ? std::string(" (speeds are in flop/s: written ") + likely + "?)" : "";
}

// A CSV speed that SimGrid cannot resolve against the host's peak (kLeastMultiplier,
// kGreatestMultiplier), refused naming the line (`at`) and the unit it was most likely written in.
void refuse_unresolvable_speed(const std::string& at, const std::string& host, double speed, double peak) {
  const double multiplier = speed / peak;
  if (multiplier >= kLeastMultiplier && multiplier <= kGreatestMultiplier) return;
  throw InputError(at + ": host '" + host + "' at " + shortest(speed) + " flop/s, " + shortest(multiplier) +
                   " times its peak " + shortest(peak) + " flop/s, outside [1e-06, 1e+06]" + likely_speed_unit(speed, peak));
}

// The first of the suspect lines of one kind (smallest rank: file order) and how many there are.
struct FirstSuspect {
  std::size_t count = 0;
  std::pair<std::size_t, std::size_t> rank{SIZE_MAX, SIZE_MAX};
  std::string what;
  void add(std::pair<std::size_t, std::size_t> at, const std::string& text) {
    ++count;
    if (at < rank) rank = at, what = text;
  }
};

}  // namespace

HostTrace parse_speed_profile(const std::string& text, const std::string& where, const std::string& host,
                              double peak_speed, std::vector<SpeedAbovePeak>* above, std::vector<std::size_t>* lines) {
  HostTrace t{host, peak_speed, {}};
  double loop_after = -1.0;
  for_each_data_line(text, [&](std::size_t line, const std::string&, const std::string& s) {
    const auto words = split_ws(s);
    if (words[0] == "LOOPAFTER") {
      if (words.size() != 2 || !to_number(words[1], loop_after) || loop_after < 0.0)
        throw InputError(file_line(where, line) + ": expected 'LOOPAFTER d' with d >= 0");
      return;
    }
    double time = 0.0, value = 0.0;
    if (words.size() != 2 || !to_number(words[0], time) || !to_number(words[1], value))
      throw InputError(file_line(where, line) + ": expected 'time value' or 'LOOPAFTER d', got '" + s + "'");
    if (time < 0.0) throw InputError(file_line(where, line) + ": negative time " + words[0]);
    if (!t.changes.empty() && time < t.changes.back().time)
      throw InputError(file_line(where, line) + ": times must be sorted (" + words[0] + " after " + fmt(t.changes.back().time) + ")");
    if (value <= 0.0) throw InputError(file_line(where, line) + ": speed multiplier must be > 0, got " + words[1]);
    if (!(value >= kLeastMultiplier && value <= kGreatestMultiplier))
      throw InputError(file_line(where, line) + ": speed multiplier " + words[1] + " outside [1e-06, 1e+06]" +
                       (value > kGreatestMultiplier ? " (profiles give multipliers of the host's peak, not flop/s)" : ""));
    if (value > 1.0 && above) above->push_back({file_line(where, line), host, value * peak_speed, peak_speed});
    SpeedChange c;
    c.time = time;
    c.multiplier = value;
    t.changes.push_back(c);
    if (lines) lines->push_back(line);
  });
  if (loop_after >= 0.0) {
    if (t.changes.empty() || t.changes.front().time != 0.0)
      throw InputError("'" + where + "': LOOPAFTER needs a first line at time 0");
    t.period = t.changes.back().time + loop_after;
    if (!(t.period >= kLeastProfilePeriod))
      throw InputError("'" + where + "': LOOPAFTER gives a period of " + shortest(t.period) + " s, less than " +
                       shortest(kLeastProfilePeriod) + " s (SimGrid would step through every repetition)");
  }
  return t;
}

HostTrace read_speed_profile(const std::string& path, const std::string& host, double peak_speed,
                             std::vector<SpeedAbovePeak>* above, std::vector<std::size_t>* lines) {
  return parse_speed_profile(read_text(path), path, host, peak_speed, above, lines);
}

SpeedCsv parse_speed_csv(const std::string& text, const std::string& where) {
  SpeedCsv csv;
  csv.path = where;
  bool header = false;
  for_each_data_line(text, [&](std::size_t line, const std::string&, const std::string& s) {
    const auto f = split_fields(s, ',');
    if (!header) {
      if (f.size() == 3 && f[0] == "host" && f[2] == "speed" && (f[1] == "time" || f[1] == "iteration")) {
        csv.by_iteration = f[1] == "iteration";
        header = true;
        return;
      }
      throw InputError(file_line(where, line) + ": expected the header host,time,speed or host,iteration,speed");
    }
    double key = 0.0, speed = 0.0;
    if (f.size() != 3 || f[0].empty() || !to_number(f[1], key) || !to_number(f[2], speed))
      throw InputError(file_line(where, line) + ": expected 'host," + (csv.by_iteration ? "iteration" : "time") +
                       ",speed', got '" + s + "'");
    if (key < 0.0 || (csv.by_iteration && key != std::floor(key)))
      throw InputError(file_line(where, line) + ": " + (csv.by_iteration ? "iteration must be an integer >= 0" : "negative time") +
                       ", got " + f[1]);
    if (speed <= 0.0) throw InputError(file_line(where, line) + ": speed must be > 0 (flop/s), got " + f[2]);
    auto& rows = csv.rows[f[0]];
    if (!rows.empty() && key < rows.back().first)
      throw InputError(file_line(where, line) + ": " + (csv.by_iteration ? "iterations" : "times") + " of host '" + f[0] +
                       "' must be sorted (" + f[1] + " after " + fmt(rows.back().first) + ")");
    rows.emplace_back(key, speed);
    csv.lines[f[0]].push_back(line);
  });
  if (!header) throw InputError("'" + where + "': empty (expected the header host,time,speed or host,iteration,speed)");
  return csv;
}

SpeedCsv read_speed_csv(const std::string& path) { return parse_speed_csv(read_text(path), path); }

bool has_trace(const SpeedCsv& csv, const std::string& host) { return csv.rows.count(host) > 0; }

HostTrace csv_trace(const SpeedCsv& csv, const std::string& host, double peak_speed, std::vector<SpeedAbovePeak>* above) {
  const auto it = csv.rows.find(host);
  if (it == csv.rows.end()) throw InputError("no speed trace for host '" + host + "' in '" + csv.path + "'");
  HostTrace t{host, peak_speed, {}};
  const auto& lines = csv.lines.at(host);
  for (std::size_t k = 0; k < it->second.size(); ++k) {
    const auto& [key, speed] = it->second[k];
    if (speed > peak_speed && above) above->push_back({file_line(csv.path, lines[k]), host, speed, peak_speed});
    // An iteration beyond any run's last one (an int) is never used, and suspect_trace_lines says so.
    if (csv.by_iteration && key > INT_MAX) continue;
    SpeedChange c;
    if (csv.by_iteration) c.iteration = static_cast<int>(key);
    else c.time = key;
    c.multiplier = speed / peak_speed;
    refuse_unresolvable_speed(file_line(csv.path, lines[k]), host, speed, peak_speed);
    t.changes.push_back(c);
  }
  return t;
}

std::vector<TraceFileHost> trace_file_hosts(const RunConfig& cfg) {
  std::vector<TraceFileHost> hosts;
  if (cfg.traces.source != TraceSource::files) return hosts;
  if (!cfg.traces.csv.empty()) {
    const SpeedCsv csv = read_speed_csv(cfg.traces.csv);
    for (const auto& [name, lines] : csv.lines) hosts.push_back({name, file_line(csv.path, lines.front()) + ": host"});
    std::sort(hosts.begin(), hosts.end(), [&](const TraceFileHost& a, const TraceFileHost& b) {
      return csv.lines.at(a.name).front() < csv.lines.at(b.name).front();
    });
    return hosts;
  }
  for (const auto& [name, file] : cfg.traces.profiles)
    hosts.push_back({name, "traces 'profiles' (file '" + file + "'): host"});
  return hosts;
}

std::vector<std::string> suspect_trace_lines(const RunConfig& cfg, const std::function<double(const std::string&)>& peak_of) {
  if (cfg.traces.source != TraceSource::files) return {};
  FirstSuspect past, slow;
  if (!cfg.traces.csv.empty()) {
    const SpeedCsv csv = read_speed_csv(cfg.traces.csv);
    for (const auto& [name, rows] : csv.rows) {
      const double peak = peak_of(name);
      const auto& lines = csv.lines.at(name);
      for (std::size_t k = 0; k < rows.size(); ++k) {
        const auto& [key, speed] = rows[k];
        if (peak > 0.0) refuse_unresolvable_speed(file_line(csv.path, lines[k]), name, speed, peak);
        const std::string at = file_line(csv.path, lines[k]) + ": host '" + name + "'";
        if (csv.by_iteration && key > cfg.iterations) past.add({0, lines[k]}, at + " at iteration " + shortest(key));
        if (peak > 0.0 && speed < kSuspectSpeedFraction * peak)
          slow.add({0, lines[k]}, at + " at " + shortest(speed) + " flop/s, peak " + shortest(peak) + " flop/s");
      }
    }
  } else {
    for (std::size_t p = 0; p < cfg.traces.profiles.size(); ++p) {
      const auto& [name, file] = cfg.traces.profiles[p];
      const double peak = peak_of(name);
      if (!(peak > 0.0)) continue;
      std::vector<std::size_t> lines;
      const HostTrace t = read_speed_profile(file, name, peak, nullptr, &lines);
      for (std::size_t k = 0; k < t.changes.size(); ++k)
        if (t.changes[k].multiplier < kSuspectSpeedFraction)
          slow.add({p, lines[k]}, file_line(file, lines[k]) + ": host '" + name + "' at multiplier " +
                                      shortest(t.changes[k].multiplier) + ", peak " + shortest(peak) + " flop/s");
    }
  }
  std::vector<std::string> out;
  if (past.count)
    out.push_back(std::to_string(past.count) + " trace line(s) past the run's last iteration (" +
                  std::to_string(cfg.iterations) + "), never used, the first at " + past.what);
  if (slow.count)
    out.push_back(std::to_string(slow.count) + " trace speed(s) below " + shortest(kSuspectSpeedFraction) +
                  " of their host's peak (a multiplier written as a speed in flop/s?), the first at " + slow.what);
  return out;
}

std::string trace_span_warning(const RunConfig& cfg, const std::vector<HostTrace>& traces, double run_seconds) {
  if (cfg.traces.source != TraceSource::files || !(run_seconds > 0.0)) return "";
  double last = 0.0;
  std::string host;
  for (const auto& t : traces)
    if (t.period == 0.0 && !t.changes.empty() && t.changes.back().timed() && t.changes.back().time > last)
      last = t.changes.back().time, host = t.host;
  if (host.empty()) return "";
  std::string file = cfg.traces.csv;
  for (const auto& [name, path] : cfg.traces.profiles)
    if (name == host) file = path;
  const std::string spans = "'" + file + "': the traces' last change is at " + shortest(last) + " s (host '" + host +
                            "'), the run's iterations took " + shortest(run_seconds) + " s";
  if (last >= kTraceSpanMilliseconds * run_seconds)
    return spans + ": times in milliseconds? (trace times are seconds since the iterations start)";
  if (last < kTraceSpanShort * run_seconds)
    return spans + ": each host kept its last speed from there (a trace of part of the run?)";
  return "";
}

}  // namespace ringsim::io
