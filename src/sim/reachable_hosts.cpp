#include "sim/reachable_hosts.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <simgrid/s4u.hpp>

#include "sim/route_prober.hpp"

namespace sg4 = simgrid::s4u;

namespace ringsim::sim {

ReachableSets reachable_sets(const LoadedPlatform& lp, const std::vector<sg4::Host*>& hosts) {
  ReachableSets out;
  std::vector<sg4::Host*> askable;
  for (auto* h : hosts) {
    const auto known = lp.unroutable_hosts().find(h);
    if (known != lp.unroutable_hosts().end())
      out.unroutable.emplace_back(h, known->second);
    else
      askable.push_back(h);
  }
  std::vector<std::vector<sg4::Host*>> sets;
  std::vector<std::pair<sg4::Host*, std::string>> aborting;
  out.asked = run_with_probes(
      [&](const RouteProbe& probe) {
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
      },
      false);
  for (auto& a : aborting) out.unroutable.push_back(std::move(a));
  std::stable_sort(sets.begin(), sets.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  out.sets = std::move(sets);
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
  const std::size_t q = ring.size();
  if (q < 2) return std::nullopt;
  std::vector<std::pair<sg4::Host*, sg4::Host*>> pairs;
  for (std::size_t i = 0; i < q; ++i) {
    pairs.emplace_back(ring[i], ring[(i + 1) % q]);
    pairs.emplace_back(ring[(i + 1) % q], ring[i]);
  }
  const auto answers = probe_routes(pairs, false);
  for (std::size_t k = 0; k < pairs.size(); ++k)
    if (!answers[k].routed)
      return "ring neighbours '" + pairs[k].first->get_name() + "' and '" + pairs[k].second->get_name() +
             "' cannot communicate: " + answers[k].why;
  return std::nullopt;
}

}  // namespace ringsim::sim
