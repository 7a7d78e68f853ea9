// `ringsim bench ...`: benchmarks that print figures (never pass/fail on time).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/command_table.hpp"
#include "cli/commands.hpp"
#include "cli/redistribution_answer.hpp"
#include "io/process.hpp"
#include "io/redistribution_json.hpp"
#include "model/errors.hpp"
#include "planners/redistribution/block_budget.hpp"
#include "planners/redistribution/block_census.hpp"
#include "planners/redistribution/redistribution_planner.hpp"

namespace ringsim::cli {
namespace {

// The instance as `ringsim redistribute` reads it; heterogeneous costs uniform in [0.5, 4].
// With integer_costs each cost is rounded up (1 to 4): every time an exact double.
nlohmann::json instance_document(const std::vector<Count>& loads, const std::vector<Count>& targets, bool bidirectional,
                                 bool homogeneous, std::mt19937_64& rng, bool integer_costs) {
  std::uniform_real_distribution<double> cost(0.5, 4.0);
  const std::size_t n = loads.size();
  nlohmann::json doc = {{"bidirectional", bidirectional}, {"loads", loads}, {"targets", targets}};
  std::vector<double> next(n, 1.0), prev(n, 1.0);
  if (!homogeneous) {
    for (auto& c : next) c = integer_costs ? std::ceil(cost(rng)) : cost(rng);
    for (auto& c : prev) c = integer_costs ? std::ceil(cost(rng)) : cost(rng);
  }
  doc["cost_next"] = next;
  if (bidirectional) doc["cost_prev"] = prev;
  return doc;
}

// A load-balancing-like instance: every edge moves a random number of items in [-depth, depth]
// between neighbours, so the redistribution is local (each processor sends O(depth) items) and
// the plan's size is linear in n.
nlohmann::json local_drift_instance(std::size_t n, bool bidirectional, bool homogeneous, Count depth,
                                    std::uint64_t seed, bool integer_costs) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<Count> load(4 * depth + 1, 8 * depth + 1);
  std::uniform_int_distribution<Count> move(bidirectional ? -depth : 0, depth);
  std::vector<Count> loads(n), targets(n);
  for (auto& l : loads) l = load(rng);
  targets = loads;
  for (std::size_t i = 0; i < n; ++i) {
    const Count m = move(rng);  // items from P_i to P_(i+1) (negative: the other way)
    targets[i] -= m;
    targets[(i + 1) % n] += m;
  }
  return instance_document(loads, targets, bidirectional, homogeneous, rng, integer_costs);
}

// Loads of mean 100 items; targets either balanced for speeds that each drift by up to +-20%
// (the paper's speed changes, independent per processor) or the loads shuffled. Either way the
// imbalance is not local: prefix sums wander like a random walk, and forwarding chains grow.
nlohmann::json global_instance(std::size_t n, bool bidirectional, bool homogeneous, bool shuffled, std::uint64_t seed,
                               bool integer_costs) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<Count> load(50, 150);
  std::uniform_real_distribution<double> drift(0.8, 1.2);
  std::vector<Count> loads(n), targets(n);
  for (auto& l : loads) l = load(rng);
  if (shuffled) {
    targets = loads;
    std::shuffle(targets.begin(), targets.end(), rng);
  } else {
    Count total = 0, given = 0;
    double weight = 0.0;
    std::vector<double> w(n);
    for (std::size_t i = 0; i < n; ++i) {
      total += loads[i];
      w[i] = static_cast<double>(loads[i]) * drift(rng);
      weight += w[i];
    }
    for (std::size_t i = 0; i < n; ++i) {
      targets[i] = std::max<Count>(1, static_cast<Count>(static_cast<double>(total) * w[i] / weight));
      given += targets[i];
    }
    for (std::size_t i = 0; given != total; i = (i + 1) % n) {  // the rounding's few items
      if (given < total) ++targets[i], ++given;
      else if (targets[i] > 1) --targets[i], --given;
    }
  }
  return instance_document(loads, targets, bidirectional, homogeneous, rng, integer_costs);
}

struct BenchCase {
  const char* planner;
  bool bidirectional;
  bool homogeneous;
};

struct BenchOptions {
  int max_log2 = 20;
  Count depth = 8;
  std::string family = "local";
  bool summary = false;
  std::size_t max_blocks = 0;
  std::vector<std::string> planners;  // empty: all
  bool integer_costs = false;
  bool census = false;
};

// Standard output as the benchmark sees it: what is written is counted, then dropped.
struct CountingBuffer : std::streambuf {
  std::size_t bytes = 0;
  std::streamsize xsputn(const char*, std::streamsize n) override {
    bytes += static_cast<std::size_t>(n);
    return n;
  }
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) ++bytes;
    return traits_type::not_eof(c);
  }
};
class CountingStream : private CountingBuffer, public std::ostream {  // the buffer is built first
 public:
  CountingStream() : std::ostream(static_cast<CountingBuffer*>(this)) {}
  std::size_t bytes() const { return CountingBuffer::bytes; }
};

std::string instance_text(const BenchCase& bc, std::size_t n, const BenchOptions& o) {
  const std::uint64_t seed = 42 + n;
  return (o.family == "local"
              ? local_drift_instance(n, bc.bidirectional, bc.homogeneous, o.depth, seed, o.integer_costs)
              : global_instance(n, bc.bidirectional, bc.homogeneous, o.family == "shuffled", seed, o.integer_costs))
      .dump();
}

// The full plan's blocks, counted as block_census.hpp says (no timing): where the blocks beyond 2n
// come from. Times within 1e-12 are the same instant, as the runs' own joins take them.
void census(const BenchCase& bc, std::size_t n, const BenchOptions& o) {
  const auto req = io::parse_redistribution_text(instance_text(bc, n, o), "the benchmark instance");
  const RedistributionPlan plan = redistribution::plan_redistribution(req.instance, bc.planner);
  const redistribution::BlockCensus c = redistribution::block_census(req.instance, plan.transfers, 1e-12);
  std::size_t three_or_more = 0;
  for (std::size_t k = 3; k < c.flows_by_blocks.size(); ++k) three_or_more += c.flows_by_blocks[k];
  std::printf("%s,%zu,%zu,%.3f,%zu,%zu,%zu,%zu,%zu,%zu\n", bc.planner, n, c.blocks,
              static_cast<double>(c.blocks) / static_cast<double>(n), c.flows, three_or_more, c.most_in_one_flow,
              c.into_two_way, c.two_way_turns, c.could_merge);
  std::fflush(stdout);
}

// One measurement in a child process (its peak memory is the one the kernel reports): parse the
// instance's JSON text, plan or summarize, write the JSON answer. Prints one CSV row.
void measure(const BenchCase& bc, std::size_t n, const BenchOptions& o) {
  io::ChildOptions options;
  options.what = "bench";
  io::Child child = io::fork_child(
      [&] {
        const std::string text = instance_text(bc, n, o);
        const auto start = std::chrono::steady_clock::now();
        std::size_t blocks = 0, bytes = 0;
        try {
          const redistribution::BlockBudget budget(o.max_blocks);
          auto req = io::parse_redistribution_text(text, "the benchmark instance");
          if (o.summary) {
            const auto s = redistribution::summarize_redistribution(req.instance, bc.planner);
            bytes = io::summary_to_json_text(s.plan, s.basis).size();
          } else {
            CountingStream out;
            blocks = write_redistribution_answer(out, req.instance, bc.planner);
            bytes = out.bytes();
          }
        } catch (const InputError&) {
          std::printf("%s,%zu,refused (--max-blocks),,,\n", bc.planner, n);
          return 0;
        } catch (const std::exception& e) {
          std::printf("%s,%zu,failed: %s,,,\n", bc.planner, n, e.what());
          return 0;
        }
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("%s,%zu,%.4g,%zu,%zu,", bc.planner, n, s, blocks, bytes);
        return 0;
      },
      options);
  const io::ChildStatus status = child.wait();
  if (!status.ok()) {
    std::cout << bc.planner << ',' << n << ",failed (signal or error),,," << std::endl;
    return;
  }
  std::cout << std::setprecision(4) << static_cast<double>(status.usage.ru_maxrss) / 1024.0 << std::endl;
}

// Where a case stops growing: GLPK's simplex is not near-linear; on the global families Algorithm 3
// steps (O(n) per step, as many steps as Lemma 3's bound), so both stop at 2^14 there (its summary
// does not). bi-light's and bi-heuristic's full schedules are computed by runs of items.
int largest_log2(const BenchCase& bc, const BenchOptions& o) {
  const std::string a = bc.planner;
  if (a == "bi-light-glpk") return 14;
  if (o.family == "local") return 24;
  if (a == "bi-homogeneous") return 14;
  return 24;
}

const std::vector<BenchCase>& bench_cases() {
  static const std::vector<BenchCase> cases = {
      {"uni-homogeneous", false, true},  {"uni-heterogeneous", false, false},
      {"bi-homogeneous", true, true},    {"bi-homogeneous-early-late", true, true},
      {"bi-light", true, false},
      {"bi-light-glpk", true, false},    {"bi-heuristic", true, false},
  };
  return cases;
}

void bench_redistribute(const BenchOptions& o) {
  const auto& cases = bench_cases();
  if (o.census) std::cout << "# ringsim bench redistribute --census: the full plan's blocks; " << o.family << " instances";
  else
    std::cout << "# ringsim bench redistribute: parse JSON + " << (o.summary ? "summary" : "plan")
              << " + write JSON, each in a child process; " << o.family << " instances";
  if (o.family == "local") std::cout << " (depth " << o.depth << ")";
  if (o.max_blocks) std::cout << ", at most " << o.max_blocks << " blocks";
  if (o.integer_costs) std::cout << ", costs rounded up to integers";
  std::cout << (o.census ? "\nalgorithm,n,blocks,blocks_per_processor,flows,flows_of_3_or_more_blocks,most_in_one_flow,"
                           "into_two_way_receivers,two_way_turns,could_merge\n"
                         : "\nalgorithm,n,seconds,transfers,output_bytes,peak_mb\n");
  for (const auto& bc : cases) {
    if (!o.planners.empty() && std::find(o.planners.begin(), o.planners.end(), bc.planner) == o.planners.end())
      continue;
    const int top = std::min(o.max_log2, largest_log2(bc, o));
    for (int lg = top % 3 == 2 ? 2 : top % 3 == 1 ? 4 : 3; lg <= top; lg += 3) {
      if (o.census) census(bc, std::size_t{1} << lg, o);
      else measure(bc, std::size_t{1} << lg, o);
    }
  }
}

}  // namespace

void add_bench_command(CLI::App* bench) { bench->require_subcommand(1); }

void add_bench_redistribute(CLI::App* red) {
  auto o = std::make_shared<BenchOptions>();
  red->add_option("--max-log2", o->max_log2, "largest ring: 2^max-log2 processors")->check(CLI::Range(4, 24));
  red->add_option("--depth", o->depth, "local family: largest number of items moved across one edge")
      ->check(CLI::Range(1, 1000000));
  red->add_option("--family", o->family,
                  "local (each edge moves at most depth items), drift (targets for speeds drifting +-20% each), "
                  "shuffled (targets: the loads shuffled)")
      ->check(CLI::IsMember({"local", "drift", "shuffled"}));
  red->add_flag("--summary", o->summary, "time the summary (no transfers) instead of the full plan");
  red->add_option("--max-blocks", o->max_blocks, "refuse schedules of more blocks (0: no limit)");
  std::vector<std::string> names;
  for (const auto& bc : bench_cases()) names.emplace_back(bc.planner);
  red->add_option("--algorithms", o->planners, "only these algorithms (default: all)")
      ->delimiter(',')
      ->check(CLI::IsMember(names));
  red->add_flag("--integer-costs", o->integer_costs, "heterogeneous costs rounded up to integers (1 to 4)");
  red->add_flag("--census", o->census,
                "instead of timing, count what the full plans' blocks are made of: per flow (sender and direction), "
                "into processors receiving from both sides, and consecutive blocks of a flow that one could hold");
  red->callback([o] { bench_redistribute(*o); });
}

}  // namespace ringsim::cli
