// The run config's key tables (src/io/run_config_json.hpp, src/io/ring_config_json.hpp,
// src/io/moves_config_json.hpp, src/io/run_config_traces_json.hpp) and the experiment's
// (src/sweep/experiment_keys.hpp): each key declared once, with a line of help, and the manual's
// tables (docs/configs.md#top-level, docs/configs.md#ring, docs/configs.md#staging,
// docs/configs.md#rebuild, docs/configs.md#traces, docs/configs.md#experiments-ringsim-run) listing
// the same keys in the same order; a config giving only the required key reads back as the defaults.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/config_keys.hpp"
#include "io/moves_config_json.hpp"
#include "io/ring_config_json.hpp"
#include "io/run_config_json.hpp"
#include "io/run_config_traces_json.hpp"
#include "sweep/experiment_keys.hpp"

using namespace ringsim;

namespace {

// The names in backquotes in `text`, in order.
std::vector<std::string> quoted_names(const std::string& text) {
  std::vector<std::string> names;
  for (auto open = text.find('`'); open != std::string::npos; open = text.find('`', open)) {
    const auto close = text.find('`', open + 1);
    REQUIRE(close != std::string::npos);
    names.push_back(text.substr(open + 1, close - open - 1));
    open = close + 1;
  }
  return names;
}

// The cells of each row of the manual's table under `heading` whose first cell names keys.
std::vector<std::vector<std::string>> manual_rows(const std::string& heading) {
  std::ifstream in(std::string(RINGSIM_TEST_DATA_DIR) + "/../../docs/configs.md");
  REQUIRE(in);
  std::vector<std::vector<std::string>> rows;
  bool in_section = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0 || line.rfind("### ", 0) == 0) in_section = line == heading;
    if (!in_section || line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::istringstream row(line.substr(1));
    for (std::string cell; std::getline(row, cell, '|');) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

// The first column of the manual's table under `heading`: a key per row, or several (`k`, `beta`).
std::vector<std::string> manual_keys(const std::string& heading) {
  std::vector<std::string> keys;
  for (const auto& row : manual_rows(heading))
    for (const auto& name : quoted_names(row.at(0))) keys.push_back(name);
  return keys;
}

// Each key of a table once, with a line of help, a reader and, for an object written back, a writer.
template <class Key>
void check_help(const std::vector<Key>& keys, bool written_back = true) {
  std::vector<std::string> names = io::key_names(keys);
  std::sort(names.begin(), names.end());
  CHECK(std::adjacent_find(names.begin(), names.end()) == names.end());
  for (const Key& k : keys) {
    CAPTURE(k.name);
    CHECK(std::string(k.help).size() > 0);
    CHECK(std::string(k.help).find('\n') == std::string::npos);
    CHECK(static_cast<bool>(k.read));
    CHECK(static_cast<bool>(k.write) == written_back);
  }
}

}  // namespace

TEST_CASE("run config keys: each declared once with its help, and the manual lists the same in the same order") {
  check_help(io::run_config_keys());
  const std::vector<std::string> names = io::key_names(io::run_config_keys());
  CHECK(names == io::run_config_key_names());
  CHECK(manual_keys("### Top level") == names);
}

TEST_CASE("ring keys: each declared once with its help, and the manual lists the same in the same order") {
  check_help(io::ring_keys());
  CHECK(manual_keys("### `ring`") == io::key_names(io::ring_keys()));
}

TEST_CASE("staging and rebuild keys: each declared once with its help, and the manual lists the same in order") {
  check_help(io::staging_keys());
  check_help(io::rebuild_keys());
  CHECK(manual_keys("### `staging`") == io::key_names(io::staging_keys()));
  CHECK(manual_keys("### `rebuild`") == io::key_names(io::rebuild_keys()));
}

// The manual's table has a row per source, or per sources sharing their keys, listing the keys (a
// note in parentheses after them aside); every source has a row, and no source two.
TEST_CASE("traces keys: each source's table has its help, and the manual lists the same keys in order") {
  std::vector<std::string> sources;
  for (const auto& row : manual_rows("### `traces`")) {
    REQUIRE(row.size() >= 2);
    const std::string listed = row[1].substr(0, row[1].find(" ("));
    for (const auto& source : quoted_names(row[0])) {
      CAPTURE(source);
      sources.push_back(source);
      const TraceSource* named = io::config_keys::trace_sources.find(source);
      REQUIRE(named != nullptr);
      const auto& keys = io::traces_keys(*named);
      check_help(keys);
      CHECK(quoted_names(listed) == io::key_names(keys));
    }
  }
  std::sort(sources.begin(), sources.end());
  std::vector<std::string> declared = io::config_keys::trace_sources.names();
  std::sort(declared.begin(), declared.end());
  CHECK(sources == declared);
}

// An experiment is not written back (sweep/experiment_keys.hpp). The manual's row of `quick` names
// the keys of `quick` in its meaning, after what overrides them ("what `ringsim run --quick`
// overrides: any of ..."), in their table's order.
TEST_CASE("experiment keys: each declared once with its help, and the manual lists the same in the same order") {
  check_help(sweep::experiment_keys(), false);
  check_help(sweep::experiment_quick_keys(), false);
  std::vector<std::string> keys;
  std::vector<std::string> quick_keys;
  for (const auto& row : manual_rows("## Experiments (`ringsim run`)")) {
    const auto names = quoted_names(row.at(0));
    keys.insert(keys.end(), names.begin(), names.end());
    if (names == std::vector<std::string>{"quick"}) quick_keys = quoted_names(row.at(4).substr(row.at(4).find(':')));
  }
  CHECK(keys == io::key_names(sweep::experiment_keys()));
  CHECK(quick_keys == io::key_names(sweep::experiment_quick_keys()));
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
