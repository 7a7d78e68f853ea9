#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "io/json_input.hpp"
#include "io/redistribution_json.hpp"
#include "planners/redistribution/planner.hpp"

namespace ringsim::cli {

void add_redistribute_command(CLI::App& app) {
  std::string algos = "Algorithms (field \"algorithm\" or --algorithm):\n  auto: the strongest that applies";
  for (const auto& a : redistribution_algorithms()) algos += "\n  " + a.name + ": " + a.description;
  auto* cmd = app.add_subcommand("redistribute", "Plan a data redistribution on a processor ring (JSON in, JSON out)");
  cmd->footer(algos);
  auto input = std::make_shared<std::string>();
  auto algorithm = std::make_shared<std::string>();
  cmd->add_option("FILE", *input, "instance file, or - for standard input")->required();
  cmd->add_option("--algorithm", *algorithm, "overrides the instance's \"algorithm\" field");
  cmd->callback([input, algorithm] {
    auto req = io::parse_redistribution_text(io::read_text(*input),
                                             *input == "-" ? "standard input" : "'" + *input + "'");
    if (!algorithm->empty()) req.algorithm = *algorithm;
    const auto plan = plan_redistribution(req.instance, req.algorithm);
    std::cout << io::plan_to_json_text(plan) << '\n';
  });
}

}  // namespace ringsim::cli
