#include "io/planetlab_traces.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "io/json_input.hpp"
#include "io/text_fields.hpp"
#include "model/errors.hpp"

namespace ringsim::io {
namespace {

std::vector<std::string> files_in_folder(const std::string& folder) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::is_directory(folder, error)) throw InputError("trace set '" + folder + "' is not a folder");
  std::vector<std::string> files;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    std::error_code kind;
    if (name.empty() || name[0] == '.' || !fs::is_regular_file(it->path(), kind)) continue;
    files.push_back(it->path().string());
  }
  if (error) throw InputError("cannot read trace set '" + folder + "': " + error.message());
  std::sort(files.begin(), files.end());
  return files;
}

std::string set_name(const RealTraceConfig& cfg) {
  return cfg.folder.empty() ? "traces 'set' (" + std::to_string(cfg.files.size()) + " files)" : "'" + cfg.folder + "'";
}

}  // namespace

std::vector<std::string> planetlab_set_files(const RealTraceConfig& cfg) {
  std::vector<std::string> files = cfg.folder.empty() ? cfg.files : files_in_folder(cfg.folder);
  if (files.empty()) throw InputError("trace set " + set_name(cfg) + " holds no file (an empty set)");
  return files;
}

LoadSeries parse_planetlab_series(const std::string& text, const std::string& where, double period,
                                  std::size_t samples) {
  LoadSeries s;
  s.name = "'" + where + "'";
  for_each_data_line(text, [&](std::size_t line, const std::string&, const std::string& field) {
    if (s.values.size() == samples)
      throw InputError(file_line(where, line) + ": more samples than the " + std::to_string(samples) +
                       " stated (traces 'samples')");
    double u = 0.0;
    if (!to_number(field, u))
      throw InputError(file_line(where, line) + ": a CPU utilization (percent) must be a number, got '" + field + "'");
    if (const std::string why = refused_measurement(AvailabilityRule::dedicated, u); !why.empty())
      throw InputError(file_line(where, line) + ": utilization " + field + " " + why);
    s.times.push_back(static_cast<double>(s.values.size()) * period);
    s.values.push_back(u);
  });
  if (s.values.size() < samples)
    throw InputError("'" + where + "': " + std::to_string(s.values.size()) + " samples, fewer than the " +
                     std::to_string(samples) + " stated (traces 'samples')");
  s.span = static_cast<double>(samples) * period;
  return s;
}

LoadSeries read_planetlab_series(const std::string& path, double period, std::size_t samples) {
  return parse_planetlab_series(read_text(path), path, period, samples);
}

void check_planetlab_set(const RealTraceConfig& cfg) {
  for (const auto& file : planetlab_set_files(cfg)) read_planetlab_series(file, cfg.period, cfg.samples);
}

std::vector<HostTrace> planetlab_host_traces(const RealTraceConfig& cfg, std::uint64_t seed,
                                             const std::vector<std::pair<std::string, double>>& members,
                                             int iterations) {
  const std::vector<std::string> files = planetlab_set_files(cfg);
  const std::vector<SeriesDraw> draws = draw_series(files.size(), members.size(), seed, set_name(cfg));
  std::vector<HostTrace> traces;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const LoadSeries series = read_planetlab_series(files[draws[i].series], cfg.period, cfg.samples);
    const double offset = series_offset(series, cfg.availability, draws[i].offset_uniform);
    traces.push_back(
        availability_trace(series, members[i].first, members[i].second, cfg.availability, offset, iterations));
  }
  return traces;
}

}  // namespace ringsim::io
