// Property tests on thousands of seeded random instances: every schedule passes the independent
// checker, eta <= time, and GGP / OGGP stay within 8/3 of eta.
//
// Why 8/3 and not 2: the KPBS paper (DRUIDE 2004) states that GGP is a 2-approximation; the authors'
// later journal version (not among the papers of this repository's specification) proves 8/3. Against eta,
// ratios above 2 do occur (the searches below find some for GGP), for this reason. Every peeled matching costs at most
// beta + s * beta <= 2 s beta (s >= 1 unit), so GGP's time is at most 2 beta R with
// R = max(W(H), ceil(P(H) / k)) the weight of the regular graph. Rounding up to units of beta
// (step 2) keeps beta W(H) <= W + beta Delta <= eta and beta P(H) / k <= P / k + beta m / k <= eta,
// but the ceiling of P(H) / k adds up to beta (k - 1) / k: time <= 2 eta + 2 beta (k - 1) / k.
// The additive 2 beta matters when eta is a few beta: with eta_e >= 3 it stays below 8/3 eta.
// GGP gets near the 2 beta R budget when its matchings cut transfers of a little more than beta
// into a beta piece and a sliver (each costing a whole step) and when transfers of epsilon count
// a full unit in H. Example found by the search (k = 4, beta = 1):
//   [[1.001,0.001,1.001,1.001,2.001],[2.001,0.001,1,0.001,2.001],[1.001,2.001,1.001,1.001,0.001],
//    [0.001,2.001,1.001,2.001,1.001],[0.001,2.15109,0,2.001,1.001]]
// eta = 6.543 + 6 = 12.543 and R = 13: GGP takes 12 steps, 25 = 1.99 eta (which perfect matchings
// GGP gets depends on the matcher: with another, 13 steps of 1 + 1 = 26 = 2.07 eta), OGGP 19.15 =
// 1.53 eta.
// Against the true optimum the ratios are much lower (test_kpbs_bruteforce.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <sstream>

#include "model/kpbs.hpp"
#include "oracles/kpbs_instances.hpp"
#include "planners/kpbs/kpbs_planner.hpp"
#include "planners/kpbs/lower_bound.hpp"

using namespace ringsim;

namespace {

struct Stats {
  double max_ratio = 0.0, sum_ratio = 0.0;
  std::size_t count = 0, above_two = 0, steps = 0;
  std::string worst;
  void add(double ratio, std::size_t nsteps, const std::string& what) {
    if (ratio > max_ratio) {
      max_ratio = ratio;
      worst = what;
    }
    sum_ratio += ratio;
    ++count;
    steps += nsteps;
    if (ratio > 2.0 + 1e-9) ++above_two;
  }
};

std::string describe(const KpbsInstance& inst) {
  std::ostringstream o;
  o << "k=" << inst.k << " beta=" << inst.beta << " matrix=[";
  for (const auto& row : inst.times) {
    o << '[';
    for (std::size_t j = 0; j < row.size(); ++j) o << (j ? "," : "") << row[j];
    o << ']';
  }
  o << ']';
  return o.str();
}

}  // namespace

TEST_CASE("all algorithms give valid schedules with eta <= time - GGP and OGGP within 8/3 eta") {
  std::mt19937_64 rng(20040330);
  const double betas[] = {0.0, 0.5, 1.0, 3.0, 10.0};
  const double densities[] = {0.15, 0.4, 0.7, 1.0};
  std::map<std::string, Stats> stats;
  const int trials = 4000;
  for (int trial = 0; trial < trials; ++trial) {
    testing::KpbsShape shape;
    shape.senders = 1 + rng() % 12;
    shape.receivers = 1 + rng() % 12;
    shape.density = densities[trial % 4];
    shape.integer_times = trial % 2 == 0;
    shape.max_time = trial % 7 == 0 ? 100 : 10;
    shape.k = 1 + rng() % (std::max(shape.senders, shape.receivers) + 1);  // sometimes above min(n1, n2)
    shape.beta = betas[(trial / 2) % 5];
    const KpbsInstance inst = testing::random_kpbs(rng, shape);
    const kpbs::KpbsLowerBound bound = kpbs::kpbs_lower_bound(inst);
    for (const auto& info : kpbs::kpbs_algorithms()) {
      const KpbsSchedule s = kpbs::plan_kpbs(inst, info.name);
      const std::string what = "trial " + std::to_string(trial) + " " + info.name + ": " + describe(inst);
      REQUIRE(s.lower_bound == bound.eta);
      if (info.name == "all-at-once") {
        const auto c = check_kpbs_conservation(inst, s);
        REQUIRE_MESSAGE(c.ok, what << ": " << c.error);
        // Fluid sharing with capacities 1, 1 and k cannot beat max(W, P/k) after one setup.
        if (bound.m > 0) REQUIRE_MESSAGE(s.time >= (inst.beta + bound.eta_d) * (1 - 1e-9), what);
        continue;
      }
      const auto c = check_kpbs_schedule(inst, s);
      REQUIRE_MESSAGE(c.ok, what << ": " << c.error);
      REQUIRE_MESSAGE(s.time >= bound.eta * (1 - 1e-9), what << ": time " << s.time << " < eta " << bound.eta);
      if (bound.eta == 0) continue;
      const double ratio = s.time / bound.eta;
      if (info.name == "ggp" || info.name == "oggp") {
        REQUIRE_MESSAGE(ratio <= 8.0 / 3.0 + 1e-9, what << ": time " << s.time << " > 8/3 eta " << bound.eta);
        if (inst.beta == 0) REQUIRE_MESSAGE(ratio <= 1 + 1e-9, what << ": beta = 0 should be optimal");
        REQUIRE_MESSAGE(s.time <= 2 * (bound.eta + inst.beta) + 1e-9, what << ": above 2 (eta + beta)");
      }
      stats[info.name].add(ratio, s.steps.size(), what);
    }
  }
  for (const auto& [name, st] : stats)
    MESSAGE(name << " on " << st.count << " instances: time/eta max " << st.max_ratio << ", mean "
                 << st.sum_ratio / static_cast<double>(st.count) << ", above 2 eta: " << st.above_two
                 << ", mean steps " << static_cast<double>(st.steps) / static_cast<double>(st.count)
                 << "; worst: " << st.worst);
}

TEST_CASE("GGP and OGGP within 8/3 eta on adversarial weights just above multiples of beta") {
  // Transfers of beta * (1 + epsilon) are rounded up to 2 units each: the case that pushes the
  // data part of GGP towards twice eta_d.
  std::mt19937_64 rng(83);
  std::map<std::string, Stats> stats;
  for (int trial = 0; trial < 1500; ++trial) {
    testing::KpbsShape shape;
    shape.senders = 1 + rng() % 10;
    shape.receivers = 1 + rng() % 10;
    shape.density = 0.3 + 0.7 * static_cast<double>(rng() % 8) / 7.0;
    shape.integer_times = true;
    shape.max_time = 1 + static_cast<int>(rng() % 4);
    shape.k = 1 + rng() % std::min(shape.senders, shape.receivers);
    shape.beta = 1.0;
    KpbsInstance inst = testing::random_kpbs(rng, shape);
    const double eps = trial % 3 == 0 ? 1e-3 : 0.01 * static_cast<double>(1 + rng() % 30);
    for (auto& row : inst.times)
      for (double& x : row)
        if (x > 0) x += eps;
    const double eta = kpbs::kpbs_lower_bound(inst).eta;
    if (eta == 0) continue;
    for (const char* algo : {"ggp", "oggp"}) {
      const auto s = kpbs::plan_kpbs(inst, algo);
      const auto c = check_kpbs_schedule(inst, s);
      REQUIRE_MESSAGE(c.ok, c.error);
      const std::string what = std::string(algo) + ": " + describe(inst);
      REQUIRE_MESSAGE(s.time <= 8.0 / 3.0 * eta + 1e-9, what << ": time " << s.time << " eta " << eta);
      REQUIRE_MESSAGE(s.time <= 2 * (eta + inst.beta) + 1e-9, what);
      stats[algo].add(s.time / eta, s.steps.size(), what);
    }
  }
  for (const auto& [name, st] : stats)
    MESSAGE(name << " (weights just above multiples of beta) on " << st.count << " instances: time/eta max "
                 << st.max_ratio << ", mean " << st.sum_ratio / static_cast<double>(st.count)
                 << ", above 2 eta: " << st.above_two << "; worst: " << st.worst);
}

TEST_CASE("a hill-climbing search for instances far above eta: GGP and OGGP stay within 8/3") {
  // Entries drawn from the values that hurt step 2's rounding (0, epsilon, 1, 1 + epsilon,
  // 2 + epsilon in units of beta) and random ones; each climb keeps the mutations that do not
  // lower time / eta.
  std::mt19937_64 rng(1447);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (const char* algo : {"ggp", "oggp"}) {
    Stats st;
    std::size_t climbs_above_two = 0;
    for (int climb = 0; climb < 120; ++climb) {
      const std::size_t n1 = 2 + rng() % 5, n2 = 2 + rng() % 5;
      KpbsInstance inst;
      inst.k = 1 + rng() % std::min(n1, n2);
      inst.beta = 1;
      auto value = [&] {
        const double choices[] = {0, 1e-3, 1, 1 + 1e-3, 2 + 1e-3};
        const auto c = rng() % 6;
        return c < 5 ? choices[c] : 3 * unit(rng);
      };
      inst.times.assign(n1, std::vector<double>(n2));
      for (auto& row : inst.times)
        for (double& x : row) x = value();
      auto ratio = [&](const KpbsInstance& candidate) {
        const double eta = kpbs::kpbs_lower_bound(candidate).eta;
        if (eta == 0) return 0.0;
        const auto s = kpbs::plan_kpbs(candidate, algo);
        const auto c = check_kpbs_schedule(candidate, s);
        REQUIRE_MESSAGE(c.ok, c.error);
        REQUIRE(s.time <= 8.0 / 3.0 * eta + 1e-9);
        return s.time / eta;
      };
      double current = ratio(inst);
      for (int step = 0; step < 250; ++step) {
        KpbsInstance candidate = inst;
        if (rng() % 10 == 0)
          candidate.k = 1 + rng() % std::min(n1, n2);
        else
          candidate.times[rng() % n1][rng() % n2] = value();
        const double r = ratio(candidate);
        if (r >= current) {
          current = r;
          inst = candidate;
        }
      }
      st.add(current, 0, describe(inst));
      climbs_above_two += current > 2.0 + 1e-9;
    }
    MESSAGE(std::string(algo) << ": " << st.count << " climbs, best time/eta per climb: max " << st.max_ratio
                              << ", mean " << st.sum_ratio / static_cast<double>(st.count) << ", climbs ending above 2 eta: "
                              << climbs_above_two << "; worst: " << st.worst);
    CHECK(st.max_ratio <= 8.0 / 3.0);
  }
}

TEST_CASE("instances above 2 eta found by a longer search (300 climbs of 400 steps, sizes up to 6)") {
  struct Known {
    std::size_t k;
    std::vector<std::vector<double>> times;
  };
  const Known known[] = {
      {4, {{1.001, 0.001, 1.001, 1.001, 2.001}, {2.001, 0.001, 1, 0.001, 2.001}, {1.001, 2.001, 1.001, 1.001, 0.001},
           {0.001, 2.001, 1.001, 2.001, 1.001}, {0.001, 2.15109, 0, 2.001, 1.001}}},
      {3, {{0.001, 1.53592, 2.001, 0.001}, {2.001, 0.001, 1.001, 0.001}, {0.001, 0.001, 1.001, 2.001},
           {2.001, 0, 0.001, 2.001}}},
      {3, {{0.001, 0.001, 0.597575, 2.001, 2.001}, {0.001, 1.001, 2.001, 0, 2.001}, {0.001, 0.001, 0, 0.001, 0.245506},
           {0, 0.001, 0.001, 0, 0.001}, {2.001, 0.001, 0, 1.001, 0.001}, {2.001, 2.001, 0, 0.001, 0.001}}},
  };
  std::size_t above_two = 0;
  for (const auto& kn : known) {
    KpbsInstance inst;
    inst.k = kn.k;
    inst.beta = 1;
    inst.times = kn.times;
    const double eta = kpbs::kpbs_lower_bound(inst).eta;
    for (const char* algo : {"ggp", "oggp"}) {
      const auto s = kpbs::plan_kpbs(inst, algo);
      const auto c = check_kpbs_schedule(inst, s);
      REQUIRE_MESSAGE(c.ok, c.error);
      CHECK(s.time <= 8.0 / 3.0 * eta);
      CHECK(s.time <= 2 * (eta + inst.beta));
      above_two += s.time > 2 * eta;
      MESSAGE(std::string(algo) << " on " << describe(inst) << ": time " << s.time << ", eta " << eta << ", ratio "
                                << s.time / eta << " in " << s.steps.size() << " steps");
    }
  }
  MESSAGE(above_two << " of these 6 schedules above 2 eta");
}

TEST_CASE("same instance, same schedule") {
  std::mt19937_64 rng(5);
  testing::KpbsShape shape;
  shape.senders = 9;
  shape.receivers = 7;
  shape.integer_times = false;
  shape.k = 4;
  const auto inst = testing::random_kpbs(rng, shape);
  for (const auto& info : kpbs::kpbs_algorithms()) {
    const auto a = kpbs::plan_kpbs(inst, info.name), b = kpbs::plan_kpbs(inst, info.name);
    REQUIRE(a.steps.size() == b.steps.size());
    CHECK(a.time == b.time);
    for (std::size_t t = 0; t < a.steps.size(); ++t) {
      REQUIRE(a.steps[t].comms.size() == b.steps[t].comms.size());
      for (std::size_t c = 0; c < a.steps[t].comms.size(); ++c) {
        CHECK(a.steps[t].comms[c].from == b.steps[t].comms[c].from);
        CHECK(a.steps[t].comms[c].amount == b.steps[t].comms[c].amount);
      }
    }
  }
}
