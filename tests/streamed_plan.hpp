// A schedule streamed by stream_redistribution, caught as `redistribute` writes it: its JSON text
// (the head first, then each block as it is handed out) and the blocks themselves.
#pragma once

#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/redistribution_json.hpp"
#include "planners/redistribution/redistribution_planner.hpp"

namespace ringsim::testing {

struct StreamedPlan {
  bool streamed = false;  // false: the algorithm does not stream, and nothing was handed out
  std::string text;
  std::vector<Transfer> blocks;
};

inline StreamedPlan stream_plan(const RingInstance& inst, const std::string& planner,
                                std::size_t hold_limit = redistribution::kHeldBlocksLimit) {
  StreamedPlan out;
  std::ostringstream text;
  std::unique_ptr<io::PlanJsonWriter> writer;
  out.streamed = redistribution::stream_redistribution(
      inst, planner, [&](const RedistributionPlan& head) { writer = std::make_unique<io::PlanJsonWriter>(text, head); },
      [&](const Transfer& t) {
        if (writer == nullptr) throw std::logic_error("a block was handed out before the head");
        writer->transfer(t);
        out.blocks.push_back(t);
      },
      hold_limit);
  if (writer != nullptr) writer->finish();
  if (!out.streamed && writer != nullptr) throw std::logic_error("a head was handed out by an algorithm that does not stream");
  out.text = text.str();
  return out;
}

}  // namespace ringsim::testing
