#include "platform/reachable_hosts.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <simgrid/s4u.hpp>

#include "platform/route_prober.hpp"

namespace sg4 = simgrid::s4u;

namespace ringsim::platform {

namespace {

struct Sets {
  std::vector<std::vector<sg4::Host*>> sets;  // largest first (ties: the set met first)
  std::vector<std::pair<sg4::Host*, std::string>> aborting;
};

// The sets, asked through `probe` (deterministic in its answers: it runs in the probe's child too).
Sets find_sets(const RouteProbe& probe, const std::vector<sg4::Host*>& askable) {
  Sets out;
  for (auto* h : askable) {
    // A host's route to itself needs its own routing data (a Vivaldi host's coordinates, a
    // Star zone's links): a host SimGrid aborts on here can reach nobody.
    const ProbedRoute& self = probe(h, h);
    if (!self.routed && self.why.rfind("SimGrid aborts", 0) == 0) {
      out.aborting.emplace_back(h, self.why);
      continue;
    }
    bool joined = false;
    for (auto& set : out.sets) {
      if (probe(h, set.front()).routed && probe(set.front(), h).routed) {
        set.push_back(h);
        joined = true;
        break;
      }
    }
    if (!joined) out.sets.push_back({h});
  }
  std::stable_sort(out.sets.begin(), out.sets.end(), [](const auto& x, const auto& y) { return x.size() > y.size(); });
  return out;
}

// The hosts whose zone does not already say that SimGrid cannot route them; those go to `known`.
std::vector<sg4::Host*> askable_hosts(const LoadedPlatform& lp, const std::vector<sg4::Host*>& hosts,
                                      std::vector<std::pair<sg4::Host*, std::string>>* known = nullptr) {
  std::vector<sg4::Host*> askable;
  for (auto* h : hosts) {
    const auto it = lp.unroutable_hosts().find(h);
    if (it == lp.unroutable_hosts().end())
      askable.push_back(h);
    else if (known)
      known->emplace_back(h, it->second);
  }
  return askable;
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
  const auto askable = askable_hosts(lp, hosts, &out.unroutable);
  Sets found;
  out.asked = run_with_probes([&](const RouteProbe& probe) { found = find_sets(probe, askable); }, false);
  for (auto& a : found.aborting) out.unroutable.push_back(std::move(a));
  out.sets = std::move(found.sets);
  return out;
}

DrawnRing draw_among_reachable(const LoadedPlatform& lp, const std::vector<sg4::Host*>& hosts,
                               const std::function<std::vector<std::string>(const std::vector<std::string>&)>& draw) {
  const auto askable = askable_hosts(lp, hosts);
  DrawnRing out;
  run_with_probes(
      [&](const RouteProbe& probe) {
        const Sets found = find_sets(probe, askable);
        out = DrawnRing{};
        std::map<std::string, sg4::Host*> by_name;
        if (!found.sets.empty())
          for (auto* h : found.sets.front()) {
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
  const auto answers = probe_routes(ordered_pairs(hosts), false);
  const auto in = keep_mutually_routed(n, [&](std::size_t a, std::size_t b) {
    return answers[ordered_pair_index(a, b, n)].routed;
  });
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

}  // namespace ringsim::platform
