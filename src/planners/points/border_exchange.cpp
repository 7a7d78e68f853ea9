#include "planners/points/border_exchange.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ringsim::points {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A transfer's own bound: its rate, and every FATPIPE link it crosses at full capacity.
double own_bound(const BorderRoutes& r, const BorderTransfer& t) {
  double bound = t.bound;
  for (std::size_t l : *t.links)
    if (!r.shared[l]) bound = std::min(bound, r.capacity[l]);
  return bound;
}

// Saturated to the precision of the rates (a share is a quotient of sums of capacities).
bool exhausted(double left, double of) { return left <= 1e-12 * of; }

struct Flow {
  double release = 0.0;  // when its latency has passed: its bytes start to flow
  double left = 0.0;     // bytes still to send
  BorderTransfer transfer;
  bool finished = false;
};

}  // namespace

std::vector<double> max_min_rates(const BorderRoutes& r, const std::vector<BorderTransfer>& transfers) {
  const std::size_t count = transfers.size();
  std::vector<double> rate(count, 0.0), bound(count);
  std::vector<bool> frozen(count, false);
  std::vector<double> left = r.capacity;
  std::vector<std::size_t> users(r.capacity.size(), 0);
  for (std::size_t k = 0; k < count; ++k) {
    bound[k] = own_bound(r, transfers[k]);
    for (std::size_t l : *transfers[k].links)
      if (r.shared[l]) ++users[l];
  }
  double level = 0.0;  // every transfer not frozen flows at this rate
  for (std::size_t unfrozen = count; unfrozen > 0;) {
    double raise = kInf;
    for (std::size_t l = 0; l < left.size(); ++l)
      if (users[l] > 0) raise = std::min(raise, left[l] / static_cast<double>(users[l]));
    for (std::size_t k = 0; k < count; ++k)
      if (!frozen[k]) raise = std::min(raise, bound[k] - level);
    if (!std::isfinite(raise)) {  // transfers with no link and no bound of their own: no limit
      for (std::size_t k = 0; k < count; ++k)
        if (!frozen[k]) rate[k] = kInf;
      break;
    }
    level += raise;
    for (std::size_t l = 0; l < left.size(); ++l)
      if (users[l] > 0) left[l] -= raise * static_cast<double>(users[l]);
    std::vector<std::size_t> freeze;
    for (std::size_t k = 0; k < count; ++k) {
      if (frozen[k]) continue;
      bool stop = std::isfinite(bound[k]) && exhausted(bound[k] - level, bound[k]);
      for (std::size_t l : *transfers[k].links) stop = stop || (r.shared[l] && exhausted(left[l], r.capacity[l]));
      if (stop) freeze.push_back(k);
    }
    for (std::size_t k : freeze) {
      frozen[k] = true;
      rate[k] = level;
      --unfrozen;
      for (std::size_t l : *transfers[k].links)
        if (r.shared[l]) --users[l];
    }
  }
  return rate;
}

double shared_exchange_end(const BorderRoutes& r, const std::vector<double>& done) {
  const std::size_t n = done.size();
  double end = n == 0 ? 0.0 : *std::max_element(done.begin(), done.end());
  if (n < 2) return end;
  std::vector<Flow> flows;
  flows.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t next = (i + 1) % n, prev = (i + n - 1) % n;
    flows.push_back({std::max(done[i], done[next]) + r.next_latency[i], r.bytes, {&r.next_links[i], r.next_rate[i]}});
    flows.push_back({std::max(done[i], done[prev]) + r.prev_latency[i], r.bytes, {&r.prev_links[i], r.prev_rate[i]}});
  }
  if (!(r.bytes > 0.0)) {
    for (const Flow& f : flows) end = std::max(end, f.release);
    return end;
  }
  double now = kInf;
  for (const Flow& f : flows) now = std::min(now, f.release);
  // Between two events (a transfer's bytes start or end) the rates are constant.
  for (;;) {
    std::vector<std::size_t> active;
    std::vector<BorderTransfer> transfers;
    double next = kInf;
    for (std::size_t k = 0; k < flows.size(); ++k) {
      if (flows[k].finished) continue;
      if (flows[k].release <= now) {
        active.push_back(k);
        transfers.push_back(flows[k].transfer);
      } else {
        next = std::min(next, flows[k].release);
      }
    }
    if (active.empty()) {
      if (!std::isfinite(next)) break;
      now = next;
      continue;
    }
    const std::vector<double> rate = max_min_rates(r, transfers);
    std::size_t first_done = active.size();  // the active transfer that ends first, if it sets `next`
    for (std::size_t a = 0; a < active.size(); ++a) {
      const double ends = now + flows[active[a]].left / rate[a];  // now, at an unbounded rate
      if (ends < next) {
        next = ends;
        first_done = a;
      }
    }
    for (std::size_t a = 0; a < active.size(); ++a) {
      Flow& f = flows[active[a]];
      if (std::isfinite(rate[a])) f.left -= rate[a] * (next - now);
      // The transfer that sets `next` ends there, and any other within the rounding of the rates.
      if (a == first_done || !std::isfinite(rate[a]) || f.left <= 1e-9 * r.bytes) {
        f.finished = true;
        end = std::max(end, next);
      }
    }
    now = next;
  }
  return end;
}

}  // namespace ringsim::points
