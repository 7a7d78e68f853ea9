// `ringsim bench ring`: the greedy heuristic's running time and peak memory on platform files
// (loaded by SimGrid, read in either routing mode) and on generated Tiers platforms up to
// --max-hosts hosts (figures only, never pass/fail). Each item runs in a forked child: one SimGrid
// engine per process, and the child's peak resident memory is the item's.
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>
#include <vector>
#include <functional>

#include <unistd.h>

#include <simgrid/s4u/Engine.hpp>

#include "cli/commands.hpp"
#include "io/files.hpp"
#include "io/platform_formats.hpp"
#include "io/process.hpp"
#include "platform/platform_reader.hpp"
#include "platform/ring_platform.hpp"
#include "model/errors.hpp"
#include "model/tiers_generator.hpp"
#include "planners/ring/ring_planner.hpp"

namespace ringsim::cli {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Timing {
  double load = 0.0;   // SimGrid loading the file and ringsim reading the model (routes asked)
  double setup = 0.0;  // RingNetwork (all-pairs widest paths or routes)
  double run = 0.0;    // the method
};

void print_row(const std::string& name, const std::string& routing, const Platform& platform,
               const ring::RingNetwork& net, const ring::RingPlan& plan, const std::string& method, bool prune,
               double ratio, const Timing& t) {
  std::size_t grown = 0;
  for (double x : plan.tstep_by_size) grown += std::isfinite(x) ? 1 : 0;
  std::cout << io::csv_field(name) << ',' << routing << ',' << net.host_count() << ',' << platform.nodes.size() << ','
            << platform.links.size() << ',' << method << (prune ? "" : " (no pruning)") << ',' << ratio << ','
            << std::setprecision(4) << t.load << ',' << t.setup << ',' << t.run << ',' << plan.ring.size() << ','
            << grown << ',' << std::setprecision(8) << plan.tstep << ',' << plan.candidates << ',' << plan.evaluations
            << ',' << std::flush;
}

void plan_and_print(const std::string& name, const std::string& routing, const Platform& platform, double ratio,
                    const std::string& method, bool prune, Timing t) {
  const auto t0 = std::chrono::steady_clock::now();
  const ring::RingNetwork net(platform);
  t.setup = seconds_since(t0);
  const ring::Workload load{1e9, ratio * 1e9};
  ring::RingOptions opt;
  opt.prune = prune;
  const auto t1 = std::chrono::steady_clock::now();
  const auto plan = ring::plan_ring(net, load, method, opt);
  t.run = seconds_since(t1);
  print_row(name, routing, platform, net, plan, method, prune, ratio, t);
}

// Runs `body` in a child and ends its row with the child's peak resident memory (MB). A child that
// fails fails the bench as any command fails (bad input such as a missing platform: exit 2 and one
// line naming it), never a row that glues the error into the CSV.
void in_child(const std::function<void()>& body) {
  io::ChildOptions options;
  options.what = "bench ring";
  options.pipe_from_child = true;
  io::Child child = io::fork_child(
      [&](const io::ChildEnds& ends) {
        const auto say = [&](const std::string& why) {
          if (::write(ends.to_parent, why.data(), why.size()) < 0) {
          }
        };
        try {
          body();
        } catch (const InputError& e) {
          say(e.what());
          return 2;
        } catch (const std::exception& e) {
          say(e.what());
          return 1;
        }
        return 0;
      },
      options);
  const std::string said = child.read_all();
  const io::ChildStatus status = child.wait();
  if (status.exit_status() == 2 && !said.empty()) throw InputError(said);
  if (!status.ok())
    throw std::runtime_error("bench ring: " + (said.empty() ? "a child ended with status " +
                                                                  std::to_string(status.exit_status())
                                                            : said));
  std::cout << std::setprecision(4) << static_cast<double>(status.usage.ru_maxrss) / 1024.0 << '\n' << std::flush;
}

void bench_file(const std::string& file, RingRouting routing, std::size_t candidates, double ratio,
                const std::string& method, bool prune) {
  in_child([&] {
    const auto t0 = std::chrono::steady_clock::now();
    auto& engine = platform::reading_engine();
    platform::LoadedPlatform lp(engine, file);
    lp.seal();
    const auto rp = platform::read_ring_platform(lp, routing, candidates);
    Timing t;
    t.load = seconds_since(t0);
    plan_and_print(file, to_string(rp.routing), rp.model, ratio, method, prune, t);
  });
}
}  // namespace

void add_bench_ring(CLI::App* cmd) {
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
  auto routing = std::make_shared<std::string>("auto");
  auto candidates = std::make_shared<std::size_t>(0);
  cmd->add_option("--routing", *routing, "routing mode for the platform files: auto, free or platform")->default_val("auto");
  cmd->add_option("--candidates", *candidates, "platform files: consider only the N fastest hosts (0: all)");
  cmd->callback([platforms, max_hosts, ratio, method, compare, routing, candidates] {
    ring::check_method(*method);
    const auto mode = ring_routing_from_string(*routing);
    if (!mode) throw InputError("--routing must be auto, free or platform, not '" + *routing + "'");
    std::vector<std::string> files = *platforms;
    if (files.empty() && std::ifstream("platforms/paper2004_tiers90.xml")) files.push_back("platforms/paper2004_tiers90.xml");
    // A platform that cannot be read is refused before any row (the children load the rest).
    for (const auto& f : files) io::sniff_platform_format(f);
    std::cout << "# ringsim bench ring: W = 1e9 flops, H = ratio x W; load = SimGrid loading the file and the model "
                 "read from it (routes asked of SimGrid in platform routing), setup = RingNetwork (all-pairs widest "
                 "paths or routes), run = the method; q = ring chosen, grown = ring sizes reached; peak_rss_mb = the "
                 "item's process\n";
    std::cout << "platform,routing,hosts,nodes,links,method,ratio,load_s,setup_s,run_s,q,grown,tstep,candidates,"
                 "exact_evaluations,peak_rss_mb\n";
    for (const auto& f : files) {
      bench_file(f, *mode, *candidates, *ratio, *method, true);
      if (*compare) bench_file(f, *mode, *candidates, *ratio, *method, false);
    }
    for (std::size_t n : {100, 200, 500, 1000, 2000, 5000}) {
      if (n > *max_hosts) break;
      const std::string name = "tiers-generated-" + std::to_string(n);
      in_child([&] { plan_and_print(name, "free", tiers_platform_with_hosts(n, 42, TiersShape{}), *ratio, *method, true, Timing{}); });
      if (*compare && n <= 200)
        in_child([&] { plan_and_print(name, "free", tiers_platform_with_hosts(n, 42, TiersShape{}), *ratio, *method, false, Timing{}); });
    }
  });
}

}  // namespace ringsim::cli
