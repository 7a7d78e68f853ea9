// `ringsim bench ring`: the greedy heuristic's running time on the 2004 paper's 90-host platform
// and on generated Tiers platforms up to --max-hosts hosts (figures only, never pass/fail).
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "io/platform_xml.hpp"
#include "model/errors.hpp"
#include "model/tiers_generator.hpp"
#include "planners/ring/ring_planner.hpp"

namespace ringsim::cli {
namespace {

// A Tiers platform with exactly `hosts` hosts: one WAN of 10 nodes, MANs of 10 nodes, 5 LANs of
// 10 nodes per MAN, enough MANs for 1.25 LAN nodes per host (the 2005 conversion's measured values).
Platform generated_platform(std::size_t hosts, std::uint64_t seed) {
  TiersParameters tp;
  tp.nw = 1;
  tp.sw = 10;
  tp.sm = 10;
  tp.nl = 5;
  tp.sl = 10;
  tp.nm = static_cast<int>((hosts * 5 / 4 + 49) / 50);
  tp.rw = 2;
  tp.rm = 2;
  tp.rl = 1;
  tp.rmw = 2;
  tp.rlm = 1;
  TiersConversion conv;
  conv.seed = seed;
  conv.host_count = hosts;
  conv.prune_routers = true;
  Platform p = tiers_to_platform(generate_tiers_graph(tp, seed), embedded_measured_values(), conv);
  validate(p);
  return p;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void bench_one(const std::string& name, const Platform& platform, double ratio, const std::string& method,
               bool prune) {
  const auto t0 = std::chrono::steady_clock::now();
  const ring::RingNetwork net(platform);
  const double setup = seconds_since(t0);
  const ring::Workload load{1e9, ratio * 1e9};
  ring::RingOptions opt;
  opt.prune = prune;
  const auto t1 = std::chrono::steady_clock::now();
  const auto plan = ring::plan_ring(net, load, method, opt);
  const double run = seconds_since(t1);
  std::size_t grown = 0;
  for (double t : plan.tstep_by_size) grown += std::isfinite(t) ? 1 : 0;
  std::cout << name << ',' << net.host_count() << ',' << platform.nodes.size() << ',' << platform.links.size() << ','
            << method << (prune ? "" : " (no pruning)") << ',' << ratio << ',' << std::setprecision(4) << setup
            << ',' << run << ',' << plan.ring.size() << ',' << grown << ',' << std::setprecision(8) << plan.tstep
            << ',' << plan.candidates << ',' << plan.evaluations << std::endl;
}

}  // namespace

void add_bench_ring(CLI::App& bench) {
  auto* cmd = bench.add_subcommand("ring", "Greedy ring construction time: the paper's 90-host platform, then "
                                           "generated Tiers platforms up to --max-hosts hosts");
  auto platforms = std::make_shared<std::vector<std::string>>();
  auto max_hosts = std::make_shared<std::size_t>(1000);
  auto ratio = std::make_shared<double>(1e-3);
  auto method = std::make_shared<std::string>("greedy");
  auto compare = std::make_shared<bool>(false);
  cmd->add_option("--platform", *platforms,
                  "platform files to time (default: platforms/paper2004_tiers90.xml when it exists)");
  cmd->add_option("--max-hosts", *max_hosts, "largest generated platform (100, 200, 500, 1000, 2000 ... hosts)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{100000}));
  cmd->add_option("--ratio", *ratio, "H/W in bytes per flop (W = 1e9 flops)")->check(CLI::PositiveNumber);
  cmd->add_option("--method", *method, "method to time")->default_val("greedy");
  cmd->add_flag("--compare-no-prune", *compare, "also time the greedy without branch and bound (slow)");
  cmd->callback([platforms, max_hosts, ratio, method, compare] {
    ring::check_method(*method);
    std::vector<std::string> files = *platforms;
    if (files.empty() && std::ifstream("platforms/paper2004_tiers90.xml")) files.push_back("platforms/paper2004_tiers90.xml");
    std::cout << "# ringsim bench ring: W = 1e9 flops, H = ratio x W; setup = RingNetwork (all-pairs widest "
                 "paths), run = the method; q = ring chosen, grown = ring sizes reached\n";
    std::cout << "platform,hosts,nodes,links,method,ratio,setup_s,run_s,q,grown,tstep,candidates,exact_evaluations\n";
    for (const auto& f : files) {
      const Platform p = io::read_platform_xml(f);
      bench_one(f, p, *ratio, *method, true);
      if (*compare) bench_one(f, p, *ratio, *method, false);
    }
    for (std::size_t n : {100, 200, 500, 1000, 2000, 5000}) {
      if (n > *max_hosts) break;
      const Platform p = generated_platform(n, 42);
      const std::string name = "tiers-generated-" + std::to_string(n);
      bench_one(name, p, *ratio, *method, true);
      if (*compare && n <= 200) bench_one(name, p, *ratio, *method, false);
    }
  });
}

}  // namespace ringsim::cli
