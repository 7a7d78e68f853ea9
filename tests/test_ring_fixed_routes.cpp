// The ring planners in "platform" routing mode (Full zones: the paths are the platform's routes)
// on the seeded random platforms of oracles/fixed_route_platforms.hpp (clusters, WAN links,
// Vivaldi zones through the latency-only link, asymmetric routes, arbitrary Full zones): the
// network's bottlenecks and routes, exhaustive against the brute force, every method's answer
// checked by the oracles of oracles/fixed_route_oracles.hpp (expected values computed from the
// Platform's routes, never from RingNetwork), greedy's pruning, and the planner runs isolated in
// children (isolated_runs.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "isolated_runs.hpp"
#include "model/errors.hpp"
#include "model/platform_graph.hpp"
#include "oracles/fixed_route_oracles.hpp"
#include "oracles/fixed_route_platforms.hpp"
#include "oracles/ring_bruteforce.hpp"
#include "oracles/ring_platforms.hpp"
#include "planners/ring/ring_planner.hpp"
#include "repo_files.hpp"

using namespace ringsim;
using namespace ringsim::ring;

namespace {

using ringsim::oracles::check_fixed_route_answer;
using ringsim::testing::FixedRouteInstance;
using ringsim::testing::fixed_route_instances;
using ringsim::testing::host_speeds;
using ringsim::testing::isolated_runs;
using ringsim::testing::PlanOutcome;

constexpr double kRel = 1e-9;

std::string ring_string(const Platform& p, const std::vector<std::size_t>& ring) {
  std::string s;
  for (auto h : ring) s += (s.empty() ? "" : " ") + p.nodes[p.host_indices()[h]].name;
  return "[" + s + "]";
}

// Failures are counted per kind; the first few are reported in full (with the instance).
class Failures {
 public:
  void add(const std::string& category, const FixedRouteInstance& inst, const std::string& detail) {
    ++count_[category];
    ++total_;
    if (count_[category] <= 3) {
      std::ostringstream msg;
      msg.precision(17);
      msg << category << ": " << detail << "\n" << describe(inst);
      FAIL_CHECK(msg.str());
    }
  }
  void finish(const std::string& what, std::size_t checked) {
    std::ostringstream summary;
    for (const auto& [c, n] : count_) summary << "\n  " << n << " x " << c;
    MESSAGE(what << ": " << checked << " instances checked, " << total_ << " failures" << summary.str());
    CHECK_MESSAGE(total_ == 0, what << ": " << total_ << " failures (the first three of each kind are reported above)");
  }

 private:
  std::map<std::string, std::size_t> count_;
  std::size_t total_ = 0;
};

// Brute-force optimum (every subset, every order, route bottlenecks, sharing ignored), cached.
double brute_force(const FixedRouteInstance& inst) {
  static std::map<int, double> cache;
  const auto it = cache.find(inst.id);
  if (it != cache.end()) return it->second;
  const double v = oracles::brute_force_complete_graph(host_speeds(inst.platform), oracles::route_costs(inst.platform),
                                                       inst.load.work, inst.load.comm);
  cache[inst.id] = v;
  return v;
}

// A method's outcomes on every instance, computed once, in one batch (the test cases share them).
const PlanOutcome& outcome(const FixedRouteInstance& inst, const std::string& method) {
  static std::map<std::string, std::vector<PlanOutcome>> cache;
  auto it = cache.find(method);
  if (it == cache.end()) {
    const auto& all = fixed_route_instances();
    it = cache.emplace(method, isolated_runs(all.size(), [&](std::size_t i) {
                         const RingNetwork net(all[i].platform);
                         return plan_ring(net, all[i].load, method);
                       })).first;
  }
  return it->second.at(static_cast<std::size_t>(inst.id));
}

// "greedy threw (latency-only routes)": the failure's kind, for the summary.
std::string failure_kind(const std::string& method, const FixedRouteInstance& inst, const std::string& error) {
  return method + (error.rfind("crashed", 0) == 0 ? " crashed" : " threw") +
         (inst.has_latency_only() ? " (instance with latency-only routes)" : "");
}

// The method's plan on the instance, or nullptr once its failure is recorded.
const RingPlan* answer(const FixedRouteInstance& inst, const std::string& method, Failures& failures) {
  const PlanOutcome& out = outcome(inst, method);
  if (out.error.empty()) return &out.plan;
  failures.add(failure_kind(method, inst, out.error), inst, out.error);
  return nullptr;
}

const char* const kFixedRouteMethods[] = {"greedy", "greedy-maxmin", "greedy-global", "exhaustive", "tsp-local", "ignore-sharing"};

bool close(double x, double y) { return std::abs(x - y) <= kRel * std::max(std::abs(x), std::abs(y)); }

}  // namespace

TEST_CASE("fixed routes: full_bandwidth is the route's bottleneck and route() lists the route's links") {
  Failures failures;
  std::size_t pairs = 0, latency_only_pairs = 0;
  for (const auto& inst : fixed_route_instances()) {
    const Platform& p = inst.platform;
    const RingNetwork net(p);
    if (!net.fixed_routes()) failures.add("not fixed routes", inst, "fixed_routes() is false");
    const auto r = oracles::routes_of(p);
    const auto bw = oracles::route_bandwidths(p);
    // The latency-only link, as platform/ring_platform.cpp adds it: one FATPIPE link of 1e20 B/s.
    std::size_t named_latency_only = 0;
    for (const auto& l : p.links) named_latency_only += l.name == kLatencyOnlyLink ? 1 : 0;
    if (named_latency_only != (inst.has_latency_only() ? 1u : 0u))
      failures.add("latency-only link", inst, std::to_string(named_latency_only) + " links named kLatencyOnlyLink");
    if (inst.has_latency_only()) {
      const auto& l = p.links[inst.latency_only];
      if (l.name != kLatencyOnlyLink || l.sharing != SharingPolicy::fatpipe || l.bandwidth != kLatencyOnlyBandwidth)
        failures.add("latency-only link", inst, "not the FATPIPE kLatencyOnlyLink of kLatencyOnlyBandwidth");
    }
    for (std::size_t a = 0; a < r.size(); ++a)
      for (std::size_t b = 0; b < r.size(); ++b) {
        if (a == b) continue;
        ++pairs;
        std::ostringstream pair;
        pair.precision(17);
        pair << net.host_name(a) << " -> " << net.host_name(b);
        if (r[a][b].empty()) failures.add("route without link", inst, pair.str() + ": the instance lists no link");
        if (inst.has_latency_only() && r[a][b] == std::vector<std::size_t>{inst.latency_only}) {
          ++latency_only_pairs;
          if (!(net.full_bandwidth(a, b) == kLatencyOnlyBandwidth))
            failures.add("latency-only full_bandwidth", inst,
                         pair.str() + ": full_bandwidth " + std::to_string(net.full_bandwidth(a, b)) + ", expected 1e20");
        }
        if (net.host_name(a) != p.nodes[a].name) failures.add("host ids", inst, pair.str() + ": host ids are not node order");
        if (!(net.full_bandwidth(a, b) == bw[a][b]))
          failures.add("full_bandwidth", inst,
                       pair.str() + ": full_bandwidth " + std::to_string(net.full_bandwidth(a, b)) + ", route bottleneck " +
                           std::to_string(bw[a][b]));
        if (!(net.from_row(a)[b] == bw[a][b]) || !(net.to_row(b)[a] == bw[a][b]))
          failures.add("from_row/to_row", inst, pair.str() + ": rows disagree with the route bottleneck");
        if (r[a][b] != net.route(a, b)) failures.add("route", inst, pair.str() + ": route() is not the platform's route");
        if (!(net.pair_path(a, b).links == r[a][b])) failures.add("pair_path", inst, pair.str() + ": pair_path is not the route");
      }
  }
  std::size_t latency_only = 0, fat = 0, shared_links = 0;
  std::map<std::string, std::size_t> kinds;
  for (const auto& inst : fixed_route_instances()) {
    latency_only += inst.has_latency_only() ? 1 : 0;
    fat += inst.all_fatpipe ? 1 : 0;
    ++kinds[inst.kind.substr(0, inst.kind.find_first_of(":,"))];
    for (const auto& l : inst.platform.links) shared_links += l.sharing == SharingPolicy::shared ? 1 : 0;
  }
  std::ostringstream overview;
  for (const auto& [k, count] : kinds) overview << " " << count << " x " << k << ";";
  MESSAGE("instances:" << overview.str() << " " << latency_only << " with latency-only routes ("
                       << latency_only_pairs << " ordered pairs through the latency-only link), " << fat
                       << " all FATPIPE, " << shared_links << " SHARED links in all");
  CHECK(latency_only_pairs > 0);
  failures.finish("routes and bottlenecks (" + std::to_string(pairs) + " ordered pairs)",
                  fixed_route_instances().size());
}

TEST_CASE("fixed routes: exhaustive reaches the brute force over every subset and every order") {
  Failures failures;
  for (const auto& inst : fixed_route_instances()) {
    const Platform& p = inst.platform;
    const double oracle = brute_force(inst);
    const RingPlan* answered = answer(inst, "exhaustive", failures);
    if (!answered) continue;
    const RingPlan& plan = *answered;
    std::ostringstream d;
    d.precision(17);
    d << "objective " << plan.objective << ", brute force " << oracle << ", ring " << ring_string(p, plan.ring);
    if (!close(plan.objective, oracle)) failures.add("objective != brute force", inst, d.str());
    if (!plan.optimal.value_or(false)) failures.add("not marked optimal", inst, d.str());
    // Its ring reaches the objective with the route costs.
    const double own = oracles::ring_tstep_no_sharing(host_speeds(p), oracles::route_costs(p), inst.load, plan.ring);
    if (!close(own, oracle)) failures.add("ring's no-sharing T_step != brute force", inst, d.str() + ", ring's " + std::to_string(own));
  }
  failures.finish("exhaustive vs brute force", fixed_route_instances().size());
}

TEST_CASE("fixed routes (every link FATPIPE): exhaustive's T_step is the brute-force optimum and no method beats it") {
  Failures failures;
  std::size_t checked = 0;
  for (const auto& inst : fixed_route_instances()) {
    if (!inst.all_fatpipe) continue;
    ++checked;
    const Platform& p = inst.platform;
    const double oracle = brute_force(inst);
    const auto cost = oracles::route_costs(p);
    for (const char* m : kFixedRouteMethods) {
      const RingPlan* answered = answer(inst, m, failures);
      if (!answered) continue;
      const RingPlan& plan = *answered;
      std::ostringstream d;
      d.precision(17);
      d << m << ": T_step " << plan.tstep << ", brute force " << oracle << ", ring " << ring_string(p, plan.ring);
      if (std::string(m) == "exhaustive" && !close(plan.tstep, oracle)) failures.add("exhaustive T_step != brute force", inst, d.str());
      if (plan.tstep < oracle * (1 - kRel)) failures.add(std::string(m) + " below the optimum", inst, d.str());
      // Nothing is shared: every path can have its route's bottleneck, and every method's
      // allocation gives it (T_step = the ring's complete-graph T_step).
      const double own = oracles::ring_tstep_no_sharing(host_speeds(p), cost, inst.load, plan.ring);
      if (!close(plan.tstep, own))
        failures.add(std::string(m) + " T_step != its ring's no-sharing T_step", inst, d.str() + ", ring's " + std::to_string(own));
    }
  }
  CHECK(checked >= 100);
  failures.finish("all-FATPIPE instances", checked);
}

TEST_CASE("fixed routes: every method's answer uses the routes, fits the links, and never beats the no-sharing optimum") {
  Failures failures;
  std::size_t answers = 0, slower = 0;
  std::map<std::size_t, std::size_t> sizes;
  for (const auto& inst : fixed_route_instances()) {
    const Platform& p = inst.platform;
    const RingNetwork net(p);
    const double oracle = brute_force(inst);
    for (const char* m : kFixedRouteMethods) {
      const RingPlan* answered = answer(inst, m, failures);
      if (!answered) continue;
      const RingPlan& plan = *answered;
      ++answers;
      std::ostringstream d;
      d.precision(17);
      d << m << ": T_step " << plan.tstep << ", no-sharing optimum " << oracle << ", ring " << ring_string(p, plan.ring);
      const auto err = check_fixed_route_answer(p, inst.load, testing::to_answer(net, plan));
      if (!err.empty()) failures.add(std::string(m) + " inconsistent answer", inst, d.str() + ": " + err);
      if (!(plan.tstep >= oracle * (1 - kRel))) failures.add(std::string(m) + " below the no-sharing optimum", inst, d.str());
      if (plan.tstep > oracle * (1 + 1e-6)) ++slower;
      if (std::string(m) == "exhaustive") ++sizes[plan.ring.size()];
    }
  }
  std::ostringstream stats;
  stats << "exhaustive's ring sizes:";
  for (const auto& [q, count] : sizes) stats << " " << count << " x " << q;
  MESSAGE(stats.str() << "; " << slower << " of " << answers << " answers slower than the no-sharing optimum");
  failures.finish("every method on every instance (" + std::to_string(answers) + " answers)",
                  fixed_route_instances().size());
}

TEST_CASE("fixed routes: a planner run that crashes is reported as such, and the other runs of its batch are kept") {
  if (std::getenv("RINGSIM_TEST_NO_FORK")) return;  // crashes are caught only in a child
  RingPlan plan;
  plan.ring = {0, 1};
  const std::vector<PlanOutcome> runs = isolated_runs(6, [&](std::size_t i) {
    if (i == 2 || i == 5) std::abort();
    if (i == 3) throw std::invalid_argument("no ring");
    RingPlan p = plan;
    p.tstep = static_cast<double>(i);
    return p;
  });
  REQUIRE(runs.size() == 6);
  for (std::size_t i : {0, 1, 4}) {
    CHECK(runs[i].error.empty());
    CHECK(runs[i].plan.tstep == static_cast<double>(i));
    CHECK(runs[i].plan.ring == plan.ring);
  }
  CHECK(runs[2].error.rfind("crashed: signal 6", 0) == 0);
  CHECK(runs[3].error == "threw: no ring");
  CHECK(runs[5].error.rfind("crashed: signal 6", 0) == 0);
}

TEST_CASE("fixed routes: greedy's branch and bound picks what evaluating every candidate picks") {
  // The bounds that prune (pool_capacity, pair_shared_bandwidth) must hold on asymmetric routes.
  Failures failures;
  std::size_t checked = 0, both_failed = 0;
  const auto& all = fixed_route_instances();
  const GreedyCriterion criteria[] = {GreedyCriterion::eq4, GreedyCriterion::exact};
  // Run 4 k + 2 c + f: instance k, criteria[c], pruned (f = 0) or evaluating every candidate (f = 1).
  const std::vector<PlanOutcome> runs = isolated_runs(4 * all.size(), [&](std::size_t run) {
    const FixedRouteInstance& inst = all[run / 4];
    const RingNetwork net(inst.platform);
    RingOptions options;
    options.criterion = criteria[(run / 2) % 2];
    options.prune = run % 2 == 0;
    return plan_greedy(net, inst.load, Refinement::none, options);
  });
  for (std::size_t k = 0; k < all.size(); ++k) {
    const FixedRouteInstance& inst = all[k];
    ++checked;
    for (std::size_t c = 0; c < 2; ++c) {
      const GreedyCriterion criterion = criteria[c];
      const PlanOutcome& a = runs[4 * k + 2 * c];
      const PlanOutcome& b = runs[4 * k + 2 * c + 1];
      if (!a.error.empty() || !b.error.empty()) {
        if (a.error != b.error)
          failures.add("pruned and full fail differently", inst, "pruned: " + a.error + "; full: " + b.error);
        // Otherwise both failed alike: the test case on every method's answer reports it.
        ++both_failed;
        continue;
      }
      std::ostringstream d;
      d.precision(17);
      d << (criterion == GreedyCriterion::eq4 ? "eq4" : "exact") << ": pruned " << ring_string(inst.platform, a.plan.ring)
        << " T_step " << a.plan.tstep << ", full " << ring_string(inst.platform, b.plan.ring) << " T_step " << b.plan.tstep;
      if (a.plan.ring != b.plan.ring || !(a.plan.tstep == b.plan.tstep)) failures.add("pruned != full", inst, d.str());
    }
  }
  MESSAGE(both_failed << " runs failed alike with and without pruning (reported by the test case on every method)");
  failures.finish("greedy, pruned vs full evaluation", checked);
}

TEST_CASE("fixed routes: on a Vivaldi zone (every route latency-only) every method uses every host") {
  // Every route crosses only the FATPIPE latency-only link of 1e20 B/s: a host's communication
  // time (2 H / 1e20 <= 2e-12 s) is ~1e-14 of its compute time (W / speed >= 2 s), so the best
  // ring is every host, T_step = W / sum of speeds to a relative 1e-9 (kRel), and the greedy
  // reaches it too (each insertion lowers Equation 4).
  Failures failures;
  std::size_t checked = 0;
  for (const auto& inst : fixed_route_instances()) {
    if (!inst.has_latency_only()) continue;
    bool vivaldi = true;
    for (const auto& r : inst.platform.routes) vivaldi = vivaldi && r.links == std::vector<std::size_t>{inst.latency_only};
    if (!vivaldi) continue;
    ++checked;
    double speed_sum = 0.0;
    for (double s : host_speeds(inst.platform)) speed_sum += s;
    const double expected = inst.load.work / speed_sum;
    if (!close(brute_force(inst), expected))
      failures.add("brute force != W / sum of speeds", inst, std::to_string(brute_force(inst)));
    for (const char* m : kFixedRouteMethods) {
      const RingPlan* plan = answer(inst, m, failures);
      if (!plan) continue;
      std::ostringstream d;
      d.precision(17);
      d << m << ": T_step " << plan->tstep << ", W / sum of speeds " << expected << ", ring "
        << ring_string(inst.platform, plan->ring);
      if (!close(plan->tstep, expected)) failures.add(std::string(m) + " T_step != W / sum of speeds", inst, d.str());
      if (plan->ring.size() != inst.platform.host_count())
        failures.add(std::string(m) + " does not use every host", inst, d.str());
    }
  }
  CHECK(checked >= 50);
  failures.finish("Vivaldi zones", checked);
}

TEST_CASE("fixed routes: the route oracles catch what they must") {
  // Three hosts; a -> b and b -> a through different links; c reached from a latency-only (as
  // platform/ring_platform.cpp builds it: through the FATPIPE kLatencyOnlyLink of 1e20 B/s).
  Platform p;
  p.routing = ZoneRouting::full;
  const auto a = p.add_host("a", 100e6), b = p.add_host("b", 100e6), c = p.add_host("c", 50e6);
  const auto ab = p.add_link("ab", 10e6, 1e-4), ba = p.add_link("ba", 20e6, 1e-4);
  const auto fat = p.add_link("fat", 5e6, 1e-4, SharingPolicy::fatpipe);
  const auto lo = p.add_link(kLatencyOnlyLink, kLatencyOnlyBandwidth, 0.0, SharingPolicy::fatpipe);
  p.routes = {{a, b, {ab}, false}, {b, a, {ba, fat}, false}, {a, c, {lo}, false},
              {c, a, {ab}, false}, {b, c, {ba}, false},      {c, b, {fat, ab}, false}};
  validate(p);
  const auto bw = oracles::route_bandwidths(p);
  CHECK(bw[0][1] == 10e6);
  CHECK(bw[1][0] == 5e6);
  CHECK(bw[0][2] == kLatencyOnlyBandwidth);
  CHECK(oracles::route_costs(p)[0][2] == 1.0 / kLatencyOnlyBandwidth);
  const Workload load{1e9, 1e6};
  // Brute force on a hand-computable case: a and b only, T = max(b_i) or the balanced value.
  const double t_ab = oracles::ring_tstep_no_sharing(host_speeds(p), oracles::route_costs(p), load, {0, 1});
  // a: H (1/10e6 + 1/10e6) = 0.2 s, b: H (2/5e6) = 0.4 s; a_i = 10 s: (2T - 0.6) / 10 = 1 -> T = 5.3.
  CHECK(t_ab == doctest::Approx(5.3).epsilon(1e-12));
  // An answer for ring (a, b): paths a -> b (ab) twice, b -> a (ba, fat) twice.
  oracles::RingAnswer ans;
  ans.ring = {"a", "b"};
  ans.succ_links = {{"ab"}, {"ba", "fat"}};
  ans.pred_links = {{"ab"}, {"ba", "fat"}};
  ans.succ_bw = {5e6, 5e6};
  ans.pred_bw = {5e6, 5e6};
  // a: 2 H / 5e6 = 0.4, b: 0.4: T = (2T - 0.8) / 10 = 1 -> 5.4.
  ans.tstep = 5.4;
  CHECK(check_fixed_route_answer(p, load, ans) == "");
  auto bad = ans;
  bad.succ_bw[0] = 6e6;  // ab carries 11e6 > 10e6
  CHECK(check_fixed_route_answer(p, load, bad).find("SHARED link ab") != std::string::npos);
  bad = ans;
  bad.succ_bw[1] = bad.pred_bw[1] = 6e6;  // fat is 5e6 per path; ba carries 12e6 <= 20e6
  CHECK(check_fixed_route_answer(p, load, bad).find("FATPIPE link fat") != std::string::npos);
  bad = ans;
  bad.succ_links[1] = {"fat", "ba"};  // the links, but not in the route's order
  CHECK(check_fixed_route_answer(p, load, bad).find("route") != std::string::npos);
  bad = ans;
  bad.tstep = 5.3;
  CHECK(check_fixed_route_answer(p, load, bad).find("T_step") != std::string::npos);
  // A latency-only path crosses the latency-only link, a FATPIPE link of 1e20 B/s (by both checks).
  oracles::RingAnswer lat;
  lat.ring = {"a", "c"};
  lat.succ_links = {{kLatencyOnlyLink}, {"ab"}};
  lat.pred_links = {{kLatencyOnlyLink}, {"ab"}};
  lat.succ_bw = {kLatencyOnlyBandwidth, 5e6};
  lat.pred_bw = {kLatencyOnlyBandwidth, 5e6};
  // a: 2 H / 1e20 = 2e-14, c: 2 H / 5e6 = 0.4, a_a = 10, a_c = 20:
  // (T - 2e-14) / 10 + (T - 0.4) / 20 = 1 -> T = (20.4 + 4e-14) / 3.
  lat.tstep = (20.4 + 4e-14) / 3;
  CHECK(check_fixed_route_answer(p, load, lat) == "");
  CHECK(oracles::check_ring_answer(p, load.work, load.comm, lat) == "");
  bad = lat;
  bad.succ_links[0] = {"ab"};  // not a -> c's route
  CHECK(check_fixed_route_answer(p, load, bad) != "");
  bad = lat;
  bad.succ_links[0] = {};  // the route lists the latency-only link: an empty path is not it
  CHECK(check_fixed_route_answer(p, load, bad) != "");
  bad = lat;
  bad.succ_bw[0] = 2 * kLatencyOnlyBandwidth;  // more than the FATPIPE link's 1e20 per path
  CHECK(check_fixed_route_answer(p, load, bad).find(std::string("FATPIPE link ") + kLatencyOnlyLink) !=
        std::string::npos);
}

TEST_CASE("fixed routes: validate() rejects a route that lists no link") {
  // SimGrid's latency-only routes reach the model through kLatencyOnlyLink, never as an empty list.
  auto platform = [](bool empty, bool symmetrical) {
    Platform p;
    p.routing = ZoneRouting::full;
    const auto a = p.add_host("a", 100e6), b = p.add_host("b", 100e6);
    const auto ab = p.add_link("ab", 10e6, 1e-4);
    const auto lo = p.add_link(kLatencyOnlyLink, kLatencyOnlyBandwidth, 0.0, SharingPolicy::fatpipe);
    if (symmetrical) {
      p.routes = {{a, b, empty ? std::vector<std::size_t>{} : std::vector<std::size_t>{lo}, true}};
    } else {
      p.routes = {{a, b, {ab}, false}, {b, a, empty ? std::vector<std::size_t>{} : std::vector<std::size_t>{lo}, false}};
    }
    return p;
  };
  auto error_of = [](const Platform& p) -> std::string {
    try {
      validate(p);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  // Through the latency-only link: accepted.
  CHECK(error_of(platform(false, false)) == "");
  CHECK(error_of(platform(false, true)) == "");
  // Without any link: rejected, the route named.
  const auto one_way = error_of(platform(true, false));
  CHECK_MESSAGE(one_way.find("lists no link") != std::string::npos, one_way);
  CHECK_MESSAGE(one_way.find("'b' -> 'a'") != std::string::npos, one_way);
  const auto both_ways = error_of(platform(true, true));
  CHECK_MESSAGE(both_ways.find("lists no link") != std::string::npos, both_ways);
  CHECK_THROWS_AS(validate(platform(true, false)), InputError);
}
