#include "io/run_config_real_traces_json.hpp"

#include <nlohmann/json.hpp>

#include "io/config_keys.hpp"
#include "io/json_values.hpp"
#include "model/errors.hpp"
#include "model/real_traces.hpp"

namespace ringsim::io {
namespace {

using json_values::integer;
using json_values::number;
using json_values::text;

// planetlab 'set': a folder, or a non-empty array of files. Required.
void read_trace_set(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  if (!t.contains(key))
    throw InputError(where + ": traces source planetlab needs a 'set' (a folder of trace files, or a list of files)");
  RealTraceConfig& r = traces.real;
  const auto& set = t[key];
  const std::string what = where + ": traces 'set' must name a folder or be a non-empty array of files";
  if (set.is_string()) {
    r.folder = set.get<std::string>();
    if (r.folder.empty()) throw InputError(what);
    return;
  }
  if (!set.is_array() || set.empty()) throw InputError(what);
  for (const auto& f : set) {
    if (!f.is_string() || f.get<std::string>().empty()) throw InputError(what);
    r.files.push_back(f.get<std::string>());
  }
}

void read_sample_period(const nlohmann::json& t, const char* key, const std::string& where,
                        SpeedTracesConfig& traces) {
  if (t.contains(key)) traces.real.period = number(t, key);
  if (!(traces.real.period > 0.0)) throw InputError(where + ": traces 'period' must be > 0 (seconds per sample)");
}

// A non-empty string key of `t` (a file, a column name).
std::string named(const nlohmann::json& t, const char* key, const std::string& where) {
  std::string v = text(t, key);
  if (v.empty()) throw InputError(where + ": traces '" + key + "' must not be empty");
  return v;
}

// utilization-csv's file and its columns' names; the file and the value column are required.
template <std::string RealTraceConfig::*field>
void read_csv_name(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  if (t.contains(key)) traces.real.*field = named(t, key, where);
}

void read_machine_file(const nlohmann::json& t, const char* key, const std::string& where,
                       SpeedTracesConfig& traces) {
  if (!t.contains(key)) throw InputError(where + ": traces source utilization-csv needs a 'file' (a CSV)");
  read_csv_name<&RealTraceConfig::file>(t, key, where, traces);
}

void read_value_column(const nlohmann::json& t, const char* key, const std::string& where,
                       SpeedTracesConfig& traces) {
  if (!t.contains(key))
    throw InputError(where + ": traces source utilization-csv needs a 'value_column' (the column of the values)");
  read_csv_name<&RealTraceConfig::value_column>(t, key, where, traces);
}

// planetlab: the samples every file holds (at least 1); utilization-csv: the least rows of a
// machine (at least 2, and 2 unless given).
void read_samples(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  const bool planetlab = traces.source == TraceSource::planetlab;
  const std::size_t least = planetlab ? 1 : 2;
  if (!planetlab) traces.real.samples = 2;
  if (!t.contains(key)) return;
  const long long n = integer(t, key);
  if (n < static_cast<long long>(least))
    throw InputError(where + ": traces 'samples' must be >= " + std::to_string(least));
  traces.real.samples = static_cast<std::size_t>(n);
}

// planetlab and utilization-csv 'conversion' (planetlab: not load), which `ringsim config-keys`
// lists (real_traces_values), as it does the words below.
const config_keys::Enumerated<AvailabilityRule> conversion_values =
    config_keys::named({AvailabilityRule::dedicated, AvailabilityRule::time_sharing, AvailabilityRule::load_average},
                       config_keys::Listing::quoted_then_given);

// Required: no rule suits every trace, the config says which it means (docs/traces.md derives each).
void read_conversion(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  const std::string source = to_string(traces.source);
  if (!t.contains(key))
    throw InputError(where + ": traces source " + source + " needs a 'conversion': " +
                     config_keys::listed(conversion_values.names(), true));
  const AvailabilityRule conversion = conversion_values.read(t, key, where, "traces 'conversion'");
  if (conversion == AvailabilityRule::load_average && traces.source == TraceSource::planetlab)
    throw InputError(where + ": traces 'conversion' \"load\" reads load averages; PlanetLab files hold utilizations "
                     "(\"dedicated\" or \"time-sharing\")");
  traces.real.availability.conversion = conversion;
}

void read_floor(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  AvailabilitySpec& a = traces.real.availability;
  if (t.contains(key)) a.floor = number(t, key);
  if (!(a.floor > 0.0 && a.floor <= 1.0))
    throw InputError(where + ": traces 'floor' must be in (0, 1] (the least share of the peak; 0 would stall the "
                     "host)");
  check_multiplier(a.floor, where + ": traces 'floor'");
}

// The strings 'time_scale' accepts besides a number.
const config_keys::Keys time_scale_words = {"span"};

// The series' time maps to the run by 'time_scale' or by 'per_iteration': exactly one is given. No
// one scale suits every run: a day of samples over a run of seconds needs thousands.
void read_time_scale(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  if (t.contains("per_iteration")) {
    if (t.contains(key))
      throw InputError(where + ": traces 'per_iteration' and 'time_scale' both map the series' time to the run: "
                       "give one");
    return;
  }
  if (!t.contains(key))
    throw InputError(where + ": traces source " + to_string(traces.source) + " needs a 'time_scale' (seconds of trace "
                     "per simulated second, or \"span\": the series' span over the run's iterations) or a "
                     "'per_iteration' (seconds of trace per iteration)");
  AvailabilitySpec& a = traces.real.availability;
  const auto& ts = t[key];
  if (ts.is_string() && config_keys::accepts(time_scale_words, ts.get<std::string>())) {
    a.over_iterations = true;
  } else if (ts.is_number()) {
    a.time_scale = number(t, key);
    if (!(a.time_scale > 0.0))
      throw InputError(where + ": traces 'time_scale' must be > 0 (seconds of trace per simulated second)");
  } else {
    throw InputError(where + ": traces 'time_scale' must be a number > 0 or \"span\"");
  }
}

void read_per_iteration(const nlohmann::json& t, const char* key, const std::string& where,
                        SpeedTracesConfig& traces) {
  if (!t.contains(key)) return;
  AvailabilitySpec& a = traces.real.availability;
  a.per_iteration = number(t, key);
  if (!(a.per_iteration > 0.0))
    throw InputError(where + ": traces 'per_iteration' must be > 0 (seconds of the series each iteration covers)");
  a.over_iterations = true;
}

// The strings 'offset' accepts besides a number.
const config_keys::Keys offset_words = {"random"};

void read_offset(const nlohmann::json& t, const char* key, const std::string& where, SpeedTracesConfig& traces) {
  if (!t.contains(key)) return;
  AvailabilitySpec& a = traces.real.availability;
  const auto& o = t[key];
  if (o.is_string() && config_keys::accepts(offset_words, o.get<std::string>())) {
    a.random_offset = true;
  } else if (o.is_number()) {
    a.offset = number(t, key);
    if (!(a.offset >= 0.0))
      throw InputError(where + ": traces 'offset' must be >= 0 (seconds since the series' start)");
  } else {
    throw InputError(where + ": traces 'offset' must be a number of seconds >= 0 or \"random\"");
  }
}

void write_trace_set(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  if (traces.real.folder.empty()) out[key] = traces.real.files;
  else out[key] = traces.real.folder;
}

template <auto field>
void write_real_value(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  out[key] = traces.real.*field;
}

void write_conversion(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  out[key] = to_string(traces.real.availability.conversion);
}

template <auto field>
void write_availability_value(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  out[key] = traces.real.availability.*field;
}

// The clock as read: per_iteration when given, else time_scale, "span" or a number.
void write_time_scale(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  const AvailabilitySpec& a = traces.real.availability;
  if (a.per_iteration > 0.0) return;
  if (a.over_iterations) out[key] = "span";
  else out[key] = a.time_scale;
}

void write_per_iteration(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  if (traces.real.availability.per_iteration > 0.0) out[key] = traces.real.availability.per_iteration;
}

void write_offset(const SpeedTracesConfig& traces, const char* key, nlohmann::json& out) {
  if (traces.real.availability.random_offset) out[key] = "random";
  else out[key] = traces.real.availability.offset;
}

// The keys both sources have, after their own: how a value becomes a share of the peak, and the clock.
const std::vector<TracesKey>& availability_keys() {
  static const std::vector<TracesKey> keys = {
      {"samples", TracesStage::own, read_samples, write_real_value<&RealTraceConfig::samples>,
       "planetlab: the samples every file holds; utilization-csv: the least rows of a machine"},
      {"conversion", TracesStage::own, read_conversion, write_conversion,
       "dedicated, time-sharing or load: a value to a share"},
      {"floor", TracesStage::own, read_floor, write_availability_value<&AvailabilitySpec::floor>,
       "the least share of the peak"},
      {"time_scale", TracesStage::own, read_time_scale, write_time_scale,
       "trace seconds per simulated second, or \"span\": the series over the run's iterations"},
      {"per_iteration", TracesStage::own, read_per_iteration, write_per_iteration,
       "trace seconds each iteration covers"},
      {"offset", TracesStage::own, read_offset, write_offset, "where each series starts, trace seconds, or \"random\""},
  };
  return keys;
}

std::vector<TracesKey> followed_by_availability(std::vector<TracesKey> keys) {
  keys.insert(keys.end(), availability_keys().begin(), availability_keys().end());
  return keys;
}

}  // namespace

nlohmann::json real_traces_values() {
  return {{"traces.conversion", conversion_values.names()},
          {"traces.time_scale", time_scale_words},
          {"traces.offset", offset_words}};
}

const std::vector<TracesKey>& planetlab_own_keys() {
  static const std::vector<TracesKey> keys = followed_by_availability({
      // A folder or a list of files, two forms the canonical JSON keeps apart: held as
      // RealTraceConfig::folder or ::files (the other empty), a folder's files listed when the set is read.
      {"set", TracesStage::own, read_trace_set, write_trace_set, "a folder of trace files, or a list of files"},
      {"period", TracesStage::own, read_sample_period, write_real_value<&RealTraceConfig::period>,
       "seconds per sample"},
  });
  return keys;
}

const std::vector<TracesKey>& utilization_csv_own_keys() {
  static const std::vector<TracesKey> keys = followed_by_availability({
      {"file", TracesStage::own, read_machine_file, write_real_value<&RealTraceConfig::file>,
       "the CSV of machines by time"},
      {"time_column", TracesStage::own, read_csv_name<&RealTraceConfig::time_column>,
       write_real_value<&RealTraceConfig::time_column>,
       "header name of the time"},
      {"machine_column", TracesStage::own, read_csv_name<&RealTraceConfig::machine_column>,
       write_real_value<&RealTraceConfig::machine_column>,
       "header name of the machine"},
      {"value_column", TracesStage::own, read_value_column, write_real_value<&RealTraceConfig::value_column>,
       "header name of the utilization (percent) or load average"},
  });
  return keys;
}

}  // namespace ringsim::io
