#include "planners/kpbs/route_concurrency.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace ringsim::kpbs {

std::size_t interference_free_concurrency(const std::vector<std::vector<PairRoute>>& routes,
                                          const std::vector<double>& capacity) {
  std::vector<std::set<std::size_t>> senders_on(capacity.size()), receivers_on(capacity.size());
  std::vector<double> fastest_on(capacity.size(), 0.0);
  std::set<std::size_t> senders, receivers;
  for (std::size_t i = 0; i < routes.size(); ++i)
    for (std::size_t j = 0; j < routes[i].size(); ++j) {
      const PairRoute& r = routes[i][j];
      if (!r.used) continue;
      senders.insert(i);
      receivers.insert(j);
      for (std::size_t l : r.links) {
        senders_on[l].insert(i);
        receivers_on[l].insert(j);
        fastest_on[l] = std::max(fastest_on[l], r.rate);
      }
    }
  std::size_t k = std::max<std::size_t>(1, std::min(senders.size(), receivers.size()));
  for (std::size_t l = 0; l < capacity.size(); ++l) {
    if (!std::isfinite(capacity[l]) || fastest_on[l] <= 0) continue;
    const std::size_t at_once = std::min(senders_on[l].size(), receivers_on[l].size());
    if (static_cast<double>(at_once) * fastest_on[l] <= capacity[l] * (1 + 1e-12)) continue;
    // The relative slack keeps exact multiples (bb = 4 b) from flooring one short.
    const double fit = std::floor(capacity[l] / fastest_on[l] * (1 + 1e-12));
    k = std::min(k, static_cast<std::size_t>(std::max(1.0, fit)));
  }
  return k;
}

}  // namespace ringsim::kpbs
