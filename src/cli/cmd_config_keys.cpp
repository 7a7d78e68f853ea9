#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "io/config_keys.hpp"

namespace ringsim::cli {

// The keys the readers accept, the same lists they refuse others with: the JSON Schema of
// docs/schema/ is compared with them (tests/docs/check_schema.py), so neither can drift.
void add_config_keys_command(CLI::App* cmd) {
  cmd->callback([] { std::cout << config_keys::all().dump(1) << '\n'; });
}

}  // namespace ringsim::cli
