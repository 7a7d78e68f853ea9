// JSON form of ring redistribution instances and plans (the `ringsim redistribute` contract of
// DESIGN.md).
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/redistribution.hpp"

namespace ringsim::io {

struct RedistributionRequest {
  RingInstance instance;
  std::string algorithm = "auto";
};

// Throws InputError naming the problem: missing fields, wrong types, non-integer counts, and
// everything validate() rejects.
RedistributionRequest parse_redistribution_request(const nlohmann::json& doc);

nlohmann::json plan_to_json(const RedistributionPlan& plan);

}  // namespace ringsim::io
