// Which hosts form the ring: drawn at random among hosts that reach each other (the paper),
// given, or chosen by the SharedRing planners on the loaded platform.
#include "sim/ring_choice.hpp"
#include "sim/kpbs_moves.hpp"

#include <algorithm>
#include <random>
#include <set>

#include "model/errors.hpp"
#include "model/tiers_generator.hpp"
#include "planners/ring/ratio_fixed_point.hpp"
#include "planners/ring/ring_planner.hpp"
#include "platform/platform_loader.hpp"
#include "platform/platform_speed_profiles.hpp"
#include "platform/reachable_hosts.hpp"
#include "platform/route_prober.hpp"
#include "platform/ring_platform.hpp"

namespace ringsim::sim {

// The ring chosen by the SharedRing planners on the loaded platform (platform/ring_platform.hpp). In
// the free routing mode its 2q paths are the planner's, imposed as explicit routes (bypass routes
// of the graph zone, added before the platform is sealed); in the platform mode they are SimGrid's
// own routes. The paths' bandwidth shares are the planner's either way.
static PlannedRing plan_ring_on_platform(const RunConfig& cfg, const platform::LoadedPlatform& lp,
                                         const std::set<std::string>& excluded) {
  const platform::RingPlatform rp = platform::read_ring_platform(lp, cfg.ring.routing, cfg.ring.candidates, excluded);
  const Platform& p = rp.model;
  const ring::RingNetwork net(p);
  // The first guess of the work: the ratio on platform means, one column computed at the mean host
  // speed over one column sent at the mean link bandwidth. The ring then follows the ratio's own
  // definition on the ring it chose (planners/ring/ratio_fixed_point.hpp).
  double speed = 0.0, bandwidth = 0.0;
  for (const auto* h : lp.hosts()) speed += h->get_speed() / static_cast<double>(lp.hosts().size());
  for (const auto* l : lp.links()) bandwidth += l->get_bandwidth() / static_cast<double>(lp.links().size());
  PlannedRing out;
  out.routing = rp.routing;
  const double bytes = 8.0 * cfg.rows;
  const double columns = static_cast<double>(cfg.columns);
  const ring::RatioRing chosen = ring::plan_ring_for_ratio(
      net, cfg.ratio, columns, bytes, cfg.ratio * (bytes / bandwidth) * speed * columns, cfg.ring.method);
  const ring::RingPlan& plan = chosen.plan;
  out.tstep = chosen.tstep;
  out.ratio_rounds = chosen.rounds;
  out.ratio_converged = chosen.converged;
  const std::size_t q = plan.size();
  for (std::size_t m = 0; m < q; ++m) out.hosts.push_back(net.host_name(plan.ring[m]));
  out.succ_bw = plan.succ_bw;
  out.pred_bw = plan.pred_bw;
  if (rp.routing != RingRouting::free) return out;

  out.zone.zone_name = "planned-ring";
  out.zone.routing = ZoneRouting::full;
  std::vector<long> link_index(p.links.size(), -1);
  auto use_link = [&](std::size_t l) {
    if (link_index[l] < 0) {
      link_index[l] = static_cast<long>(out.zone.links.size());
      out.zone.links.push_back(p.links[l]);
    }
    return static_cast<std::size_t>(link_index[l]);
  };
  for (std::size_t m = 0; m < q; ++m) out.zone.add_host(net.host_name(plan.ring[m]), net.speed(plan.ring[m]));
  std::set<std::pair<std::size_t, std::size_t>> routed;
  auto add_route = [&](std::size_t from, std::size_t to, const ring::HostPath& path) {
    if (from == to || !routed.insert({from, to}).second) return;  // q = 2: one route per ordered pair
    ExplicitRoute r;
    r.src = from;
    r.dst = to;
    for (std::size_t l : path.links) r.links.push_back(use_link(l));
    out.zone.routes.push_back(std::move(r));
  };
  for (std::size_t m = 0; q > 1 && m < q; ++m) {
    add_route(m, (m + 1) % q, plan.succ[m]);
    add_route(m, (m + q - 1) % q, plan.pred[m]);
  }
  if (cfg.staging.enabled) {
    std::vector<std::size_t> receivers(q);
    for (std::size_t m = 0; m < q; ++m) receivers[m] = m;  // the ring's hosts come first in the zone
    attach_storage(out.zone, p, cfg.staging, receivers, out.hosts.front(), use_link);
  }
  return out;
}

// The largest set of `hosts` that reach each other both ways, in `hosts` order.
static std::vector<std::string> reachable_host_names(const platform::LoadedPlatform& lp,
                                                     const std::vector<sg4::Host*>& hosts) {
  const auto sets = platform::reachable_sets(lp, hosts);
  std::vector<std::string> names;
  if (!sets.sets.empty())
    for (const auto* h : sets.sets.front()) names.push_back(h->get_name());
  return names;
}

// The paper's random selection of p processors among `names` (sorted), in the order drawn
// (partial Fisher-Yates).
static std::vector<std::string> draw_ring(std::vector<std::string> names, int size, std::uint64_t seed,
                                          const std::string& platform) {
  if (static_cast<std::size_t>(size) > names.size())
    throw InputError("a ring of " + std::to_string(size) + " processors does not fit platform '" + platform + "' (" +
                     std::to_string(names.size()) + " hosts): ring 'size' must be at most " +
                     std::to_string(names.size()) + ", or use a platform with more hosts");
  std::mt19937_64 rng(seed);
  std::vector<std::string> ring;
  for (std::size_t k = 0; k < static_cast<std::size_t>(size); ++k) {
    const std::size_t j = k + uniform_below(rng, names.size() - k);
    std::swap(names[k], names[j]);
    ring.push_back(names[k]);
  }
  return ring;
}

// Checks given hosts against the platform's (sorted) host names.
static std::vector<std::string> given_ring(const std::vector<std::string>& hosts,
                                           const std::vector<std::string>& names, const std::string& platform) {
  for (const auto& h : hosts)
    if (!std::binary_search(names.begin(), names.end(), h))
      throw InputError("ring host '" + h + "' is not in platform '" + platform + "'");
  std::set<std::string> seen(hosts.begin(), hosts.end());
  if (seen.size() != hosts.size()) throw InputError("a host appears twice in the ring");
  return hosts;
}

static std::vector<std::string> choose_ring(const RunConfig& cfg, const std::vector<std::string>& names) {
  switch (cfg.ring.selection) {
    case RingSelection::random: return draw_ring(names, cfg.ring.size, cfg.ring.seed, cfg.platform);
    case RingSelection::hosts:
    case RingSelection::planner: return given_ring(cfg.ring.hosts, names, cfg.platform);
  }
  return {};
}

static std::vector<std::string> sorted_host_names(const sg4::Engine& e) {
  std::vector<std::string> names;
  for (const auto* h : e.get_all_hosts()) names.push_back(h->get_name());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<sg4::Host*> hosts_named(const sg4::Engine& e, const std::vector<std::string>& names) {
  std::vector<sg4::Host*> out;
  for (const auto& n : names) out.push_back(e.host_by_name(n));
  return out;
}

// The rings of a run: the initial one and each rebuild's, chosen on the loaded platform (sealed on
// return; a staging's storage cluster joins it first), all checked before any simulated second.
// Hosts with a speed profile of the platform's own cannot take ringsim's traces (SimGrid takes
// one per host): random rings avoid them, other rings that use them are refused. With traces
// source "platform" those profiles are the run's traces, and every host may be a member.
static std::set<std::string> profiled_hosts(const RunConfig& cfg, const platform::LoadedPlatform& lp) {
  std::set<std::string> profiled;
  if (cfg.traces.source != TraceSource::platform && lp.may_hold_speed_profiles())
    for (const auto* h : platform::hosts_with_speed_profile(lp.hosts())) profiled.insert(h->get_name());
  return profiled;
}

static void refuse_profiled(const std::set<std::string>& profiled, const std::vector<std::string>& ring,
                            const std::string& what, const std::string& platform) {
  for (const auto& n : ring)
    if (profiled.count(n))
      throw InputError(what + " host '" + n + "' already has a speed profile in platform '" + platform +
                       "' (speed_file): SimGrid takes one per host, and ringsim's speed traces would be a second "
                       "(traces source \"platform\" runs with the platform's profiles)");
}

// The initial ring's hosts, and the hosts the rebuilds' rings are drawn from.
struct RingHosts {
  std::vector<std::string> ring;  // in ring order
  std::vector<std::string> pool;  // without the storage cluster, sorted
};

// Selection planner: the planner's ring; in the free mode its paths join the platform.
static RingHosts planned_ring_hosts(const RunConfig& cfg, sg4::Engine& engine, platform::LoadedPlatform& lp,
                                    const std::set<std::string>& profiled, PlannedRing& planned) {
  planned = plan_ring_on_platform(cfg, lp, profiled);
  refuse_profiled(profiled, planned.hosts, "the planner's ring uses", cfg.platform);
  RingHosts out{planned.hosts, planned.hosts};
  std::sort(out.pool.begin(), out.pool.end());
  // The free mode imposes the planner's paths (and the storage routes planned with them).
  if (planned.routing == RingRouting::free) platform::extend_platform(engine, Platform{}, planned.zone, true);
  return out;
}

// Selection random: the paper's draw among `sorted`, the largest set of hosts that reach each other.
static RingHosts drawn_ring_hosts(const RunConfig& cfg, const sg4::Engine& engine, const platform::LoadedPlatform& lp,
                                  const std::vector<sg4::Host*>& sorted, const std::set<std::string>& profiled,
                                  std::size_t platform_hosts) {
  // One round of questions: the sets, the draw, its neighbour routes.
  const auto size = static_cast<std::size_t>(cfg.ring.size);
  auto drawn = platform::draw_among_reachable(lp, sorted, [&](const std::vector<std::string>& among) {
    return size <= among.size() ? choose_ring(cfg, among) : std::vector<std::string>{};
  });
  RingHosts out;
  out.pool = std::move(drawn.names);
  if (size > out.pool.size() && !profiled.empty())
    throw InputError("a ring of " + std::to_string(cfg.ring.size) + " processors does not fit platform '" +
                     cfg.platform + "': " + std::to_string(profiled.size()) + " of its " +
                     std::to_string(platform_hosts) + " hosts have a speed profile of the platform's (speed_file, "
                     "e.g. '" + *profiled.begin() + "') that ringsim's traces cannot replace, and " +
                     std::to_string(out.pool.size()) + " of the others reach each other both ways (traces source "
                     "\"platform\" runs with the platform's profiles on every host)");
  if (size > out.pool.size() && out.pool.size() < platform_hosts)
    throw InputError("a ring of " + std::to_string(cfg.ring.size) + " processors does not fit platform '" +
                     cfg.platform + "': only " + std::to_string(out.pool.size()) + " of its " +
                     std::to_string(platform_hosts) + " hosts reach each other both ways");
  out.ring = drawn.ring.empty() ? choose_ring(cfg, out.pool) : std::move(drawn.ring);  // the former says why not
  if (drawn.unroutable) {
    // The pool takes reachability as transitive: a hand-written Full zone may still miss a
    // neighbour route; then draw again among hosts that all reach each other.
    auto clique = platform::largest_clique(hosts_named(engine, out.pool));
    out.pool.clear();
    for (const auto* h : clique) out.pool.push_back(h->get_name());
    std::sort(out.pool.begin(), out.pool.end());
    out.ring = choose_ring(cfg, out.pool);
    if (const auto why = platform::unroutable_neighbours(hosts_named(engine, out.ring))) throw InputError(*why);
  }
  return out;
}

// Selection random or hosts: the drawn ring, or the given one (with the pool its rebuilds draw from).
static RingHosts unplanned_ring_hosts(const RunConfig& cfg, const sg4::Engine& engine,
                                      const platform::LoadedPlatform& lp, const std::set<std::string>& profiled,
                                      const std::vector<std::string>& all_names) {
  // The hosts a ring may be drawn from: the largest set that reach each other both ways, sorted
  // by name as the paper's draw expects, without the hosts that keep their own speed profile.
  std::vector<sg4::Host*> sorted;
  for (const auto& n : all_names)
    if (!profiled.count(n)) sorted.push_back(engine.host_by_name(n));
  const bool draws = cfg.ring.selection == RingSelection::random ||
                     std::any_of(cfg.rebuild.begin(), cfg.rebuild.end(),
                                 [](const auto& rb) { return rb.hosts.empty(); });
  RingHosts out;
  if (cfg.ring.selection == RingSelection::random) {
    out = drawn_ring_hosts(cfg, engine, lp, sorted, profiled, all_names.size());
  } else {
    out.ring = given_ring(cfg.ring.hosts, all_names, cfg.platform);
    if (const auto why = platform::unroutable_neighbours(hosts_named(engine, out.ring))) throw InputError(*why);
    if (draws) out.pool = reachable_host_names(lp, sorted);
  }
  refuse_profiled(profiled, out.ring, "ring", cfg.platform);
  return out;
}

// The staging's storage cluster joins the platform as loaded, with routes to the ring's members
// (in the free mode the planner's zone, extended before, already holds them).
static void attach_staging_storage(const RunConfig& cfg, sg4::Engine& engine, const platform::LoadedPlatform& lp,
                                   const PlannedRing& planned, const std::vector<std::string>& ring) {
  if (!cfg.staging.enabled || (cfg.ring.selection == RingSelection::planner && planned.routing == RingRouting::free))
    return;
  Platform p = *lp.declared();
  std::vector<std::size_t> receivers;
  for (const auto& n : ring) receivers.push_back(*p.find_node(n));
  attach_storage(p, *lp.declared(), cfg.staging, receivers, ring.front(), [](std::size_t l) { return l; });
  platform::extend_platform(engine, *lp.declared(), p, false);
}

// Each rebuild's ring: drawn from `pool`, or given.
static std::vector<std::vector<sg4::Host*>> rebuild_rings(const RunConfig& cfg, const sg4::Engine& engine,
                                                          const std::vector<std::string>& pool,
                                                          const std::vector<std::string>& all_names,
                                                          const std::set<std::string>& profiled) {
  std::vector<std::vector<sg4::Host*>> rings;
  for (std::size_t k = 0; k < cfg.rebuild.size(); ++k) {
    const RebuildConfig& rb = cfg.rebuild[k];
    rings.push_back(hosts_named(
        engine, rb.hosts.empty() ? draw_ring(pool, rb.size, rb.seed, cfg.platform) : given_ring(rb.hosts, all_names, cfg.platform)));
    if (const auto why = platform::unroutable_neighbours(rings.back()))
      throw InputError("rebuild after iteration " + std::to_string(rb.after) + ": " + *why);
    std::vector<std::string> rebuilt;
    for (const auto* h : rings.back()) rebuilt.push_back(h->get_name());
    refuse_profiled(profiled, rebuilt, "rebuild after iteration " + std::to_string(rb.after) + ": ring", cfg.platform);
  }
  return rings;
}

ChosenRings choose_run_rings(const RunConfig& cfg, sg4::Engine& engine, platform::LoadedPlatform& lp) {
  ChosenRings out;
  const std::vector<std::string> all_names = sorted_host_names(engine);  // before any storage cluster
  const std::set<std::string> profiled = profiled_hosts(cfg, lp);
  // Nothing will join this platform (no storage cluster, no planner's paths): it is sealed now, and
  // where no route question can abort, SimGrid is asked here rather than in forked children.
  if (!cfg.staging.enabled && cfg.ring.selection != RingSelection::planner) {
    lp.seal();
    platform::answer_routes_here(lp.routes_cannot_abort());
  }
  RingHosts hosts = cfg.ring.selection == RingSelection::planner
                        ? planned_ring_hosts(cfg, engine, lp, profiled, out.planned)
                        : unplanned_ring_hosts(cfg, engine, lp, profiled, all_names);
  attach_staging_storage(cfg, engine, lp, out.planned, hosts.ring);
  lp.seal();
  out.rebuilds = rebuild_rings(cfg, engine, hosts.pool, all_names, profiled);
  out.ring = std::move(hosts.ring);
  return out;
}

}  // namespace ringsim::sim
