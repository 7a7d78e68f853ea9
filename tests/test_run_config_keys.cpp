// The run config's key tables (src/io/run_config_json.hpp, src/io/ring_config_json.hpp): each key
// declared once, with a line of help, and the manual's tables (docs/configs.md#top-level,
// docs/configs.md#ring) listing the same keys in the same order; a config giving only the required
// key reads back as the defaults.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/ring_config_json.hpp"
#include "io/run_config_json.hpp"

using namespace ringsim;

namespace {

// The first column of each row of the manual's table under `heading`: `key`.
std::vector<std::string> manual_keys(const std::string& heading) {
  std::ifstream in(std::string(RINGSIM_TEST_DATA_DIR) + "/../../docs/configs.md");
  REQUIRE(in);
  std::vector<std::string> keys;
  bool in_section = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("### ", 0) == 0) in_section = line == heading;
    if (!in_section || line.rfind("| `", 0) != 0) continue;
    const auto end = line.find('`', 3);
    keys.push_back(line.substr(3, end - 3));
  }
  return keys;
}

}  // namespace

TEST_CASE("run config keys: each declared once with its help, and the manual lists the same in the same order") {
  std::vector<std::string> names;
  for (const io::RunConfigKey& k : io::run_config_keys()) {
    CAPTURE(k.name);
    CHECK(std::string(k.help).size() > 0);
    CHECK(std::string(k.help).find('\n') == std::string::npos);
    CHECK(static_cast<bool>(k.read));
    CHECK(static_cast<bool>(k.write));
    names.emplace_back(k.name);
  }
  CHECK(names == io::run_config_key_names());
  CHECK(manual_keys("### Top level") == names);
}

TEST_CASE("ring keys: each declared once with its help, and the manual lists the same in the same order") {
  for (const io::RingKey& k : io::ring_keys()) {
    CAPTURE(k.name);
    CHECK(std::string(k.help).size() > 0);
    CHECK(std::string(k.help).find('\n') == std::string::npos);
  }
  CHECK(manual_keys("### `ring`") == io::key_names(io::ring_keys()));
}

TEST_CASE("run config keys: a config with only the required ratio reads as RunConfig's defaults") {
  RunConfig defaults;
  defaults.ratio = 2;
  const RunConfig read = io::parse_run_config(nlohmann::json{{"ratio", 2}}, "cfg");
  CHECK(io::run_config_to_json(read) == io::run_config_to_json(defaults));
  // Every key the canonical form always holds is written; those written only when used are not.
  const nlohmann::json canonical = io::run_config_to_json(defaults);
  for (const char* used_only : {"staging", "rebuild", "simgrid", "simgrid_log", "reference_check"})
    CHECK(!canonical.contains(used_only));
  CHECK(canonical.size() + 5 == io::run_config_keys().size());
}
