#include "sim/reachable_hosts.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <simgrid/s4u.hpp>

#include "sim/route_prober.hpp"

namespace sg4 = simgrid::s4u;

namespace ringsim::sim {

namespace {

// The sets, asked through `probe` (deterministic in its answers: it runs in the probe's child too).
void find_sets(const RouteProbe& probe, const std::vector<sg4::Host*>& askable, std::vector<std::vector<sg4::Host*>>& sets,
               std::vector<std::pair<sg4::Host*, std::string>>& aborting) {
  sets.clear();
  aborting.clear();
  for (auto* h : askable) {
    // A host's route to itself needs its own routing data (a Vivaldi host's coordinates, a
    // Star zone's links): a host SimGrid aborts on here can reach nobody.
    const ProbedRoute& self = probe(h, h);
    if (!self.routed && self.why.rfind("SimGrid aborts", 0) == 0) {
      aborting.emplace_back(h, self.why);
      continue;
    }
    bool joined = false;
    for (auto& set : sets) {
      if (probe(h, set.front()).routed && probe(set.front(), h).routed) {
        set.push_back(h);
        joined = true;
        break;
      }
    }
    if (!joined) sets.push_back({h});
  }
}

std::vector<sg4::Host*> askable_hosts(const LoadedPlatform& lp, const std::vector<sg4::Host*>& hosts, ReachableSets& out) {
  std::vector<sg4::Host*> askable;
  for (auto* h : hosts) {
    const auto known = lp.unroutable_hosts().find(h);
    if (known != lp.unroutable_hosts().end())
      out.unroutable.emplace_back(h, known->second);
    else
      askable.push_back(h);
  }
  return askable;
}

void finish_sets(ReachableSets& out, std::vector<std::vector<sg4::Host*>>& sets,
                 std::vector<std::pair<sg4::Host*, std::string>>& aborting) {
  for (auto& a : aborting) out.unroutable.push_back(std::move(a));
  std::stable_sort(sets.begin(), sets.end(), [](const auto& x, const auto& y) { return x.size() > y.size(); });
  out.sets = std::move(sets);
}

// The first neighbour pair (i -> i+1, then i+1 -> i) without a route, asked through `probe`.
std::optional<std::string> first_unroutable(const RouteProbe& probe, const std::vector<sg4::Host*>& ring) {
  const std::size_t q = ring.size();
  for (std::size_t i = 0; q > 1 && i < q; ++i)
    for (const auto& [a, b] : {std::make_pair(ring[i], ring[(i + 1) % q]), std::make_pair(ring[(i + 1) % q], ring[i])}) {
      const ProbedRoute& r = probe(a, b);
      if (!r.routed)
        return "ring neighbours '" + a->get_name() + "' and '" + b->get_name() + "' cannot communicate: " + r.why;
    }
  return std::nullopt;
}

}  // namespace

ReachableSets reachable_sets(const LoadedPlatform& lp, const std::vector<sg4::Host*>& hosts) {
  ReachableSets out;
  const auto askable = askable_hosts(lp, hosts, out);
  std::vector<std::vector<sg4::Host*>> sets;
  std::vector<std::pair<sg4::Host*, std::string>> aborting;
  out.asked = run_with_probes([&](const RouteProbe& probe) { find_sets(probe, askable, sets, aborting); }, false);
  finish_sets(out, sets, aborting);
  return out;
}

DrawnRing draw_among_reachable(const LoadedPlatform& lp, const std::vector<sg4::Host*>& hosts,
                               const std::function<std::vector<std::string>(const std::vector<std::string>&)>& draw) {
  ReachableSets unused;
  const auto askable = askable_hosts(lp, hosts, unused);
  DrawnRing out;
  std::vector<std::vector<sg4::Host*>> sets;
  std::vector<std::pair<sg4::Host*, std::string>> aborting;
  run_with_probes(
      [&](const RouteProbe& probe) {
        find_sets(probe, askable, sets, aborting);
        std::stable_sort(sets.begin(), sets.end(), [](const auto& x, const auto& y) { return x.size() > y.size(); });
        out = DrawnRing{};
        std::map<std::string, sg4::Host*> by_name;
        if (!sets.empty())
          for (auto* h : sets.front()) {
            out.names.push_back(h->get_name());
            by_name[h->get_name()] = h;
          }
        out.ring = draw(out.names);
        std::vector<sg4::Host*> ring;
        for (const auto& n : out.ring) ring.push_back(by_name.at(n));
        out.unroutable = first_unroutable(probe, ring);
      },
      false);
  return out;
}

std::vector<sg4::Host*> largest_clique(const std::vector<sg4::Host*>& hosts) {
  const std::size_t n = hosts.size();
  std::vector<std::pair<sg4::Host*, sg4::Host*>> pairs;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b)
      if (a != b) pairs.emplace_back(hosts[a], hosts[b]);
  const auto answers = probe_routes(pairs, false);
  std::vector<std::vector<bool>> ok(n, std::vector<bool>(n, true));
  std::size_t k = 0;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b)
      if (a != b) ok[a][b] = answers[k++].routed;
  const auto in = keep_mutually_routed(n, [&](std::size_t a, std::size_t b) { return ok[a][b]; });
  std::vector<sg4::Host*> out;
  for (std::size_t a = 0; a < n; ++a)
    if (in[a]) out.push_back(hosts[a]);
  return out;
}

std::vector<bool> keep_mutually_routed(std::size_t n, const std::function<bool(std::size_t, std::size_t)>& routed) {
  std::vector<bool> in(n, true);
  for (;;) {
    std::size_t worst = n, worst_missing = 0;
    for (std::size_t a = 0; a < n; ++a) {
      if (!in[a]) continue;
      std::size_t missing = 0;
      for (std::size_t b = 0; b < n; ++b)
        if (in[b] && b != a && (!routed(a, b) || !routed(b, a))) ++missing;
      if (missing > 0 && missing >= worst_missing) {
        worst = a;
        worst_missing = missing;
      }
    }
    if (worst == n) return in;
    in[worst] = false;
  }
}

std::optional<std::string> unroutable_neighbours(const std::vector<sg4::Host*>& ring) {
  std::optional<std::string> out;
  run_with_probes([&](const RouteProbe& probe) { out = first_unroutable(probe, ring); }, false);
  return out;
}

}  // namespace ringsim::sim
