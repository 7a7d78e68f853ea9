#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "io/config_keys.hpp"
#include "planners/kpbs/kpbs_planner.hpp"
#include "planners/redistribution/redistribution_planner.hpp"
#include "planners/ring/ring_planner.hpp"
#include "policy/registry.hpp"
#include "sweep/experiment_keys.hpp"

namespace ringsim::cli {

namespace {

std::vector<std::string> names_of(const std::vector<NamedInfo>& entries, std::vector<std::string> first = {}) {
  for (const auto& e : entries) first.push_back(e.name);
  return first;
}

// The accepted values of every enumerated key, each from where the code defines it: the
// registries (schemes.def, the planners' tables) and the readers' own lists (io/config_keys.hpp, and
// the traces keys' beside them: io/run_config_traces_json.hpp).
nlohmann::json enumerated_values() {
  nlohmann::json v = io::config_keys::reader_values();
  v["scheme"] = policy::scheme_syntax_list();  // syntaxes: every-K, after:a,b,.., adaptive-gather-K
  v["algorithm"] = names_of(redistribution::redistribution_algorithms(), {"auto"});
  v["ring.method"] = names_of(ring::ring_methods());
  v["staging.algorithm"] = names_of(kpbs::kpbs_algorithms());
  v["rebuild[].algorithm"] = names_of(kpbs::kpbs_algorithms());
  return v;
}

}  // namespace

// The keys the readers accept, the same lists they refuse others with: a run config's objects from
// their tables in io/ (io::config_keys::run_config_objects), an experiment's from its tables in the
// sweep layer (sweep/experiment_keys.hpp), which io/ does not see. Under "values", the values of
// every enumerated key. The JSON Schema of docs/schema/ is compared with both
// (tests/docs/check_schema.py), so neither can drift.
void add_config_keys_command(CLI::App* cmd) {
  cmd->callback([] {
    nlohmann::json out = {{"run_config", io::config_keys::run_config_objects()},
                          {"experiment",
                           {{"", io::key_names(sweep::experiment_keys())},
                            {"quick", io::key_names(sweep::experiment_quick_keys())}}}};
    out["values"] = enumerated_values();
    std::cout << out.dump(1) << '\n';
  });
}

}  // namespace ringsim::cli
