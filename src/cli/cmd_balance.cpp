#include <iostream>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "planners/redistribution/load_balance.hpp"

namespace ringsim::cli {

void add_balance_command(CLI::App* cmd) {
  auto speeds = std::make_shared<std::vector<double>>();
  auto total = std::make_shared<Count>(0);
  cmd->add_option("--speeds", *speeds, "processor speeds, in ring order")->required()->delimiter(',');
  cmd->add_option("--total", *total, "number of columns to distribute")->required();
  cmd->callback([speeds, total] {
    const auto loads = redistribution::balanced_targets(*speeds, *total);
    std::cout << nlohmann::json{{"targets", loads}}.dump() << '\n';
  });
}

}  // namespace ringsim::cli
