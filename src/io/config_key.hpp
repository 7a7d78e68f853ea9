// One key of a config object, declared once in its object's table (the run config's top level:
// io/run_config_json.hpp; its ring: io/ring_config_json.hpp; its staging and rebuilds:
// io/moves_config_json.hpp; its traces, source by source: io/run_config_traces_json.hpp; an
// experiment and its `quick`: sweep/experiment_keys.hpp): its JSON name, which is its field's name;
// when it is read; how it is read and checked, and written back; and a line of help. The table drives the reader, its refusal of any other key, the canonical JSON
// and `ringsim config-keys`, whose lists the JSON Schema test holds the schema to
// (tests/docs/check_schema.py).
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ringsim::io {

// A key is read into `Reading`: the object itself, or what holds it with what its defaults and
// checks take from around it (a rebuild is read as the last entry of its run config's list, whose
// ring and matrix it uses).
template <class Object, class Stage, class Reading = Object>
struct ConfigKey {
  // Reads doc[key] into its field and checks it. Called whether or not the config gives the key: a
  // key the config does not give keeps its field's default (the struct's initializer), or is
  // refused where it is required, and a check across keys runs with the last key it reads.
  using Read = void (*)(const nlohmann::json& doc, const char* key, const std::string& where, Reading& into);
  // Adds the key to the object's canonical JSON, or leaves it out where the canonical form omits it.
  using Write = void (*)(const Object& from, const char* key, nlohmann::json& out);
  const char* name;
  // Keys are read stage by stage, each stage's in the table's order: a key's checks use the keys of
  // the stages before it, and of several mistakes the same one is reported first.
  Stage stage;
  Read read;
  Write write;
  const char* help;  // one line; docs/configs.md says more
};

template <class Object, class Stage, class Reading>
std::vector<std::string> key_names(const std::vector<ConfigKey<Object, Stage, Reading>>& keys) {
  std::vector<std::string> names;
  for (const auto& k : keys) names.emplace_back(k.name);
  return names;
}

template <class Object, class Stage, class Reading>
void read_keys(const std::vector<ConfigKey<Object, Stage, Reading>>& keys, std::initializer_list<Stage> stages,
               const nlohmann::json& doc, const std::string& where, Reading& into) {
  for (const Stage stage : stages)
    for (const auto& k : keys)
      if (k.stage == stage) k.read(doc, k.name, where, into);
}

template <class Object, class Stage, class Reading>
void write_keys(const std::vector<ConfigKey<Object, Stage, Reading>>& keys, const Object& from, nlohmann::json& out) {
  for (const auto& k : keys) k.write(from, k.name, out);
}

}  // namespace ringsim::io
