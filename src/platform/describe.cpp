#include "platform/describe.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <vector>

#include <simgrid/s4u.hpp>
#include <simgrid/version.h>
#include <xbt/log.h>

#include "io/platform_formats.hpp"
#include "platform/platform_reader.hpp"
#include "platform/platform_speed_profiles.hpp"
#include "platform/reachable_hosts.hpp"
#include "platform/route_prober.hpp"

XBT_LOG_NEW_DEFAULT_CATEGORY(ringsim_describe, "ringsim: platform description");

namespace sg4 = simgrid::s4u;

namespace ringsim::platform {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Spread {
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  double sum = 0.0;
  std::size_t count = 0;
  void add(double v) {
    min = std::min(min, v);
    max = std::max(max, v);
    sum += v;
    ++count;
  }
  nlohmann::json to_json() const {
    if (count == 0) return nullptr;
    nlohmann::json j = {{"min", min}, {"max", max}, {"mean", sum / static_cast<double>(count)}};
    if (min > 0) j["max_over_min"] = max / min;
    return j;
  }
};

// The ordered pairs to ask: all of them within the budget, else a seeded sample (with repetition
// avoided only within one source: enough to estimate, and cheap at 65536 hosts).
std::vector<std::pair<sg4::Host*, sg4::Host*>> pairs_to_check(const std::vector<sg4::Host*>& hosts,
                                                              const DescribeOptions& opt, bool& all) {
  std::vector<std::pair<sg4::Host*, sg4::Host*>> pairs;
  const std::size_t n = hosts.size();
  all = n < 2 || n * (n - 1) <= opt.max_pairs;
  if (all) return ordered_pairs(hosts);
  std::mt19937_64 rng(opt.seed);
  std::uniform_int_distribution<std::size_t> pick(0, n - 1), other(0, n - 2);
  pairs.reserve(opt.max_pairs);
  for (std::size_t k = 0; k < opt.max_pairs; ++k) {
    const std::size_t a = pick(rng);
    std::size_t b = other(rng);
    if (b >= a) ++b;
    pairs.emplace_back(hosts[a], hosts[b]);
  }
  return pairs;
}

// Which hosts a ring may use and, for the others, why not: a speed profile of the platform's own
// (ringsim's traces would be a second one; traces source "platform" uses it instead), SimGrid
// cannot route the host, or it is outside the largest set of hosts that reach each other.
void describe_ring_eligibility(const LoadedPlatform& lp, const ReachableSets& sets, nlohmann::json& out) {
  constexpr std::size_t kListed = 100;  // hosts listed by name; the count says how many in all
  std::set<const sg4::Host*> profiled;
  if (lp.may_hold_speed_profiles())
    for (const auto* h : hosts_with_speed_profile(lp.hosts())) profiled.insert(h);
  std::map<const sg4::Host*, std::string> why;
  for (const auto& [h, reason] : sets.unroutable) why[h] = "unroutable: " + reason;
  for (std::size_t k = 1; k < sets.sets.size(); ++k)
    for (const auto* h : sets.sets[k]) why[h] = "outside the largest set of hosts that reach each other both ways";
  for (const auto* h : profiled)
    why[h] = "speed profile of the platform's (speed_file or trace_connect): SimGrid takes one per host, so ringsim's "
             "traces cannot go there; a ring member with traces source \"platform\" (that profile is its trace)";
  auto with_profile = nlohmann::json::array();
  auto ineligible = nlohmann::json::array();
  std::size_t count = 0;
  for (const auto* h : lp.hosts()) {  // file order
    if (profiled.count(h) && with_profile.size() < kListed) with_profile.push_back(h->get_name());
    const auto it = why.find(h);
    if (it == why.end()) continue;
    if (count++ < kListed) ineligible.push_back({{"host", h->get_name()}, {"reason", it->second}});
  }
  out["hosts_with_speed_profile"] = profiled.size();
  out["speed_profile_hosts"] = with_profile;
  out["ineligible_hosts"] = count;
  out["ineligible"] = ineligible;
}

// The hosts' speeds, cores, pstates and disks, and the links' bandwidths, latencies and sharing.
void describe_hosts_and_links(const LoadedPlatform& lp, nlohmann::json& out) {
  Spread speed, cores, bandwidth, latency;
  std::size_t multi_pstate = 0, with_disks = 0;
  for (const auto* h : lp.hosts()) {
    speed.add(h->get_speed());
    cores.add(h->get_core_count());
    if (h->get_pstate_count() > 1) ++multi_pstate;
    if (!h->get_disks().empty()) ++with_disks;
  }
  std::map<std::string, std::size_t> sharing;
  for (const auto* l : lp.links()) {
    bandwidth.add(l->get_bandwidth());
    latency.add(l->get_latency());
    switch (l->get_sharing_policy()) {
      case sg4::Link::SharingPolicy::FATPIPE: ++sharing["FATPIPE"]; break;
      case sg4::Link::SharingPolicy::WIFI: ++sharing["WIFI"]; break;
      case sg4::Link::SharingPolicy::NONLINEAR: ++sharing["NONLINEAR"]; break;
      default: ++sharing["SHARED"]; break;
    }
  }
  out["hosts"] = lp.hosts().size();
  out["routers"] = lp.router_count();
  out["links"] = lp.links().size();
  out["links_by_sharing"] = sharing;
  out["fatpipe_links"] = sharing.count("FATPIPE") ? sharing["FATPIPE"] : 0;
  out["hosts_with_pstates"] = multi_pstate;
  out["hosts_with_disks"] = with_disks;
  out["speed_flops"] = speed.to_json();
  out["cores"] = cores.to_json();
  out["bandwidth_Bps"] = bandwidth.to_json();
  out["latency_s"] = latency.to_json();
}

// The zone tree (each zone's routing, depth, hosts and children) and the count of each routing.
void describe_zones(const LoadedPlatform& lp, nlohmann::json& out) {
  auto zones = nlohmann::json::array();
  std::map<std::string, std::size_t> kinds;
  for (const auto& z : lp.zones()) {
    zones.push_back({{"name", z.name}, {"routing", z.kind}, {"depth", z.depth}, {"hosts", z.hosts}, {"zones", z.children}});
    ++kinds[z.kind];
  }
  out["zone"] = lp.zones().front().name;
  out["routing"] = lp.zones().front().kind;
  out["zones"] = zones;
  out["zone_kinds"] = kinds;
}

// What SimGrid answers for the pairs to check: how many are routed, the first reason one is not,
// and the routed ones' link counts and latencies.
struct RouteChecks {
  std::size_t checked = 0, routed = 0, unrouted = 0;
  std::string first_unrouted;
  Spread links, latency;
};

RouteChecks check_host_pairs(const LoadedPlatform& lp, const std::vector<std::pair<sg4::Host*, sg4::Host*>>& pairs) {
  RouteChecks out;
  out.checked = pairs.size();
  // Hosts of routing="None" zones are not asked (SimGrid would abort): their pairs count as unrouted.
  std::vector<std::pair<sg4::Host*, sg4::Host*>> asked;
  for (const auto& pr : pairs) {
    const auto known = lp.unroutable_hosts().find(lp.unroutable_hosts().count(pr.first) ? pr.first : pr.second);
    if (known != lp.unroutable_hosts().end()) {
      if (out.unrouted++ == 0) out.first_unrouted = known->second;
      continue;
    }
    asked.push_back(pr);
  }
  const auto answers = probe_routes(asked, true);
  for (std::size_t k = 0; k < asked.size(); ++k) {
    const auto& a = answers[k];
    if (!a.routed) {
      if (out.unrouted++ == 0) out.first_unrouted = a.why;
      continue;
    }
    ++out.routed;
    out.links.add(static_cast<double>(a.links.size()));
    out.latency.add(a.latency);
  }
  return out;
}

}  // namespace

nlohmann::json describe_platform(const std::string& path, const DescribeOptions& options) {
  auto& engine = reading_engine();
  auto t = Clock::now();
  LoadedPlatform lp(engine, path);
  lp.seal();
  const double load_s = seconds_since(t);

  // Reachability: sets of hosts that reach each other (two questions per host), then the pairs.
  t = Clock::now();
  const auto sets = reachable_sets(lp, lp.hosts());
  bool all_pairs = false;
  const RouteChecks checks = check_host_pairs(lp, pairs_to_check(lp.hosts(), options, all_pairs));
  const double routes_s = seconds_since(t);
  auto set_sizes = nlohmann::json::array();
  for (const auto& s : sets.sets) set_sizes.push_back(s.size());

  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  const auto format = lp.format();
  nlohmann::json out = {
      {"file", path},
      {"format", io::format_name(format)},
      {"loaded_by", format == io::PlatformFormat::simgrid4 ? "SimGrid's loader"
                                                           : "SimGrid's loader, after ringsim's conversion to XML 4.1"},
      {"simgrid_version", std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch)},
      {"graph_known", lp.graph_known()},
      {"ring_routing_default", lp.graph_known() ? "free" : "platform"},
      {"host_pairs", all_pairs ? "all" : "sample"},
      {"host_pairs_checked", checks.checked},
      {"host_pairs_routed", checks.routed},
      {"host_pairs_unrouted", checks.unrouted},
      {"all_hosts_connected", checks.unrouted == 0 && sets.unroutable.empty() && sets.sets.size() <= 1},
      {"reachable_sets", set_sizes},
      {"unroutable_hosts", sets.unroutable.size()},
      {"route_links", checks.links.to_json()},
      {"route_latency_s", checks.latency.to_json()},
      {"max_route_latency_s", checks.latency.count ? checks.latency.max : 0.0},
  };
  describe_zones(lp, out);
  describe_hosts_and_links(lp, out);
  if (!lp.graph_known()) out["why_no_graph"] = lp.why_no_graph();
  if (!all_pairs) out["sample_seed"] = options.seed;
  if (!checks.first_unrouted.empty()) out["first_unrouted"] = checks.first_unrouted;
  if (!sets.unroutable.empty()) out["first_unroutable_host"] = sets.unroutable.front().second;
  if (lp.declared()) {
    out["edges"] = lp.declared()->edges.size();
    out["explicit_routes"] = lp.declared()->routes.size();
  }
  describe_ring_eligibility(lp, sets, out);
  if (options.timings) out["timings_s"] = {{"simgrid_load_and_seal", load_s}, {"route_checks", routes_s}};
  XBT_DEBUG("%zu pairs checked in %g s", checks.checked, routes_s);
  return out;
}

}  // namespace ringsim::platform
