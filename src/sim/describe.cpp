#include "sim/describe.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <vector>

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/s4u.hpp>
#include <simgrid/version.h>
#include <xbt/log.h>

#include "io/platform_xml.hpp"
#include "model/errors.hpp"
#include "sim/platform_loader.hpp"

XBT_LOG_NEW_DEFAULT_CATEGORY(ringsim_describe, "ringsim: platform description");

namespace sg4 = simgrid::s4u;

namespace ringsim::sim {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Range {
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  void add(double v) {
    min = std::min(min, v);
    max = std::max(max, v);
  }
  nlohmann::json to_json() const {
    if (min > max) return nullptr;
    return {{"min", min}, {"max", max}};
  }
};

// SimGrid adds internal links (the loopback) that no platform file declares.
bool internal_link(const sg4::Link* l) { return l->get_name().rfind("__", 0) == 0; }

struct RouteCheck {
  std::size_t pairs = 0;
  std::size_t unrouted = 0;
  std::string first_unrouted;
  std::size_t min_links = std::numeric_limits<std::size_t>::max();
  std::size_t max_links = 0;
  double total_links = 0;
  double max_latency = 0;
};

void check_route(const sg4::Host* a, const sg4::Host* b, RouteCheck& check) {
  std::vector<sg4::Link*> links;
  double latency = 0;
  ++check.pairs;
  bool routed = true;
  try {
    a->route_to(b, links, &latency);
    routed = !links.empty();  // a Full zone answers an empty route for a missing one
  } catch (const std::exception&) {
    routed = false;
  }
  if (!routed) {
    if (check.unrouted++ == 0) check.first_unrouted = "'" + a->get_name() + "' -> '" + b->get_name() + "'";
    return;
  }
  check.min_links = std::min(check.min_links, links.size());
  check.max_links = std::max(check.max_links, links.size());
  check.total_links += static_cast<double>(links.size());
  check.max_latency = std::max(check.max_latency, latency);
}

RouteCheck check_routes(const std::vector<sg4::Host*>& hosts) {
  RouteCheck check;
  constexpr std::size_t all_pairs_limit = 400;
  if (hosts.size() <= all_pairs_limit) {
    for (const auto* a : hosts)
      for (const auto* b : hosts)
        if (a != b) check_route(a, b, check);
  } else {
    for (std::size_t i = 1; i < hosts.size(); ++i) {
      check_route(hosts.front(), hosts[i], check);
      check_route(hosts[i], hosts.front(), check);
    }
  }
  return check;
}

}  // namespace

nlohmann::json describe_platform(const std::string& path, const DescribeOptions& options) {
  auto t = Clock::now();
  const Platform model = io::read_platform_xml(path);  // rejects what SimGrid would choke on
  const double read_s = seconds_since(t);

  int argc = 1;
  char program[] = "ringsim";
  char* argv[] = {program, nullptr};
  sg4::Engine engine(&argc, argv);
  t = Clock::now();
  if (options.via_model)
    build_platform(model);
  else
    load_platform_file(engine, path);
  const double load_s = seconds_since(t);

  auto hosts = engine.get_all_hosts();
  std::sort(hosts.begin(), hosts.end(), [](const sg4::Host* a, const sg4::Host* b) { return a->get_name() < b->get_name(); });
  Range speed, bandwidth, latency;
  for (const auto* h : hosts) speed.add(h->get_speed());
  std::size_t link_count = 0, fatpipes = 0;
  for (const auto* l : engine.get_all_links()) {
    if (internal_link(l)) continue;
    ++link_count;
    bandwidth.add(l->get_bandwidth());
    latency.add(l->get_latency());
    if (l->get_sharing_policy() == sg4::Link::SharingPolicy::FATPIPE) ++fatpipes;
  }
  std::size_t routers = 0;
  for (const auto* np : engine.get_all_netpoints())
    if (np->is_router()) ++routers;

  t = Clock::now();
  const auto check = check_routes(hosts);
  const double routes_s = seconds_since(t);
  XBT_DEBUG("%zu host pairs checked in %g s", check.pairs, routes_s);
  if (check.unrouted > 0)
    throw InputError("SimGrid finds no route for " + std::to_string(check.unrouted) + " host pairs in '" + path +
                     "', e.g. " + check.first_unrouted);

  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  nlohmann::json out = {
      {"file", path},
      {"loaded_by", options.via_model ? "S4U API, from ringsim's reading" : "SimGrid's XML parser"},
      {"simgrid_version", std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch)},
      {"zone", model.zone_name},
      {"routing", to_string(model.routing)},
      {"hosts", hosts.size()},
      {"routers", routers},
      {"links", link_count},
      {"fatpipe_links", fatpipes},
      {"edges", model.edges.size()},
      {"explicit_routes", model.routes.size()},
      {"speed_flops", speed.to_json()},
      {"bandwidth_Bps", bandwidth.to_json()},
      {"latency_s", latency.to_json()},
      {"host_pairs_checked", check.pairs},
      {"all_hosts_connected", check.unrouted == 0},
      {"route_links", {{"min", check.pairs ? check.min_links : 0},
                       {"max", check.max_links},
                       {"mean", check.pairs ? check.total_links / static_cast<double>(check.pairs) : 0.0}}},
      {"max_route_latency_s", check.max_latency},
      {"matches_ringsim_reading", hosts.size() == model.host_count() && routers == model.router_count() &&
                                      link_count == model.links.size()},
  };
  if (options.timings)
    out["timings_s"] = {{"ringsim_read", read_s}, {"simgrid_load_and_seal", load_s}, {"route_checks", routes_s}};
  return out;
}

}  // namespace ringsim::sim
