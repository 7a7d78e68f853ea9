// The `ringsim kpbs` input contract: times or bytes + clusters, and every error named.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "io/kpbs_json.hpp"
#include "model/errors.hpp"
#include "planners/kpbs/kpbs_planner.hpp"

using namespace ringsim;
using nlohmann::json;

namespace {

std::string error_of(const std::string& text) {
  try {
    io::parse_kpbs_request(json::parse(text));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("times with k and beta") {
  const auto req = io::parse_kpbs_request(json::parse(R"({"k": 3, "beta": 1.0, "matrix": [[1, 0], [2.5, 4]], "algorithm": "oggp"})"));
  CHECK(req.instance.k == 3);
  CHECK(req.instance.beta == 1.0);
  CHECK(req.instance.times == std::vector<std::vector<double>>{{1, 0}, {2.5, 4}});
  CHECK(req.scheduler == "oggp");
  CHECK_FALSE(req.unit_bandwidth.has_value());
}

TEST_CASE("Figure 1 and 2 of the KPBS paper: bytes and clusters give k = 4 and the time units") {
  // 10 MB/s node links, a backbone that carries four of them: k = min(4, 4, floor(40 / 10)) = 4.
  const auto req = io::parse_kpbs_request(json::parse(R"({"beta": 3,
      "bytes": [[30e6, 20e6, 0, 0], [20e6, 0, 20e6, 0], [0, 0, 40e6, 20e6], [0, 15e6, 10e6, 10e6]],
      "clusters": {"b1": 10e6, "b2": 10e6, "bb": 40e6}})"));
  CHECK(req.instance.k == 4);
  CHECK(req.instance.times[2][2] == 4);
  CHECK(req.instance.times[3][1] == 1.5);
  CHECK(req.unit_bandwidth.value() == 10e6);
  CHECK(kpbs::plan_kpbs(req.instance, "ggp").lower_bound == 16);
  // A narrower backbone or smaller clusters lower k.
  CHECK(io::parse_kpbs_request(json::parse(R"({"beta": 0, "bytes": [[1, 2]], "clusters": {"b1": 10, "b2": 20, "bb": 25}})"))
            .instance.k == 1);  // v1 = 1 row
  const auto wide = io::parse_kpbs_request(
      json::parse(R"({"beta": 0, "matrix": [[1, 2], [3, 4]], "clusters": {"b1": 10, "b2": 20, "bb": 25, "v1": 8, "v2": 9}})"));
  CHECK(wide.instance.k == 2);  // floor(25 / 10)
  CHECK(wide.instance.times[1][1] == 4);  // "matrix" holds times already
  CHECK(wide.instance.receiver_capacity == 2.0);
  CHECK(wide.instance.backbone_capacity == 2.5);
}

TEST_CASE("bad input names the problem") {
  const std::pair<const char*, const char*> cases[] = {
      {R"([1, 2])", "JSON object"},
      {R"({"beta": 1, "matrix": [[1]]})", "missing field 'k'"},
      {R"({"k": 1, "matrix": [[1]]})", "missing field 'beta'"},
      {R"({"k": 1, "beta": 1})", "missing field 'matrix'"},
      {R"({"k": 1, "beta": 1, "matrix": []})", "'matrix' is empty"},
      {R"({"k": 1, "beta": 1, "matrix": [[]]})", "matrix[0] is empty"},
      {R"({"k": 1, "beta": 1, "matrix": [[1, 2], [3]]})", "ragged"},
      {R"({"k": 1, "beta": 1, "matrix": [[1, -2]]})", "matrix[0][1] is negative"},
      {R"({"k": 1, "beta": 1, "matrix": [[1, "2"]]})", "matrix[0][1] must be a number"},
      {R"({"k": 1, "beta": 1, "matrix": [1, 2]})", "matrix[0] must be an array"},
      {R"({"k": 1, "beta": 1, "matrix": {"a": 1}})", "'matrix' must be an array"},
      {R"({"k": 0, "beta": 1, "matrix": [[1]]})", "'k' must be at least 1"},
      {R"({"k": -2, "beta": 1, "matrix": [[1]]})", "'k' must be at least 1"},
      {R"({"k": 2.5, "beta": 1, "matrix": [[1]]})", "'k' must be an integer"},
      {R"({"k": 1, "beta": -1, "matrix": [[1]]})", "'beta' must be >= 0"},
      {R"({"k": 1, "beta": "1", "matrix": [[1]]})", "'beta' must be a number"},
      {R"({"k": 1, "beta": 1, "matrix": [[1]], "colour": 1})", "unknown key 'colour'"},
      {R"({"k": 1, "beta": 1, "matrix": [[1]], "algorithm": 3})", "'algorithm' must be a string"},
      {R"({"k": 1, "beta": 1, "matrix": [[1]], "bytes": [[1]]})", "either 'matrix'"},
      {R"({"k": 1, "beta": 1, "bytes": [[1]]})", "'bytes' needs 'clusters'"},
      {R"({"k": 1, "beta": 1, "matrix": [[1]], "clusters": {"b1": 1, "b2": 1, "bb": 1}})", "either 'k' or 'clusters'"},
      {R"({"beta": 1, "bytes": [[1]], "clusters": {"b1": 1, "b2": 1}})", "missing field 'clusters.bb'"},
      {R"({"beta": 1, "bytes": [[1]], "clusters": {"b1": 0, "b2": 1, "bb": 1}})", "'clusters.b1' must be positive"},
      {R"({"beta": 1, "bytes": [[1]], "clusters": {"b1": 1, "b2": 1, "bb": 1, "speed": 1}})", "unknown key 'speed' in 'clusters'"},
      {R"({"beta": 1, "bytes": [[1], [2]], "clusters": {"b1": 1, "b2": 1, "bb": 1, "v1": 1}})", "'clusters.v1' is 1"},
      {R"({"beta": 1, "bytes": [[1]], "clusters": [1, 2]})", "'clusters' must be an object"},
  };
  for (const auto& entry : cases) {
    const auto& text = entry.first;
    const auto& fragment = entry.second;
    const std::string msg = error_of(text);
    CHECK_MESSAGE(msg.find(fragment) != std::string::npos, text << " -> '" << msg << "', expected '" << fragment << "'");
  }
}

TEST_CASE("the output has the contract's fields") {
  const auto req = io::parse_kpbs_request(json::parse(R"({"k": 2, "beta": 1, "matrix": [[1, 2], [3, 0]]})"));
  const auto out = io::kpbs_schedule_to_json(kpbs::plan_kpbs(req.instance, req.scheduler));
  CHECK(out["algorithm"] == "ggp");
  for (const char* key : {"time", "lower_bound", "steps", "kpbs_feasible"}) CHECK(out.contains(key));
  double total = 0;
  for (const auto& step : out["steps"]) {
    CHECK(step["comms"].size() <= 2);
    total += step["duration"].get<double>();
    for (const auto& c : step["comms"])
      for (const char* key : {"from", "to", "amount"}) CHECK(c.contains(key));
  }
  CHECK(total == doctest::Approx(out["time"].get<double>()));
}
