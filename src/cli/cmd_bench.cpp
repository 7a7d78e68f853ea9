// `ringsim bench ...`: benchmarks that print figures (never pass/fail on time).
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "io/redistribution_json.hpp"
#include "model/errors.hpp"
#include "planners/redistribution/planner.hpp"

namespace ringsim::cli {
namespace {

// A load-balancing-like instance: every edge moves a random number of items in [-depth, depth]
// between neighbours, so the redistribution is local (each processor sends O(depth) items) and
// the plan's size is linear in n.
nlohmann::json local_drift_instance(std::size_t n, bool bidirectional, bool homogeneous, Count depth,
                                    std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<Count> load(4 * depth + 1, 8 * depth + 1);
  std::uniform_int_distribution<Count> move(bidirectional ? -depth : 0, depth);
  std::uniform_real_distribution<double> cost(0.5, 4.0);
  std::vector<Count> loads(n), targets(n);
  for (auto& l : loads) l = load(rng);
  targets = loads;
  for (std::size_t i = 0; i < n; ++i) {
    const Count m = move(rng);  // items from P_i to P_(i+1) (negative: the other way)
    targets[i] -= m;
    targets[(i + 1) % n] += m;
  }
  nlohmann::json doc = {{"bidirectional", bidirectional}, {"loads", loads}, {"targets", targets}};
  std::vector<double> next(n, 1.0), prev(n, 1.0);
  if (!homogeneous) {
    for (auto& c : next) c = cost(rng);
    for (auto& c : prev) c = cost(rng);
  }
  doc["cost_next"] = next;
  if (bidirectional) doc["cost_prev"] = prev;
  return doc;
}

struct BenchCase {
  const char* algorithm;
  bool bidirectional;
  bool homogeneous;
};

void bench_redistribute(int max_log2, Count depth) {
  const std::vector<BenchCase> cases = {
      {"uni-homogeneous", false, true},  {"uni-heterogeneous", false, false},
      {"bi-homogeneous", true, true},    {"bi-light", true, false},
      {"bi-light-glpk", true, false},    {"bi-heuristic", true, false},
  };
  std::cout << "# ringsim bench redistribute: parse JSON + plan + write JSON, local-drift instances "
               "(depth " << depth << ")\n";
  std::cout << "algorithm,n,seconds,time_ratio_vs_n/8,transfers,output_bytes\n";
  for (const auto& bc : cases) {
    double previous = 0.0;
    // GLPK's simplex is not near-linear: stop it at 2^14 processors.
    const int top = std::string(bc.algorithm) == "bi-light-glpk" ? std::min(max_log2, 14) : max_log2;
    for (int lg = top % 3 == 2 ? 2 : top % 3 == 1 ? 4 : 3; lg <= top; lg += 3) {
      const std::size_t n = std::size_t{1} << lg;
      const std::string text = local_drift_instance(n, bc.bidirectional, bc.homogeneous, depth, 42 + n).dump();
      const auto t0 = std::chrono::steady_clock::now();
      auto req = io::parse_redistribution_text(text, "the benchmark instance");
      const auto plan = plan_redistribution(req.instance, bc.algorithm);
      const std::string out = io::plan_to_json_text(plan);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::cout << bc.algorithm << ',' << n << ',' << std::setprecision(4) << s << ',';
      if (previous > 0.0) std::cout << std::setprecision(3) << s / previous; else std::cout << '-';
      std::cout << ',' << plan.transfers.size() << ',' << out.size() << std::endl;
      previous = s;
    }
  }
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "Benchmarks that print figures");
  bench->require_subcommand(1);
  auto* red = bench->add_subcommand("redistribute", "Planner time vs ring size (8x steps up to 2^max-log2)");
  auto max_log2 = std::make_shared<int>(20);
  auto depth = std::make_shared<Count>(8);
  red->add_option("--max-log2", *max_log2, "largest ring: 2^max-log2 processors")->check(CLI::Range(4, 24));
  red->add_option("--depth", *depth, "largest number of items moved across one edge")->check(CLI::Range(1, 1000000));
  red->callback([max_log2, depth] { bench_redistribute(*max_log2, *depth); });
  add_bench_kpbs(*bench);
  add_bench_ring(*bench);
  add_bench_simulate(*bench);
}

}  // namespace ringsim::cli
