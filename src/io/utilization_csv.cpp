#include "io/utilization_csv.hpp"

#include <algorithm>
#include <map>

#include "io/json_input.hpp"
#include "io/text_fields.hpp"
#include "model/errors.hpp"

namespace ringsim::io {
namespace {

// The index of the header's column `name` (the config's `key`); InputError naming the header's line
// when it is missing or given twice.
std::size_t column_index(const std::vector<std::string>& header, const std::string& name, const char* key,
                         const std::string& where, std::size_t line) {
  std::size_t found = header.size();
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) {
      if (found != header.size())
        throw InputError(file_line(where, line) + ": column '" + name + "' (traces '" + key + "') appears twice");
      found = i;
    }
  if (found == header.size())
    throw InputError(file_line(where, line) + ": no column '" + name + "' (traces '" + key + "') in the header");
  return found;
}

struct Columns {
  std::size_t time = 0, machine = 0, value = 0, count = 0;
};

// A machine's rows as read: times as written, and the line of its first row.
struct MachineRows {
  std::vector<double> times;
  std::vector<double> values;
  std::size_t first_line = 0;
  std::size_t last_line = 0;
};

// The rows' times from the first, the last row lasting the mean spacing of the others.
LoadSeries series_of(const std::string& machine, const std::string& where, const MachineRows& rows) {
  LoadSeries s;
  s.name = "machine '" + machine + "' of '" + where + "'";
  const double first = rows.times.front();
  for (double t : rows.times) s.times.push_back(t - first);
  s.values = rows.values;
  const auto n = static_cast<double>(rows.times.size());
  s.span = s.times.back() * n / (n - 1.0);
  return s;
}

}  // namespace

UtilizationCsv parse_utilization_csv(const std::string& text, const std::string& where, const RealTraceConfig& cfg) {
  const AvailabilityRule rule = cfg.availability.conversion;
  UtilizationCsv csv;
  csv.path = where;
  Columns col;
  bool header_read = false;
  std::map<std::string, MachineRows> rows;
  for_each_data_line(text, [&](std::size_t line, const std::string& raw, const std::string&) {
    const std::vector<std::string> f = split_fields(raw, ',');
    if (!header_read) {
      col.time = column_index(f, cfg.time_column, "time_column", where, line);
      col.machine = column_index(f, cfg.machine_column, "machine_column", where, line);
      col.value = column_index(f, cfg.value_column, "value_column", where, line);
      col.count = f.size();
      header_read = true;
      return;
    }
    if (f.size() != col.count)
      throw InputError(file_line(where, line) + ": expected " + std::to_string(col.count) +
                       " comma-separated fields (as the header), got " + std::to_string(f.size()));
    double time = 0.0, value = 0.0;
    if (!to_number(f[col.time], time))
      throw InputError(file_line(where, line) + ": time '" + f[col.time] + "' (column '" + cfg.time_column +
                       "') must be a number of seconds");
    if (!to_number(f[col.value], value))
      throw InputError(file_line(where, line) + ": value '" + f[col.value] + "' (column '" + cfg.value_column +
                       "') must be a number");
    if (const std::string why = refused_measurement(rule, value); !why.empty())
      throw InputError(file_line(where, line) + ": " + cfg.value_column + " " + f[col.value] + " " + why);
    const std::string& machine = f[col.machine];
    if (machine.empty()) throw InputError(file_line(where, line) + ": empty machine (column '" + cfg.machine_column + "')");
    auto [it, added] = rows.try_emplace(machine);
    MachineRows& m = it->second;
    if (added) {
      csv.machines.push_back(machine);
      m.first_line = line;
    } else if (!(time > m.times.back())) {
      throw InputError(file_line(where, line) + ": time " + f[col.time] + " of machine '" + machine +
                       "' does not come after its row at line " + std::to_string(m.last_line));
    }
    m.times.push_back(time);
    m.values.push_back(value);
    m.last_line = line;
  });
  if (!header_read) throw InputError("'" + where + "': no header line (expected the names of the columns)");
  if (csv.machines.empty()) throw InputError("'" + where + "': no rows under the header (an empty set)");
  // Two rows at least: a series' length comes from the spacing of its times.
  const std::size_t least = std::max<std::size_t>(cfg.samples, 2);
  for (const auto& machine : csv.machines) {
    const MachineRows& m = rows.at(machine);
    if (m.times.size() < least)
      throw InputError(file_line(where, m.first_line) + ": machine '" + machine + "' has " +
                       std::to_string(m.times.size()) + " row(s), fewer than the " + std::to_string(least) +
                       " stated (traces 'samples')");
    csv.series.push_back(series_of(machine, where, m));
  }
  return csv;
}

UtilizationCsv read_utilization_csv(const RealTraceConfig& cfg) {
  return parse_utilization_csv(read_text(cfg.file), cfg.file, cfg);
}

std::vector<HostTrace> utilization_csv_host_traces(const RealTraceConfig& cfg, std::uint64_t seed,
                                                   const std::vector<std::pair<std::string, double>>& members,
                                                   int iterations) {
  const UtilizationCsv csv = read_utilization_csv(cfg);
  const std::vector<SeriesDraw> draws = draw_series(csv.series.size(), members.size(), seed, "'" + cfg.file + "'");
  std::vector<HostTrace> traces;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const LoadSeries& series = csv.series[draws[i].series];
    const double offset = series_offset(series, cfg.availability, draws[i].offset_uniform);
    traces.push_back(
        availability_trace(series, members[i].first, members[i].second, cfg.availability, offset, iterations));
  }
  return traces;
}

}  // namespace ringsim::io
