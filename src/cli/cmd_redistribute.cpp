#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/redistribution_answer.hpp"
#include "io/json_input.hpp"
#include "io/redistribution_json.hpp"
#include "model/errors.hpp"
#include "planners/redistribution/block_budget.hpp"
#include "planners/redistribution/redistribution_planner.hpp"

namespace ringsim::cli {
namespace {

// By default a full schedule may take about half the memory available when it starts: a block
// costs 48 bytes held, about 100 bytes of JSON text, and vectors grow by doubling (300 bytes).
std::size_t default_block_budget() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream in(line);
    std::string key;
    unsigned long long kb = 0;
    if (in >> key >> kb && key == "MemAvailable:") return std::max<std::size_t>(1000000, kb * 1024 / 2 / 300);
  }
  return 0;  // unknown: no budget
}

}  // namespace

void add_redistribute_command(CLI::App* cmd) {
  std::string algos = "Algorithms (field \"algorithm\" or --algorithm):\n  auto: the strongest that applies";
  for (const auto& a : redistribution::redistribution_algorithms()) algos += "\n  " + a.name + ": " + a.description;
  cmd->footer(algos);
  auto input = std::make_shared<std::string>();
  auto planner = std::make_shared<std::string>();
  cmd->add_option("FILE", *input, "instance file, or - for standard input")->required();
  cmd->add_option("--algorithm", *planner, "overrides the instance's \"algorithm\" field");
  auto summary = std::make_shared<bool>(false);
  auto max_blocks = std::make_shared<long long>(-1);
  cmd->add_flag("--summary", *summary,
                "time, lower bound, optimality and per-link counts without the transfers (Lemmas 1-2 in closed form)");
  cmd->add_option("--max-blocks", *max_blocks,
                  "refuse (exit 2) a schedule of more transfer blocks (default: what half the available memory "
                  "holds; 0: no limit)")
      ->check(CLI::Range(0LL, 1LL << 62));
  cmd->callback([input, planner, summary, max_blocks] {
    const std::string where = *input == "-" ? "standard input" : "'" + *input + "'";
    naming_the_input(where, [&] {
      auto req = io::parse_redistribution_text(io::read_text(*input), where);
      if (!planner->empty()) req.planner = *planner;
      const redistribution::BlockBudget budget(*max_blocks < 0 ? default_block_budget() : static_cast<std::size_t>(*max_blocks));
      if (*summary) {
        const auto s = redistribution::summarize_redistribution(req.instance, req.planner);
        std::cout << io::summary_to_json_text(s.plan, s.basis) << '\n';
        return;
      }
      write_redistribution_answer(std::cout, req.instance, req.planner);
      std::cout << '\n';
    });
  });
}

}  // namespace ringsim::cli
