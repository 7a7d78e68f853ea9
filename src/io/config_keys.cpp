#include "io/config_keys.hpp"

#include <nlohmann/json.hpp>

#include "io/moves_config_json.hpp"
#include "io/ring_config_json.hpp"
#include "io/run_config_json.hpp"
#include "io/run_config_traces_json.hpp"

namespace ringsim::io::config_keys {

const Keys ring_selection = {"random", "hosts", "planner"};
const Keys ring_routing = {"auto", "free", "platform"};
const Keys targets = {"oracle", "measured"};
const Keys network_model = {"linear", "lv08"};
const Keys trace_sources = {"measured", "factor", "files", "platform", "random-walk", "on-off", "daily", "fta",
                              "planetlab", "utilization-csv"};

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

nlohmann::json reader_values() {
  nlohmann::json values = {{"ring.selection", ring_selection},
                            {"ring.routing", ring_routing},
                            {"targets", targets},
                            {"network_model", network_model},
                            {"traces.source", trace_sources}};
  values.update(traces_values());
  return values;
}

nlohmann::json run_config_objects() {
  nlohmann::json out = {{"", run_config_key_names()},
                        {"ring", key_names(ring_keys())},
                        {"staging", key_names(staging_keys())},
                        {"rebuild[]", key_names(rebuild_keys())}};
  for (const auto& source : trace_sources) out["traces/" + source] = key_names(*traces_keys(source));
  return out;
}

}  // namespace ringsim::io::config_keys
