// Run configs (src/model/run_config.hpp, src/io/run_config_json.hpp): defaults, canonical form,
// rejected values and integers checked at full width; the seeded speed traces of a config read
// back at iterations and times; sweeps' seeds and hashes (src/sweep/experiment.hpp) stable.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "sweep/experiment.hpp"
#include "model/run_config.hpp"
#include "io/run_config_json.hpp"
#include "model/errors.hpp"
#include "model/speed_traces.hpp"

using namespace ringsim;

TEST_CASE("run configs: defaults, canonical form, and rejected values") {
  const auto cfg = io::parse_run_config(nlohmann::json::parse(R"({"platform": "p.xml", "ratio": 2})"), "cfg");
  CHECK(cfg.iterations == 100);
  CHECK(cfg.columns == 1000);
  CHECK(cfg.network_model == NetworkModel::linear);
  CHECK(io::parse_run_config(nlohmann::json::parse(R"({"ratio": 1})"), "cfg").platform == "platforms/paper2004_tiers90.xml");
  // The canonical form parses back to itself.
  const auto again = io::parse_run_config(io::run_config_to_json(cfg), "cfg");
  CHECK(io::run_config_to_json(again) == io::run_config_to_json(cfg));
  for (const char* bad : {R"({"platform": "p.xml", "ratio": 0})", R"({"platform": "p.xml", "ratio": -1})",
                          R"({"platform": "p.xml"})", R"({"platform": "p.xml", "ratio": 1, "x": 1})",
                          R"({"platform": "p.xml", "ratio": 1, "targets": "guess"})",
                          R"({"platform": "p.xml", "ratio": 1, "ring": {"size": 0}})",
                          R"({"platform": "p.xml", "ratio": 1, "columns": 4, "ring": {"size": 8}})",
                          R"({"platform": 3, "ratio": 1})"})
    CHECK_THROWS_AS(io::parse_run_config(nlohmann::json::parse(bad), "cfg"), InputError);
}

TEST_CASE("speed traces: one change per window, deterministic, read back at iterations and times") {
  TraceSpec spec;
  spec.seed = 5;
  spec.speed_list = {20e6, 50e6, 100e6};
  const std::vector<std::pair<std::string, double>> hosts = {{"a", 40e6}, {"b", 80e6}, {"c", 100e6}};
  const auto t1 = generate_speed_traces(hosts, spec);
  const auto t2 = generate_speed_traces(hosts, spec);
  REQUIRE(t1.size() == 3);
  for (std::size_t i = 0; i < t1.size(); ++i) {
    REQUIRE(t1[i].changes.size() == 2);
    CHECK(t1[i].changes[0].iteration >= 20);
    CHECK(t1[i].changes[0].iteration <= 40);
    CHECK(t1[i].changes[1].iteration >= 60);
    CHECK(t1[i].changes[1].iteration <= 80);
    CHECK(speed_profile_text(t1[i], 0.5) == speed_profile_text(t2[i], 0.5));
    const double new_speed = t1[i].changes[0].multiplier * hosts[i].second;
    CHECK((new_speed == doctest::Approx(20e6) || new_speed == doctest::Approx(50e6) || new_speed == doctest::Approx(100e6)));
    CHECK(multiplier_at_iteration(t1[i], 10) == 1.0);
    CHECK(multiplier_at_iteration(t1[i], 90) == t1[i].changes[1].multiplier);
    const double when = t1[i].changes[0].iteration * 0.5;
    CHECK(multiplier_at_time(t1[i], 0.5, when - 1e-9) == 1.0);
    CHECK(multiplier_at_time(t1[i], 0.5, when) == t1[i].changes[0].multiplier);
  }
  spec.seed = 6;
  const auto t3 = generate_speed_traces(hosts, spec);
  bool differs = false;
  for (std::size_t i = 0; i < 3; ++i) differs = differs || speed_profile_text(t1[i], 1) != speed_profile_text(t3[i], 1);
  CHECK(differs);
}

TEST_CASE("experiment seeds and hashes are stable") {
  CHECK(sweep::derived_seed(3, 0) == 3);
  CHECK(sweep::derived_seed(3, 1) != sweep::derived_seed(3, 0));
  CHECK(sweep::fnv1a("") == 1469598103934665603ULL);
  CHECK(sweep::fnv1a("a") != sweep::fnv1a("b"));
}

TEST_CASE("run configs: integers checked at full width, extreme values refused naming the key") {
  auto error_of = [](const std::string& text) -> std::string {
    try {
      io::parse_run_config(nlohmann::json::parse(text), "cfg");
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  // Each would wrap to a small count if narrowed without a check (2^32 + 1 iterations is one).
  CHECK(error_of(R"({"ratio": 1, "iterations": 4294967297})").find("'iterations' must be at most") != std::string::npos);
  CHECK(error_of(R"({"ratio": 1, "columns": 4294968296})").find("'columns' must be at most") != std::string::npos);
  CHECK(error_of(R"({"ratio": 1, "rows": 18446744073709551615})").find("'rows' must be") != std::string::npos);
  CHECK(error_of(R"({"ratio": 1, "ring": {"size": 4294967300}})").find("'size' must be at most") != std::string::npos);
  CHECK(error_of(R"({"ratio": 1, "rebuild": [{"after": 4294967306}]})").find("'after' must be at most") != std::string::npos);
  CHECK(error_of(R"({"ratio": 1e308})").find("'ratio' must be in") != std::string::npos);
  CHECK(error_of(R"({"ratio": 1, "report_bytes": 1.9e19})").find("'report_bytes' must be at most") != std::string::npos);
  CHECK(error_of(R"({"ratio": 1, "traces": {"source": "on-off", "load_factor": 1e-300}})").find("'load_factor'") !=
        std::string::npos);
  CHECK(error_of(R"({"ratio": 1, "traces": {"source": "daily", "phase": 1e308}})").find("'phase'") != std::string::npos);
  CHECK(error_of(R"({"ratio": 1, "traces": {"source": "on-off", "durations": "hyperexponential", "cv": 1e160}})")
            .find("'cv' must be at most") != std::string::npos);
  // Staging nodes are kept at full width; what they cost is the memory check's (test_run_memory.cpp).
  CHECK(io::parse_run_config(nlohmann::json::parse(R"({"ratio": 1, "staging": {"nodes": 4294967298}})"), "cfg")
            .staging.cluster.nodes == 4294967298ULL);
  // Seeds keep their full 64 bits.
  const auto cfg = io::parse_run_config(nlohmann::json::parse(R"({"ratio": 1, "ring": {"seed": 18446744073709551615}})"), "cfg");
  CHECK(cfg.ring.seed == 18446744073709551615ULL);
}
