// Real approximation ratios: GGP, OGGP and greedy against the exact optimum of tiny instances
// (exhaustive search, tests/oracles/kpbs_bruteforce.cpp), and how far eta is from the optimum.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>

#include "model/kpbs.hpp"
#include "oracles/kpbs_bruteforce.hpp"
#include "oracles/kpbs_instances.hpp"
#include "planners/kpbs/kpbs_planner.hpp"
#include "planners/kpbs/lower_bound.hpp"

using namespace ringsim;

namespace {

struct Ratio {
  double max = 0.0, sum = 0.0;
  std::size_t count = 0, optimal = 0;
  void add(double r) {
    max = std::max(max, r);
    sum += r;
    ++count;
    optimal += r <= 1 + 1e-9;
  }
  double mean() const { return count ? sum / static_cast<double>(count) : 0.0; }
};

}  // namespace

TEST_CASE("the brute force knows the KPBS paper's example and a case where eta is not reached") {
  KpbsInstance ex;
  ex.times.assign(5, std::vector<double>(5, 0.0));
  for (std::size_t i = 0; i < 4; ++i) ex.times[i][i] = 1;
  ex.times[4][4] = 2;
  ex.k = 3;
  ex.beta = 1;
  CHECK(oracles::kpbs_brute_force(ex).value() == 4);
  // Three disjoint unit transfers, k = 2, beta = 1: eta = 1.5 + 2 = 3.5; the best is 2 steps
  // {1, 1} then {1}: 4 (three half steps cost 3 + 1.5).
  KpbsInstance tri;
  tri.times = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  tri.k = 2;
  tri.beta = 1;
  CHECK(kpbs::kpbs_lower_bound(tri).eta == 3.5);
  CHECK(oracles::kpbs_brute_force(tri).value() == 4);
  CHECK(oracles::kpbs_brute_force(tri, 2).value() == 4);
  tri.beta = 0.25;  // now the half steps win: 3 * 0.25 + 1.5 = 2.25 < 2 * 0.25 + 2
  CHECK(oracles::kpbs_brute_force(tri, 4).value() == 2.25);
}

TEST_CASE("time / optimum of GGP, OGGP and greedy on tiny instances (exhaustive search)") {
  std::mt19937_64 rng(31);
  struct Size {
    std::size_t n1, n2;
    int max_time;
  };
  const Size sizes[] = {{2, 2, 4}, {2, 3, 4}, {3, 2, 3}, {3, 3, 3}};
  const double betas[] = {1.0, 2.0, 3.0};
  std::map<std::string, Ratio> vs_opt;
  Ratio opt_vs_eta;
  int solved = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const Size sz = sizes[trial % 4];
    testing::KpbsShape shape;
    shape.senders = sz.n1;
    shape.receivers = sz.n2;
    shape.max_time = sz.max_time;
    shape.density = 0.5 + 0.5 * static_cast<double>(rng() % 2);
    shape.k = 1 + rng() % std::min(sz.n1, sz.n2);
    shape.beta = betas[rng() % 3];
    const auto inst = testing::random_kpbs(rng, shape);
    const auto opt = oracles::kpbs_brute_force(inst);
    REQUIRE(opt.has_value());
    const double eta = kpbs::kpbs_lower_bound(inst).eta;
    REQUIRE(*opt >= eta - 1e-9);
    if (*opt == 0) continue;
    ++solved;
    opt_vs_eta.add(*opt / eta);
    for (const char* algo : {"ggp", "oggp", "greedy"}) {
      const auto s = kpbs::plan_kpbs(inst, algo);
      REQUIRE(check_kpbs_schedule(inst, s).ok);
      // Integer data and integer beta: every algorithm here cuts at integer amounts, so its
      // schedule is among those the search explored.
      REQUIRE_MESSAGE(s.time >= *opt - 1e-9, std::string(algo) << " beats the optimum?");
      vs_opt[algo].add(s.time / *opt);
    }
  }
  MESSAGE(solved << " instances (2x2, 2x3, 3x2, 3x3, entries 0.." << 4 << ", beta 1..3), optimum over integer "
                    "preemptions: optimum/eta max " << opt_vs_eta.max << ", mean " << opt_vs_eta.mean()
                 << ", eta reached on " << opt_vs_eta.optimal);
  for (const auto& [name, r] : vs_opt) {
    MESSAGE(name << ": time/optimum max " << r.max << ", mean " << r.mean() << ", optimal on " << r.optimal << " of "
                 << r.count);
    if (name != "greedy") CHECK(r.max <= 8.0 / 3.0 + 1e-9);
  }
}

TEST_CASE("finer preemption (halves) against integer preemption, and beta = 0.5") {
  std::mt19937_64 rng(47);
  std::map<std::string, Ratio> vs_opt;
  int finer_better = 0, total = 0;
  for (int trial = 0; trial < 200; ++trial) {
    testing::KpbsShape shape;
    shape.senders = 2;
    shape.receivers = 2 + rng() % 2;
    shape.max_time = 3;
    shape.density = 0.75;
    shape.k = 1 + rng() % 2;
    shape.beta = trial % 2 ? 1.0 : 0.5;
    const auto inst = testing::random_kpbs(rng, shape);
    const auto halves = oracles::kpbs_brute_force(inst, 2);
    REQUIRE(halves.has_value());
    if (*halves == 0) continue;
    ++total;
    if (inst.beta == 1.0) {
      const auto whole = oracles::kpbs_brute_force(inst, 1);
      REQUIRE(*whole >= *halves - 1e-9);
      finer_better += *whole > *halves + 1e-9;
    }
    for (const char* algo : {"ggp", "oggp"}) {
      const auto s = kpbs::plan_kpbs(inst, algo);
      REQUIRE(check_kpbs_schedule(inst, s).ok);
      REQUIRE(s.time >= *halves - 1e-9);  // amounts are multiples of beta or leftovers: halves
      vs_opt[algo].add(s.time / *halves);
    }
  }
  MESSAGE("beta = 1: preemption at halves beats integer preemption on " << finer_better << " of about "
                                                                         << total / 2 << " instances");
  for (const auto& [name, r] : vs_opt)
    MESSAGE(name << " vs optimum over half-unit preemptions (beta 0.5 and 1): max " << r.max << ", mean "
                 << r.mean());
}
