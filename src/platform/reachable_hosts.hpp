// Which hosts can talk to which, as SimGrid routes them: a ring is only ever made of hosts that
// have routes to their neighbours in both directions. Every question goes through the route
// prober (platform/route_prober.hpp), so a pair SimGrid would abort on is an answer, not a crash.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <simgrid/forward.h>

#include "platform/platform_reader.hpp"

namespace ringsim::platform {

struct ReachableSets {
  // Hosts that reach each other both ways, largest set first (ties: the set met first).
  std::vector<std::vector<simgrid::s4u::Host*>> sets;
  // Hosts SimGrid cannot route at all (their own zone says so, or asking aborts), with why.
  std::vector<std::pair<simgrid::s4u::Host*, std::string>> unroutable;
  std::size_t asked = 0;  // questions asked of SimGrid
};

// Sets of mutual reachability, `hosts` keeping their order inside each set. A host joins the first
// set whose first host it reaches both ways: 2 questions per host when everything is routed. This
// takes reachability as transitive, which it is for every zone kind except hand-written Full
// routes; largest_clique() makes a set exact.
ReachableSets reachable_sets(const LoadedPlatform& lp, const std::vector<simgrid::s4u::Host*>& hosts);

// The paper's random ring, in one round of questions: the sets of reachable_sets() over `hosts`,
// then `draw` (given the names of the largest set, in `hosts` order; it answers no ring when the
// set is too small), then its neighbour pairs both ways.
struct DrawnRing {
  std::vector<std::string> names;         // the largest set of hosts that reach each other
  std::vector<std::string> ring;          // empty when `draw` found none
  std::optional<std::string> unroutable;  // the first neighbour pair without a route, as one line
};
DrawnRing draw_among_reachable(const LoadedPlatform& lp, const std::vector<simgrid::s4u::Host*>& hosts,
                               const std::function<std::vector<std::string>(const std::vector<std::string>&)>& draw);

// The largest part of `hosts` (greedily: the host missing the most partners leaves first, the last
// in order on ties) in which every ordered pair has a route; asks every pair.
std::vector<simgrid::s4u::Host*> largest_clique(const std::vector<simgrid::s4u::Host*>& hosts);

// Which of n hosts to keep so that every pair kept is routed both ways: greedily, the host missing
// the most partners leaves first (the last in order on ties). `routed(a, b)`: a reaches b.
std::vector<bool> keep_mutually_routed(std::size_t n, const std::function<bool(std::size_t, std::size_t)>& routed);

// The first neighbour pair of a ring (i -> i+1, then i+1 -> i) without a route, as one line naming
// the pair and SimGrid's answer; nullopt when every neighbour pair is routed both ways.
std::optional<std::string> unroutable_neighbours(const std::vector<simgrid::s4u::Host*>& ring);

}  // namespace ringsim::platform
