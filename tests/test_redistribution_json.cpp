// Redistribution plans and instances as JSON (src/io/redistribution_json.hpp): the direct writer
// against the JSON tree, a large plan written in pieces, and an instance read back whole.
#include <doctest/doctest.h>

#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "instances.hpp"
#include "io/redistribution_json.hpp"
#include "model/errors.hpp"
#include "planners/redistribution/redistribution_planner.hpp"

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

namespace {

// Counts the writes a stream receives: each piece the plan writer hands out is one.
struct CountingBuffer : std::stringbuf {
  int writes = 0;
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    ++writes;
    return std::stringbuf::xsputn(s, n);
  }
};

}  // namespace

TEST_CASE("a plan's text over a megabyte is written in pieces, which make the plan's document") {
  // 40000 blocks of about 90 characters: more than three pieces of about 1 MB.
  RedistributionPlan plan;
  plan.planner = "bi-light";
  plan.send_next = {3, 0};
  plan.send_prev = {0, 1};
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> time(0.0, 1e4);
  for (int k = 0; k < 40000; ++k) {
    const double start = time(rng);
    Transfer t;
    t.from = static_cast<std::size_t>(k % 7);
    t.to = static_cast<std::size_t>((k + 1) % 7);
    t.dir = k % 2 == 0 ? Direction::next : Direction::prev;
    t.items = 1 + k % 5;
    t.start = start;
    t.end = start + 1.5;
    t.period = k % 3 == 0 ? 0.25 : 0.0;
    plan.transfers.push_back(t);
  }
  plan.time = 1e4 + 1.5;
  CountingBuffer buffer;
  std::ostream os(&buffer);
  io::write_plan_json(os, plan);
  const std::string text = buffer.str();
  REQUIRE(text.size() > 3 * (std::size_t{1} << 20));
  CHECK(buffer.writes >= 4);  // three full pieces, then the rest
  CHECK(nlohmann::json::parse(text) == io::plan_to_json(plan));
}

TEST_CASE("an instance survives the JSON reader with every field") {
  const auto doc = nlohmann::json::parse(
      R"({"bidirectional": true, "loads": [5,3,8,2], "targets": [4,4,5,5],
          "cost_next": [1,1,2,1], "cost_prev": [1,1.5,1,1], "algorithm": "bi-light"})");
  const auto req = io::parse_redistribution_request(doc);
  CHECK(req.planner == "bi-light");
  CHECK(req.instance.bidirectional);
  CHECK(req.instance.loads == std::vector<Count>{5, 3, 8, 2});
  CHECK(req.instance.cost_prev[1] == 1.5);
  CHECK_THROWS_AS(io::parse_redistribution_request(nlohmann::json::parse(R"({"loads": [1, 2]})")), InputError);
}
