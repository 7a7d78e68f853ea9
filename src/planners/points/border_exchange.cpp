#include "planners/points/border_exchange.hpp"

#include <algorithm>
#include <limits>

namespace ringsim::points {

double shared_exchange_end(const NeighbourRoutes& r, const std::vector<double>& done) {
  const std::size_t n = done.size();
  double end = n == 0 ? 0.0 : *std::max_element(done.begin(), done.end());
  if (n < 2) return end;
  std::vector<double> release;
  std::vector<RouteShare> share;
  release.reserve(2 * n);
  share.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t next = (i + 1) % n, prev = (i + n - 1) % n;
    release.push_back(std::max(done[i], done[next]) + r.next_latency[i]);
    share.push_back({&r.next_links[i], r.next_rate[i], sharing_penalty(r.next_latency[i])});
    release.push_back(std::max(done[i], done[prev]) + r.prev_latency[i]);
    share.push_back({&r.prev_links[i], r.prev_rate[i], sharing_penalty(r.prev_latency[i])});
  }
  if (!(r.bytes > 0.0)) return std::max(end, *std::max_element(release.begin(), release.end()));
  SharedTransfers transfers(r, *std::min_element(release.begin(), release.end()));
  for (std::size_t k = 0; k < release.size(); ++k) transfers.add(release[k], r.bytes, share[k]);
  std::vector<std::size_t> ended;
  while (transfers.advance(std::numeric_limits<double>::infinity(), ended))
    if (!ended.empty()) end = std::max(end, transfers.now());
  return end;
}

}  // namespace ringsim::points
