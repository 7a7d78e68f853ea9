#include <doctest/doctest.h>

#include <random>

#include <nlohmann/json.hpp>

#include "instances.hpp"
#include "io/redistribution_json.hpp"
#include "model/errors.hpp"
#include "planners/redistribution/planner.hpp"

using namespace ringsim;

TEST_CASE("the direct JSON writer produces the same document as the JSON tree") {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 300; ++trial) {
    testing::InstanceShape shape;
    shape.n = 2 + trial % 30;
    shape.bidirectional = trial % 2 == 0;
    shape.homogeneous = trial % 3 == 0;
    shape.integer_costs = trial % 4 == 0;
    const auto inst = testing::random_instance(rng, shape);
    auto plan = redistribution::plan_redistribution(inst, inst.bidirectional ? "bi-light" : "auto");
    if (trial % 5 == 0) plan.notes.push_back("a \"quoted\" note\n");
    const auto text = io::plan_to_json_text(plan);
    REQUIRE(nlohmann::json::parse(text) == io::plan_to_json(plan));
  }
}

TEST_CASE("an instance survives the JSON reader with every field") {
  const auto doc = nlohmann::json::parse(
      R"({"bidirectional": true, "loads": [5,3,8,2], "targets": [4,4,5,5],
          "cost_next": [1,1,2,1], "cost_prev": [1,1.5,1,1], "algorithm": "bi-light"})");
  const auto req = io::parse_redistribution_request(doc);
  CHECK(req.algorithm == "bi-light");
  CHECK(req.instance.bidirectional);
  CHECK(req.instance.loads == std::vector<Count>{5, 3, 8, 2});
  CHECK(req.instance.cost_prev[1] == 1.5);
  CHECK_THROWS_AS(io::parse_redistribution_request(nlohmann::json::parse(R"({"loads": [1, 2]})")), InputError);
}
