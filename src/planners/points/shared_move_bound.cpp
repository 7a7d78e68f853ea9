#include "planners/points/shared_move_bound.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "planners/redistribution/bounds.hpp"
#include "planners/redistribution/ring_math.hpp"

namespace ringsim::points {

double busiest_link_time(const std::vector<Count>& prefix, Count c, const NeighbourRoutes& routes) {
  std::vector<double> bytes(routes.capacity.size(), 0.0);
  const std::size_t n = prefix.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Count flow = prefix[i] - c;
    if (flow == 0) continue;
    const auto& links = flow > 0 ? routes.next_links[i] : routes.prev_links[(i + 1) % n];
    const double moved = static_cast<double>(flow > 0 ? flow : -flow) * routes.bytes;
    for (std::size_t l : links)
      if (routes.shared[l]) bytes[l] += moved;
  }
  double busiest = 0.0;
  for (std::size_t l = 0; l < bytes.size(); ++l) busiest = std::max(busiest, bytes[l] / routes.capacity[l]);
  return busiest;
}

double shared_move_lower_bound(const RingInstance& inst, const NeighbourRoutes& routes) {
  const double one_port = redistribution::slides_bidirectional_lower_bound(inst).value_or(0.0);
  const std::size_t n = inst.size();
  if (routes.empty() || n < 2) return one_port;
  if (routes.next_links.size() != n || routes.prev_links.size() != n)
    throw std::invalid_argument("shared_move_lower_bound: the routes are not the ring's");
  const std::vector<Count> prefix = redistribution::prefix_imbalances(redistribution::imbalances(inst));
  // busiest_link_time is a maximum over links of sums of hinges in c, so convex in c (its
  // minimum may lie where two links' times cross, between the hinges F_i): bisect on the integers
  // between the smallest and largest F_i, beyond which every flow only grows.
  Count lo = *std::min_element(prefix.begin(), prefix.end());
  Count hi = *std::max_element(prefix.begin(), prefix.end());
  while (lo < hi) {
    const Count mid = lo + (hi - lo) / 2;
    if (busiest_link_time(prefix, mid, routes) <= busiest_link_time(prefix, mid + 1, routes)) hi = mid;
    else lo = mid + 1;
  }
  return std::max(one_port, busiest_link_time(prefix, lo, routes));
}

}  // namespace ringsim::points
