#include "planners/points/neighbour_routes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ringsim::points {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A transfer's own bound: its rate, and every FATPIPE link it crosses at full capacity.
double own_bound(const NeighbourRoutes& r, const RouteShare& t) {
  double bound = t.bound;
  for (std::size_t l : *t.links)
    if (!r.shared[l]) bound = std::min(bound, r.capacity[l]);
  return bound;
}

// Saturated to the precision of the rates (a share is a quotient of sums of capacities).
bool exhausted(double left, double of) { return left <= 1e-12 * of; }

}  // namespace

std::vector<double> max_min_rates(const NeighbourRoutes& r, const std::vector<RouteShare>& transfers) {
  const std::size_t count = transfers.size();
  std::vector<double> rate(count, 0.0), bound(count);
  std::vector<bool> frozen(count, false);
  std::vector<double> left = r.capacity;
  std::vector<double> weight(r.capacity.size(), 0.0);  // per link: the sum of 1 / penalty of its unfrozen transfers
  std::vector<std::size_t> users(r.capacity.size(), 0);
  for (std::size_t k = 0; k < count; ++k) {
    bound[k] = own_bound(r, transfers[k]) * transfers[k].penalty;  // as a level
    for (std::size_t l : *transfers[k].links)
      if (r.shared[l]) {
        ++users[l];
        weight[l] += 1.0 / transfers[k].penalty;
      }
  }
  double level = 0.0;  // every transfer k not frozen flows at level / penalty_k
  for (std::size_t unfrozen = count; unfrozen > 0;) {
    double raise = kInf;
    for (std::size_t l = 0; l < left.size(); ++l)
      if (users[l] > 0) raise = std::min(raise, left[l] / weight[l]);
    for (std::size_t k = 0; k < count; ++k)
      if (!frozen[k]) raise = std::min(raise, bound[k] - level);
    if (!std::isfinite(raise)) {  // transfers with no link and no bound of their own: no limit
      for (std::size_t k = 0; k < count; ++k)
        if (!frozen[k]) rate[k] = kInf;
      break;
    }
    level += raise;
    for (std::size_t l = 0; l < left.size(); ++l)
      if (users[l] > 0) left[l] -= raise * weight[l];
    std::vector<std::size_t> freeze;
    for (std::size_t k = 0; k < count; ++k) {
      if (frozen[k]) continue;
      bool stop = std::isfinite(bound[k]) && exhausted(bound[k] - level, bound[k]);
      for (std::size_t l : *transfers[k].links) stop = stop || (r.shared[l] && exhausted(left[l], r.capacity[l]));
      if (stop) freeze.push_back(k);
    }
    for (std::size_t k : freeze) {
      frozen[k] = true;
      rate[k] = level / transfers[k].penalty;
      --unfrozen;
      for (std::size_t l : *transfers[k].links)
        if (r.shared[l]) {
          --users[l];
          weight[l] -= 1.0 / transfers[k].penalty;
        }
    }
  }
  return rate;
}

std::size_t SharedTransfers::add(double release, double bytes, RouteShare share) {
  flows_.push_back({release, bytes, bytes, share, false});
  return flows_.size() - 1;
}

bool SharedTransfers::advance(double horizon, std::vector<std::size_t>& ended) {
  std::vector<std::size_t> active;
  std::vector<RouteShare> shares;
  double next = horizon;
  for (std::size_t k = 0; k < flows_.size(); ++k) {
    if (flows_[k].finished) continue;
    if (flows_[k].release <= now_) {
      active.push_back(k);
      shares.push_back(flows_[k].share);
    } else {
      next = std::min(next, flows_[k].release);
    }
  }
  if (active.empty()) {
    if (!std::isfinite(next)) return false;
    now_ = next;
    return true;
  }
  const std::vector<double> rate = max_min_rates(routes_, shares);
  std::size_t first_done = active.size();  // the active transfer that ends first, if it sets `next`
  for (std::size_t a = 0; a < active.size(); ++a) {
    const double ends = now_ + flows_[active[a]].left / rate[a];  // now, at an unbounded rate
    if (ends < next) {
      next = ends;
      first_done = a;
    }
  }
  for (std::size_t a = 0; a < active.size(); ++a) {
    Flow& f = flows_[active[a]];
    if (std::isfinite(rate[a])) f.left -= rate[a] * (next - now_);
    // The transfer that sets `next` ends there, and any other within the rounding of the rates.
    if (a == first_done || !std::isfinite(rate[a]) || f.left <= 1e-9 * f.bytes) {
      f.finished = true;
      ended.push_back(active[a]);
    }
  }
  now_ = next;
  return true;
}

}  // namespace ringsim::points
