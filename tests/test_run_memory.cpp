// A run's memory estimate (src/model/run_memory.hpp): each size's term and their sum, refused above
// the budget only (naming the largest size and --max-memory), sizes written in decimal units.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "io/run_config_json.hpp"
#include "model/errors.hpp"
#include "model/run_memory.hpp"

using namespace ringsim;

static RunConfig config_of(const std::string& text) { return io::parse_run_config(nlohmann::json::parse(text), "cfg"); }

static std::string refusal(const RunConfig& cfg, double budget) {
  try {
    check_run_memory(cfg, budget, "cfg");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("run memory: each size's term, the largest first, and their sum") {
  const RunConfig cfg = config_of(R"({"ratio": 1, "columns": 5000, "iterations": 200, "ring": {"size": 6},
                                      "staging": {"nodes": 40}})");
  const MemoryEstimate e = estimate_run_memory(cfg);
  REQUIRE(e.terms.size() == 3);
  CHECK(e.terms[0].size == "'staging' 'nodes' 40");
  CHECK(e.terms[0].bytes == 32 * 40 * 40);
  CHECK(e.terms[1].size == "'columns' 5000");
  CHECK(e.terms[1].bytes == 50000);
  CHECK(e.terms[2].size == "'iterations' 200");
  CHECK(e.terms[2].bytes == (112 + 8 * 6) * 200);
  CHECK(e.total() == 50000 + 32 * 40 * 40 + (112 + 8 * 6) * 200);
  // Without staging, two terms; members are the largest ring the run has (rebuilt rings too).
  const RunConfig rebuilt = config_of(R"({"ratio": 1, "iterations": 10, "ring": {"hosts": ["a", "b"]},
                                          "rebuild": [{"after": 5, "size": 9}]})");
  const MemoryEstimate r = estimate_run_memory(rebuilt);
  REQUIRE(r.terms.size() == 2);
  CHECK(r.terms[1].bytes == (112 + 8 * 9) * 10);
}

TEST_CASE("run memory: refused above the budget only, naming the largest size and --max-memory") {
  const RunConfig cfg = config_of(R"({"ratio": 1, "columns": 500000000, "iterations": 2, "ring": {"size": 3}})");
  const double total = estimate_run_memory(cfg).total();
  CHECK(refusal(cfg, total) == "");
  CHECK(refusal(cfg, 1e10) == "");
  CHECK(refusal(cfg, kDefaultMemoryBudgetBytes) ==
        "cfg: the run would hold about 5 GB ('columns' 500000000: 5 GB), more than the 4 GB allowed; "
        "--max-memory GB raises the limit");
  // On seeded random sizes: refused exactly when the sum of the terms exceeds the budget.
  std::mt19937_64 rng(7);
  for (int k = 0; k < 2000; ++k) {
    RunConfig c = cfg;
    c.columns = static_cast<int>(rng() % 2000000000) + 1;
    c.iterations = static_cast<int>(rng() % 100000000) + 1;
    c.ring.size = static_cast<int>(rng() % 500) + 1;
    c.staging.enabled = rng() % 2 == 0;
    c.staging.cluster.nodes = static_cast<std::size_t>(rng() % 30000) + 1;
    const double budget = static_cast<double>(rng() % 20000000000ULL) + 1;
    const double sum = 10.0 * c.columns + (112.0 + 8.0 * c.ring.size) * c.iterations +
                       (c.staging.enabled ? 32.0 * static_cast<double>(c.staging.cluster.nodes * c.staging.cluster.nodes) : 0.0);
    CHECK((refusal(c, budget) != "") == (sum > budget));
  }
}

TEST_CASE("run memory: sizes written in decimal units, three digits") {
  CHECK(format_bytes(528) == "528 bytes");
  CHECK(format_bytes(4e9) == "4 GB");
  CHECK(format_bytes(4.61e9) == "4.61 GB");
  CHECK(format_bytes(999999) == "1 MB");  // rounded, then in the next unit
  CHECK(format_bytes(5.9e20) == "590 EB");
}
