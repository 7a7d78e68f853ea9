#include "cli/redistribution_answer.hpp"

#include <memory>
#include <ostream>

#include "io/redistribution_json.hpp"
#include "planners/redistribution/redistribution_planner.hpp"

namespace ringsim::cli {

std::size_t write_redistribution_answer(std::ostream& os, const RingInstance& inst, const std::string& planner) {
  std::unique_ptr<io::PlanJsonWriter> writer;
  std::size_t blocks = 0;
  const bool streamed = redistribution::stream_redistribution(
      inst, planner, [&](const RedistributionPlan& head) { writer = std::make_unique<io::PlanJsonWriter>(os, head); },
      [&](const Transfer& t) {
        writer->transfer(t);
        ++blocks;
      });
  if (streamed) {
    writer->finish();
    return blocks;
  }
  const RedistributionPlan plan = redistribution::plan_redistribution(inst, planner);
  io::write_plan_json(os, plan);
  return plan.transfers.size();
}

}  // namespace ringsim::cli
