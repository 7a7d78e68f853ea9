#include "io/config_keys.hpp"

#include <nlohmann/json.hpp>

#include "io/json_values.hpp"
#include "io/moves_config_json.hpp"
#include "io/ring_config_json.hpp"
#include "io/run_config_json.hpp"
#include "io/run_config_traces_json.hpp"
#include "model/errors.hpp"

namespace ringsim::io::config_keys {

const Enumerated<RingSelection> ring_selection =
    named({RingSelection::random, RingSelection::hosts, RingSelection::planner});
const Enumerated<RingRouting> ring_routing = named({RingRouting::automatic, RingRouting::free, RingRouting::platform});
const Enumerated<TargetMode> targets = named({TargetMode::oracle, TargetMode::measured}, Listing::quoted);
const Enumerated<NetworkModel> network_model = named({NetworkModel::linear, NetworkModel::lv08}, Listing::quoted);
const Enumerated<TraceSource> trace_sources =
    named({TraceSource::measured, TraceSource::factor, TraceSource::files, TraceSource::platform,
           TraceSource::random_walk, TraceSource::on_off, TraceSource::daily, TraceSource::fta, TraceSource::planetlab,
           TraceSource::utilization_csv});

bool accepts(const Keys& values, const std::string& value) {
  for (const auto& v : values)
    if (v == value) return true;
  return false;
}

std::string listed(const Keys& values, bool quoted) {
  std::string s;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) s += i + 1 == values.size() ? " or " : ", ";
    s += quoted ? "\"" + values[i] + "\"" : values[i];
  }
  return s;
}

std::size_t value_index(const nlohmann::json& doc, const char* key, const Keys& names, Listing listing,
                        const std::string& where, const std::string& what) {
  const std::string given = json_values::text(doc, key);
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == given) return i;
  const bool quoted = listing == Listing::quoted || listing == Listing::quoted_then_given;
  const bool then_given = listing == Listing::plain_then_given || listing == Listing::quoted_then_given;
  throw InputError(where + ": " + what + " must be " + listed(names, quoted) +
                   (then_given ? ", got '" + given + "'" : ""));
}

nlohmann::json reader_values() {
  nlohmann::json values = {{"ring.selection", ring_selection.names()},
                            {"ring.routing", ring_routing.names()},
                            {"targets", targets.names()},
                            {"network_model", network_model.names()},
                            {"traces.source", trace_sources.names()}};
  values.update(traces_values());
  return values;
}

nlohmann::json run_config_objects() {
  nlohmann::json out = {{"", run_config_key_names()},
                        {"ring", key_names(ring_keys())},
                        {"staging", key_names(staging_keys())},
                        {"rebuild[]", key_names(rebuild_keys())}};
  for (const auto& [name, source] : trace_sources.values) out["traces/" + name] = key_names(traces_keys(source));
  return out;
}

}  // namespace ringsim::io::config_keys
