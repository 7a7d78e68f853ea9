// `ringsim ring PLATFORM --work W --comm H [--method M] [--size N | --max-size N]`: build a ring
// (SharedRing), JSON out.
// `ringsim ring-sweep PLATFORM --work W --ratios a,b,c [--methods m1,m2] [--by-size]`: the same for
// several H/W ratios and methods, CSV out (the experiments of experiments/sharedring/).
#include <chrono>
#include <cmath>
#include <functional>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>
#include <simgrid/s4u/Engine.hpp>

#include "cli/command_table.hpp"
#include "io/files.hpp"
#include "cli/commands.hpp"
#include "io/ring_json.hpp"
#include "model/errors.hpp"
#include "planners/ring/ring_planner.hpp"
#include "platform/platform_reader.hpp"
#include "platform/ring_platform.hpp"

namespace ringsim::cli {
namespace {

std::string methods_footer() {
  std::string text = "Methods (--method):";
  for (const auto& m : ring::ring_methods()) text += "\n  " + m.name + ": " + m.description;
  text +=
      "\nEvery method's T_step is computed by one evaluator from the bandwidths it allocated, with link sharing "
      "(SHARED links: the paths crossing them in either direction share the bandwidth; FATPIPE: each path gets "
      "it all); shares alpha_i >= 0 (a member whose communication alone exceeds T_step gets no work). "
      "Complete-graph methods (exhaustive, tsp-*, ignore-sharing) choose the ring ignoring sharing and get the "
      "optimal fractions for their paths.\n"
      "Routing (--routing): free (the SharedRing report's assumption: messages may take any path, widest paths on "
      "the platform graph; platforms of one Floyd/Dijkstra zone) or platform (the routes SimGrid uses, any platform: "
      "the method chooses hosts, order and bandwidth shares only); auto: free when the platform is one graph-routed "
      "zone, platform otherwise. Only hosts that reach each other both ways are candidates.\n"
      "PLATFORM: any file SimGrid 3.32 loads (XML 4.1), a Tiers .tiers file or the 2005 XML of the paper's platform "
      "(converted as `ringsim platform import` does with its defaults).";
  return text;
}

struct CommonOptions {
  std::string platform;
  double work = NAN;
  double ilp_time_limit = 30.0;
  double gap = 1e-6;
  bool no_prune = false;
  std::string criterion = "eq4";
  std::string routing = "auto";
  std::size_t candidates = 0;
  double progress_every = 10.0;

  void add_to(CLI::App* cmd) {
    cmd->add_option("PLATFORM", platform, "platform file (SimGrid XML 4.1, .tiers, or the 2005 XML)")->required();
    cmd->add_option("--work", work, "W: flops of one iteration (the whole matrix)")->required();
    cmd->add_option("--routing", routing, "free, platform or auto (see below)")->default_val("auto");
    cmd->add_option("--candidates", candidates,
                    "consider only the N fastest hosts (0: all); large platforms in platform routing need it");
  }

  RingRouting routing_mode() const {
    const auto r = ring_routing_from_string(routing);
    if (!r) throw InputError("--routing must be free, platform or auto, not '" + routing + "'");
    return *r;
  }

  void add_tuning(CLI::App* cmd) {
    cmd->add_option("--time-limit", ilp_time_limit, "tsp-ilp: GLPK time limit in seconds")->default_val(30.0);
    cmd->add_option("--gap", gap, "relative optimality gap at which the global fraction solve stops")
        ->default_val(1e-6);
    cmd->add_flag("--no-prune", no_prune, "greedy: evaluate every insertion candidate (no branch and bound)");
    cmd->add_option("--criterion", criterion,
                    "greedy: what chooses each insertion: eq4 (the report's Equation 4) or exact (T_step with "
                    "alpha >= 0; slower: weaker bounds)")
        ->default_val("eq4");
    cmd->add_option("--progress", progress_every,
                    "greedy: a line on stderr on the ring's growth every SECONDS (0: after every insertion)")
        ->default_val(10.0);
  }

  ring::RingOptions options() const {
    if (!(ilp_time_limit > 0) || !std::isfinite(ilp_time_limit)) throw InputError("--time-limit must be > 0");
    if (!(gap > 0) || !(gap < 1)) throw InputError("--gap must be in (0, 1)");
    ring::RingOptions opt;
    if (criterion == "eq4")
      opt.criterion = ring::GreedyCriterion::eq4;
    else if (criterion == "exact")
      opt.criterion = ring::GreedyCriterion::exact;
    else
      throw InputError("--criterion must be eq4 or exact, not '" + criterion + "'");
    if (!(progress_every >= 0) || !std::isfinite(progress_every))
      throw InputError("--progress must be a number of seconds >= 0");
    opt.prune = !no_prune;
    opt.ilp_time_limit = ilp_time_limit;
    opt.global_gap = gap;
    opt.progress = progress_printer(progress_every);
    return opt;
  }

  // Where no two hosts are interchangeable (a SimGrid fat tree) a ring of thousands can take hours:
  // say how far it got and how many candidates may remain, at most every `every` seconds.
  static std::function<void(const ring::GreedyProgress&)> progress_printer(double every) {
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    auto last = std::make_shared<clock::time_point>(start);
    return [every, start, last](const ring::GreedyProgress& g) {
      const auto now = clock::now();
      if (std::chrono::duration<double>(now - *last).count() < every) return;
      *last = now;
      // At most (p - q) q candidates at each step q still to come (ring sizes r .. p - 1).
      double left = 0.0;
      for (std::size_t q = g.ring_size; q < g.hosts; ++q)
        left += static_cast<double>(g.hosts - q) * static_cast<double>(q);
      std::cerr << "greedy: ring of " << g.ring_size << " of " << g.hosts << " hosts after " << std::fixed
                << std::setprecision(1) << std::chrono::duration<double>(now - start).count() << " s, "
                << g.candidates << " insertions considered, " << g.evaluations << " evaluated exactly, at most "
                << std::setprecision(3) << std::defaultfloat << left << " left to consider\n";
    };
  }
};

// The one SimGrid engine of this process loads the platform; the planners get ringsim's model of it.
platform::RingPlatform load_ring_platform(const CommonOptions& common, RingRouting mode) {
  auto& engine = platform::reading_engine();
  platform::LoadedPlatform lp(engine, common.platform);
  lp.seal();
  return platform::read_ring_platform(lp, mode, common.candidates);
}

void add_platform_keys(nlohmann::json& doc, const platform::RingPlatform& loaded) {
  doc["routing"] = to_string(loaded.routing);
  doc["platform_hosts"] = loaded.platform_hosts;
  doc["candidate_hosts"] = loaded.candidates;
  if (!loaded.left_out.empty()) doc["left_out"] = loaded.left_out;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

double parse_ratio(const std::string& s) {
  std::size_t used = 0;
  double x = NAN;
  try {
    x = std::stod(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != s.size() || !std::isfinite(x) || x <= 0)
    throw InputError("--ratios: '" + s + "' is not a finite number > 0");
  return x;
}

std::string csv_number(double x) {
  if (!std::isfinite(x)) return "";
  std::ostringstream out;
  out << std::setprecision(10) << x;
  return out.str();
}

}  // namespace

void add_ring_command(CLI::App* cmd) {
  cmd->footer(methods_footer());
  auto common = std::make_shared<CommonOptions>();
  auto comm = std::make_shared<double>(NAN);
  auto method = std::make_shared<std::string>("greedy");
  common->add_to(cmd);
  cmd->add_option("--comm", *comm, "H: bytes each member sends to each neighbour per iteration")->required();
  cmd->add_option("--method", *method, "ring construction method (see below)")->default_val("greedy");
  // Read as signed integers so that a negative size gets the same message as 0.
  auto size = std::make_shared<long long>(0);
  auto max_size = std::make_shared<long long>(0);
  auto* size_opt = cmd->add_option("--size", *size,
                                   "N: the best ring of exactly N hosts the greedy grows (greedy methods only; "
                                   "exit 2 if the greedy cannot grow N; not with --max-size)");
  auto* max_size_opt = cmd->add_option("--max-size", *max_size,
                                       "N: the best ring of at most N hosts (greedy methods only; the growth stops "
                                       "at N; not with --size)");
  common->add_tuning(cmd);
  cmd->callback([common, comm, method, size, max_size, size_opt, max_size_opt] {
    const ring::Workload load{common->work, *comm};
    ring::check_workload(load);
    ring::check_method(*method);
    auto opt = common->options();
    for (auto [given, value, name, field] :
         {std::tuple{size_opt->count() > 0, *size, "--size", &opt.size},
          std::tuple{max_size_opt->count() > 0, *max_size, "--max-size", &opt.max_size}}) {
      if (!given) continue;
      if (value < 1) throw InputError(std::string(name) + " must be an integer >= 1 (hosts in the ring)");
      *field = static_cast<std::size_t>(value);
    }
    ring::check_size_options(*method, opt);
    const auto mode = common->routing_mode();
    const auto loaded = load_ring_platform(*common, mode);
    const ring::RingNetwork net(loaded.model);
    const auto plan = ring::plan_ring(net, load, *method, opt);
    auto doc = io::ring_plan_to_json(net, load, plan);
    add_platform_keys(doc, loaded);
    std::cout << doc.dump() << '\n';
  });
}

void add_ring_sweep_command(CLI::App* cmd) {
  cmd->footer(methods_footer() +
              "\nOne row per (method, ratio): q, T_step, T_step/W, ...; with --by-size one row per (method, "
              "ratio, ring size) from the ring the method grew (greedy family: true T_step; ignore-sharing and "
              "exhaustive: their objective without sharing).");
  auto common = std::make_shared<CommonOptions>();
  auto ratios = std::make_shared<std::string>();
  auto methods = std::make_shared<std::string>("greedy");
  auto by_size = std::make_shared<bool>(false);
  auto timing = std::make_shared<bool>(false);
  common->add_to(cmd);
  cmd->add_option("--ratios", *ratios, "comma-separated H/W values (bytes per flop); H = ratio x W")->required();
  cmd->add_option("--methods", *methods, "comma-separated methods")->default_val("greedy");
  cmd->add_flag("--by-size", *by_size, "one row per ring size instead of one per run");
  cmd->add_flag("--timing", *timing, "add a `seconds` column (makes the output depend on the machine)");
  common->add_tuning(cmd);
  cmd->callback([common, ratios, methods, by_size, timing] {
    ring::check_workload({common->work, 1.0});
    const auto opt = common->options();
    std::vector<double> rs;
    for (const auto& s : split_list(*ratios)) rs.push_back(parse_ratio(s));
    if (rs.empty()) throw InputError("--ratios lists no value");
    const auto ms = split_list(*methods);
    if (ms.empty()) throw InputError("--methods lists no method");
    for (const auto& m : ms) ring::check_method(m);
    const auto loaded = load_ring_platform(*common, common->routing_mode());
    const ring::RingNetwork net(loaded.model);
    const std::string name = io::csv_field(io::basename_of(common->platform));  // a file name may hold a comma
    if (*by_size)
      std::cout << "platform,method,ratio,q,tstep,tstep_per_work,objective,objective_per_work\n";
    else
      std::cout << "platform,method,ratio,work,comm,q,tstep,tstep_per_work,tstep_eq4,objective,fraction_gap,"
                   "optimal,candidates,exact_evaluations"
                << (*timing ? ",seconds" : "") << "\n";
    for (const auto& m : ms)
      for (double r : rs) {
        const ring::Workload load{common->work, r * common->work};
        const auto t0 = std::chrono::steady_clock::now();
        const auto plan = ring::plan_ring(net, load, m, opt);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (*by_size) {
          const std::size_t n = std::max(plan.tstep_by_size.size(), plan.objective_by_size.size());
          for (std::size_t q = 1; q <= n; ++q) {
            const double t = q <= plan.tstep_by_size.size() ? plan.tstep_by_size[q - 1] : NAN;
            const double o = q <= plan.objective_by_size.size() ? plan.objective_by_size[q - 1] : NAN;
            if (!std::isfinite(t) && !std::isfinite(o)) continue;
            std::cout << name << ',' << m << ',' << csv_number(r) << ',' << q << ',' << csv_number(t) << ','
                      << csv_number(t / load.work) << ',' << csv_number(o) << ',' << csv_number(o / load.work)
                      << '\n';
          }
        } else {
          std::cout << name << ',' << m << ',' << csv_number(r) << ',' << csv_number(load.work) << ','
                    << csv_number(load.comm) << ',' << plan.ring.size() << ',' << csv_number(plan.tstep) << ','
                    << csv_number(plan.tstep / load.work) << ',' << csv_number(plan.tstep_eq4) << ','
                    << csv_number(plan.objective) << ',' << csv_number(plan.fraction_gap) << ','
                    << (plan.optimal ? (*plan.optimal ? "true" : "false") : "") << ',' << plan.candidates << ','
                    << plan.evaluations;
          if (*timing) std::cout << ',' << csv_number(secs);
          std::cout << '\n';
        }
        std::cout.flush();
      }
  });
}

}  // namespace ringsim::cli
