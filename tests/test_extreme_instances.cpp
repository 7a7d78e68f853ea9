// Planners at extreme values: seeded instances with costs from 1e-300 to 1e300 and loads up to
// the accepted maximum are planned or refused (InputError, std::invalid_argument), never answered
// out of their format: a plan's JSON parses back (no inf or NaN), its time is never below its
// stated lower bound, "optimal" only where the time meets it, and its schedule replays under the
// independent checker. Balances of totals up to 2^62 sum to the total and cannot be improved.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/redistribution_json.hpp"
#include "model/errors.hpp"
#include "model/replay.hpp"
#include "planners/redistribution/load_balance.hpp"
#include "planners/redistribution/redistribution_planner.hpp"

using namespace ringsim;

namespace {

double extreme_cost(std::mt19937_64& rng) {
  static const double picks[] = {1e300, 1e200, 1e150, 1e-300, 2.3e-308, 1.0, 3.0};
  std::uniform_int_distribution<int> kind(0, 2);
  switch (kind(rng)) {
    case 0: return picks[rng() % std::size(picks)];
    case 1: return std::pow(10.0, std::uniform_real_distribution<double>(-300.0, 300.0)(rng));
    default: return static_cast<double>(1 + rng() % 5);
  }
}

std::vector<Count> split(std::mt19937_64& rng, std::size_t n, Count total) {
  std::vector<Count> parts(n, 1);
  for (Count left = total - static_cast<Count>(n); left > 0;) {
    const Count give = 1 + static_cast<Count>(rng() % static_cast<std::uint64_t>(left));
    parts[rng() % n] += give;
    left -= give;
  }
  return parts;
}

RingInstance extreme_instance(std::mt19937_64& rng) {
  RingInstance inst;
  const std::size_t n = 2 + rng() % 5;
  const Count totals[] = {static_cast<Count>(n), 40, 1000};
  const Count total = totals[rng() % std::size(totals)];
  inst.bidirectional = rng() % 4 != 0;
  inst.loads = split(rng, n, total);
  inst.targets = split(rng, n, total);
  const bool homogeneous = rng() % 3 == 0;
  const double c = extreme_cost(rng);
  for (std::size_t i = 0; i < n; ++i) {
    inst.cost_next.push_back(homogeneous ? c : extreme_cost(rng));
    if (inst.bidirectional) inst.cost_prev.push_back(homogeneous ? c : extreme_cost(rng));
  }
  return inst;
}

}  // namespace

TEST_CASE("plans at extreme costs stay within their format and replay, or are refused") {
  std::mt19937_64 rng(65);
  const char* planners[] = {"auto",     "uni-homogeneous", "uni-heterogeneous", "bi-homogeneous", "bi-homogeneous-early-late",
                              "bi-light", "bi-light-glpk",   "bi-heuristic",      "exact"};
  int planned = 0;
  for (int k = 0; k < 300; ++k) {
    const RingInstance inst = extreme_instance(rng);
    const std::string planner = planners[rng() % std::size(planners)];
    CAPTURE(k);
    CAPTURE(planner);
    RedistributionPlan plan;
    try {
      plan = redistribution::plan_redistribution(inst, planner);
    } catch (const InputError&) {
      continue;
    } catch (const std::invalid_argument&) {
      continue;
    }
    ++planned;
    const nlohmann::json doc = nlohmann::json::parse(io::plan_to_json_text(plan));  // throws on inf or nan
    const double time = doc["time"].get<double>(), bound = doc["lower_bound"].get<double>();
    CHECK(std::isfinite(time));
    CHECK(time >= bound);
    if (doc["optimal"].get<bool>()) CHECK(time <= bound * (1.0 + 1e-9));
    const ReplayReport report = replay(inst, plan, 1e-6);
    CHECK_MESSAGE(report.ok, report.error);
  }
  CHECK(planned > 100);
}

TEST_CASE("balances of totals up to 2^62 and speeds far apart sum to the total and cannot be improved") {
  std::mt19937_64 rng(650);
  for (int k = 0; k < 200; ++k) {
    const std::size_t n = 2 + rng() % 6;
    std::vector<double> speeds;
    for (std::size_t i = 0; i < n; ++i) speeds.push_back(extreme_cost(rng));
    const Count totals[] = {static_cast<Count>(n), 1000, Count{1} << 40, kMaxTotalItems,
                            static_cast<Count>(n) + static_cast<Count>(rng() % static_cast<std::uint64_t>(kMaxTotalItems - n))};
    const Count total = totals[rng() % std::size(totals)];
    CAPTURE(k);
    CAPTURE(total);
    const std::vector<Count> loads = redistribution::balanced_targets(speeds, total);
    CHECK(std::accumulate(loads.begin(), loads.end(), Count{0}) == total);
    CHECK(*std::min_element(loads.begin(), loads.end()) >= 1);
    // No column moved from one member to another shortens the iteration (to the doubles' rounding).
    double given = 0.0, taken = INFINITY;
    for (std::size_t i = 0; i < n; ++i) {
      if (loads[i] > 1) given = std::max(given, static_cast<double>(loads[i]) / speeds[i]);
      taken = std::min(taken, static_cast<double>(loads[i] + 1) / speeds[i]);
    }
    CHECK(given <= taken * (1.0 + 1e-12));
  }
  CHECK_THROWS_AS(redistribution::balanced_targets({1.0, 3.0}, INT64_MAX), InputError);
}
