// Routes between hosts as SimGrid itself computes them (Host::route_to), asked without risking the
// process. SimGrid answers most questions (a route, or an exception for a graph zone that has none)
// but aborts the whole process (xbt_die, SIGABRT) on others: a host of a routing="None" zone, a
// Vivaldi host without coordinates, a zone route missing in a Full zone of a hierarchy. So the
// questions are asked in forked children of the loaded engine: a child that dies names the pair it
// died on, which is answered "aborts", and a new child continues after it.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <simgrid/forward.h>

namespace ringsim::platform {

struct ProbedRoute {
  bool routed = false;
  std::vector<simgrid::s4u::Link*> links;  // filled when asked for (want_links)
  double latency = 0.0;
  std::string why;  // when not routed: SimGrid's own message, or what made it a non-route
};

// Asks one route: the answer a probing function gives. Answers of the same pair may be asked twice.
using RouteProbe = std::function<const ProbedRoute&(simgrid::s4u::Host* from, simgrid::s4u::Host* to)>;

// Runs `search` (deterministic in the answers it gets) once in forked children that ask
// SimGrid, then once here with the recorded answers, so that its results land in this process and
// this process never calls route_to itself. A pair with no links and no latency between two
// distinct hosts is no route (a Full zone answers so for a missing route). Children seal the root
// zone (this process's platform may stay open to additions). `want_links`: keep each route's links (otherwise only routed / latency / why).
// Returns the number of questions asked of SimGrid.
std::size_t run_with_probes(const std::function<void(const RouteProbe&)>& search, bool want_links);

// Whether route questions are asked in this process instead (no child): for a sealed platform on
// which none can abort (LoadedPlatform::routes_cannot_abort). Process-wide, as SimGrid's engine is.
void answer_routes_here(bool yes);

// From how many pairs on a list (probe_routes, probe_ordered_pairs) are asked by two children at
// once: 2^18 unless changed. The answers are the same either way; tests lower it to cover the
// split on small platforms. Process-wide.
void split_probes_from(std::size_t pairs);

// Convenience: the answers for a list of pairs, in order.
std::vector<ProbedRoute> probe_routes(const std::vector<std::pair<simgrid::s4u::Host*, simgrid::s4u::Host*>>& pairs,
                                      bool want_links);

// Every ordered pair's answer (ordered_pairs' order), handed to take(index, answer) as it arrives
// and kept nowhere (the answer is valid during the call only): for millions of routes, which as
// ProbedRoutes held at once would take gigabytes. Returns the number of questions asked of SimGrid.
std::size_t probe_ordered_pairs(const std::vector<simgrid::s4u::Host*>& hosts, bool want_links,
                                const std::function<void(std::size_t, const ProbedRoute&)>& take);

// Every ordered pair (a, b), a != b, of `hosts`, a-major; pair (a, b) is at ordered_pair_index(a, b, n).
std::vector<std::pair<simgrid::s4u::Host*, simgrid::s4u::Host*>> ordered_pairs(
    const std::vector<simgrid::s4u::Host*>& hosts);
inline std::size_t ordered_pair_index(std::size_t a, std::size_t b, std::size_t n) {
  return a * (n - 1) + (b < a ? b : b - 1);
}

}  // namespace ringsim::platform
