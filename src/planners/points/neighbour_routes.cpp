#include "planners/points/neighbour_routes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace ringsim::points {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Saturated to the precision of the rates (a share is a quotient of sums of capacities).
bool exhausted(double left, double of) { return left <= 1e-12 * of; }

// Only the links the transfers cross can bound them: the per-link work is done on those alone,
// in increasing order as over every link (a platform has many links, an event's transfers cross
// few), so each minimum meets the same values in the same order. Sets w.crossed, each crossed
// link's capacity left, transfers and weight, and each one's list of transfers; true when one of
// them is a FATPIPE link.
bool prepare_links(const NeighbourRoutes& r, const std::vector<RouteShare>& transfers, MaxMinWork& w) {
  std::vector<std::size_t>& crossed = w.crossed;
  const std::size_t links = r.capacity.size();
  if (w.is_crossed.size() != links) {
    w.is_crossed.assign(links, false);
    w.left.resize(links);
    w.weight.resize(links);
    w.users.resize(links);
    w.fat_level.resize(links);
    w.first_user.resize(links);
    w.user_count.resize(links);
  }
  crossed.clear();
  for (const RouteShare& t : transfers)
    for (std::size_t l : *t.links)
      if (!w.is_crossed[l]) {
        w.is_crossed[l] = true;
        crossed.push_back(l);
      }
  std::sort(crossed.begin(), crossed.end());
  bool fatpipe = false;
  for (std::size_t l : crossed) {
    fatpipe = fatpipe || !r.shared[l];
    w.is_crossed[l] = false;
    w.left[l] = r.capacity[l];
    w.weight[l] = 0.0;
    w.users[l] = 0;
  }
  for (const RouteShare& t : transfers)
    for (std::size_t l : *t.links) {
      ++w.users[l];
      if (r.shared[l]) w.weight[l] += 1.0 / t.penalty;
    }
  // Link l's transfers are link_users[first_user[l] ..][user_count[l]].
  std::size_t listed = 0;
  for (std::size_t l : crossed) {
    w.first_user[l] = listed;
    w.user_count[l] = 0;
    listed += w.users[l];
  }
  w.link_users.resize(listed);
  for (std::size_t k = 0; k < transfers.size(); ++k)
    for (std::size_t l : *transfers[k].links) w.link_users[w.first_user[l] + w.user_count[l]++] = k;
  return fatpipe;
}

// The unfrozen transfers that stop at `level` into w.freeze, increasing: at their own bound or on
// a saturated link. The transfers of the links that saturate are met through each link's list,
// then sorted as a scan of the transfers would list them.
void list_stopping(const NeighbourRoutes& r, double level, MaxMinWork& w) {
  std::vector<std::size_t>& freeze = w.freeze;
  std::vector<bool>& stopping = w.stopping;
  freeze.clear();
  for (std::size_t k = 0; k < w.bound.size(); ++k)
    if (!w.frozen[k] && std::isfinite(w.bound[k]) && exhausted(w.bound[k] - level, w.bound[k])) {
      freeze.push_back(k);
      stopping[k] = true;
    }
  for (std::size_t l : w.crossed) {
    if (w.users[l] == 0) continue;
    if (!(r.shared[l] ? exhausted(w.left[l], r.capacity[l]) : exhausted(w.fat_level[l] - level, w.fat_level[l])))
      continue;
    for (std::size_t u = w.first_user[l]; u < w.first_user[l] + w.user_count[l]; ++u) {
      const std::size_t k = w.link_users[u];
      if (w.frozen[k] || stopping[k]) continue;
      freeze.push_back(k);
      stopping[k] = true;
    }
  }
  std::sort(freeze.begin(), freeze.end());
  for (std::size_t k : freeze) stopping[k] = false;
}

}  // namespace

std::vector<double> max_min_rates(const NeighbourRoutes& r, const std::vector<RouteShare>& transfers) {
  MaxMinWork work;
  max_min_rates(r, transfers, work);
  return std::move(work.rate);
}

void max_min_rates(const NeighbourRoutes& r, const std::vector<RouteShare>& transfers, MaxMinWork& w) {
  const std::size_t count = transfers.size();
  std::vector<double>& rate = w.rate;
  std::vector<double>& bound = w.bound;
  std::vector<bool>& frozen = w.frozen;
  std::vector<double>& left = w.left;
  std::vector<double>& weight = w.weight;      // per SHARED link: the sum of 1 / penalty of its unfrozen transfers
  std::vector<std::size_t>& users = w.users;  // per link: its unfrozen transfers
  // Per FATPIPE link: the level at which it saturates, its capacity times the least penalty of its
  // unfrozen transfers (that one flows at the capacity), +inf when none is left.
  std::vector<double>& fat_level = w.fat_level;
  const std::vector<std::size_t>& crossed = w.crossed;
  const bool fatpipe = prepare_links(r, transfers, w);  // fat_level is read on FATPIPE links only
  rate.assign(count, 0.0);
  bound.resize(count);
  frozen.assign(count, false);
  w.stopping.assign(count, false);
  for (std::size_t k = 0; k < count; ++k) bound[k] = transfers[k].bound * transfers[k].penalty;  // as a level
  auto fatpipe_levels = [&] {
    if (!fatpipe) return;
    for (std::size_t l : crossed) fat_level[l] = kInf;
    for (std::size_t k = 0; k < count; ++k)
      if (!frozen[k])
        for (std::size_t l : *transfers[k].links)
          if (!r.shared[l]) fat_level[l] = std::min(fat_level[l], r.capacity[l] * transfers[k].penalty);
  };
  double level = 0.0;  // every transfer k not frozen flows at level / penalty_k
  for (std::size_t unfrozen = count; unfrozen > 0;) {
    fatpipe_levels();
    double raise = kInf;
    for (std::size_t l : crossed)
      if (users[l] > 0) raise = std::min(raise, r.shared[l] ? left[l] / weight[l] : fat_level[l] - level);
    for (std::size_t k = 0; k < count; ++k)
      if (!frozen[k]) raise = std::min(raise, bound[k] - level);
    if (!std::isfinite(raise)) {  // transfers with no link and no bound of their own: no limit
      for (std::size_t k = 0; k < count; ++k)
        if (!frozen[k]) rate[k] = kInf;
      break;
    }
    level += raise;
    for (std::size_t l : crossed)
      if (users[l] > 0 && r.shared[l]) left[l] -= raise * weight[l];
    list_stopping(r, level, w);
    for (std::size_t k : w.freeze) {
      frozen[k] = true;
      rate[k] = level / transfers[k].penalty;
      --unfrozen;
      for (std::size_t l : *transfers[k].links) {
        --users[l];
        if (r.shared[l]) weight[l] -= 1.0 / transfers[k].penalty;
      }
    }
  }
}

std::size_t SharedTransfers::add(double release, double bytes, RouteShare share) {
  flows_.push_back({release, bytes, bytes, share, false});
  live_.push_back(flows_.size() - 1);
  return flows_.size() - 1;
}

bool SharedTransfers::advance(double horizon, std::vector<std::size_t>& ended) {
  std::vector<std::size_t>& active = active_;
  std::vector<RouteShare>& shares = shares_;
  active.clear();
  shares.clear();
  double next = horizon;
  for (std::size_t k : live_) {
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
  max_min_rates(routes_, shares, work_);
  const std::vector<double>& rate = work_.rate;
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
  live_.erase(std::remove_if(live_.begin(), live_.end(), [&](std::size_t k) { return flows_[k].finished; }),
              live_.end());
  now_ = next;
  return true;
}

}  // namespace ringsim::points
