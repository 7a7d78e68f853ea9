#include "planners/ring/ratio_fixed_point.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "planners/ring/ring_network.hpp"
#include "planners/ring/ring_planner.hpp"
#include "planners/ring/tstep.hpp"

namespace ringsim::ring {

static double path_column_time(const Platform& p, const HostPath& path, double bytes) {
  double latency = 0.0, bandwidth = std::numeric_limits<double>::infinity();
  for (std::size_t l : path.links) {
    if (l >= p.links.size()) continue;  // a latency-only route's marker, not a platform link
    latency += p.links[l].latency;
    bandwidth = std::min(bandwidth, p.links[l].bandwidth);
  }
  return latency + (std::isfinite(bandwidth) ? bytes / bandwidth : 0.0);
}

double mean_neighbour_column_time(const RingNetwork& net, const RingPlan& plan, double bytes) {
  const std::size_t q = plan.ring.size();
  if (q < 2 || plan.succ.size() != q || plan.pred.size() != q) return 1.0;
  double sum = 0.0;
  for (std::size_t m = 0; m < q; ++m)
    sum += path_column_time(net.platform(), plan.succ[m], bytes) + path_column_time(net.platform(), plan.pred[m], bytes);
  return sum / (2.0 * static_cast<double>(q));
}

double mean_member_speed(const RingNetwork& net, const RingPlan& plan) {
  double sum = 0.0;
  for (std::size_t h : plan.ring) sum += net.speed(h);
  return plan.ring.empty() ? 0.0 : sum / static_cast<double>(plan.ring.size());
}

double tstep_under_work(const RingNetwork& net, const RingPlan& plan, double work) {
  std::vector<double> compute, comm;
  for (std::size_t m = 0; m < plan.ring.size(); ++m) {
    compute.push_back(work / net.speed(plan.ring[m]));
    comm.push_back(m < plan.comm_time.size() ? plan.comm_time[m] : 0.0);
  }
  return exact_tstep(compute, comm);
}

RatioRing ratio_fixed_point(const std::function<RingPlan(double)>& plan_for_work,
                            const std::function<double(const RingPlan&)>& implied_work,
                            const std::function<double(const RingPlan&, double)>& tstep_under, double initial_work,
                            int max_rounds) {
  std::vector<RatioRing> seen;  // one per round: the ring planned, with its own implied W
  double work = initial_work;
  for (int round = 1; round <= std::max(1, max_rounds); ++round) {
    RatioRing r;
    r.plan = plan_for_work(work);
    r.planned_for = work;
    r.work = implied_work(r.plan);
    r.rounds = round;
    r.tstep = tstep_under(r.plan, r.work);
    const auto same_ring = [&](const RatioRing& s) { return s.plan.ring == r.plan.ring; };
    if (!seen.empty() && same_ring(seen.back())) {
      r.converged = true;  // planned for the W of this very ring: the fixed point
      return r;
    }
    const bool cycles = std::any_of(seen.begin(), seen.end(), same_ring);
    seen.push_back(std::move(r));
    if (cycles) break;
    work = seen.back().work;
  }
  // A cycle, or no more rounds: the ring with the least T_step under its own implied W.
  auto best = std::min_element(seen.begin(), seen.end(),
                               [](const RatioRing& a, const RatioRing& b) { return a.tstep < b.tstep; });
  RatioRing out = *best;
  out.rounds = seen.back().rounds;
  return out;
}

RatioRing plan_ring_for_ratio(const RingNetwork& net, double ratio, double columns, double column_bytes,
                              double initial_work, const std::string& method, int max_rounds) {
  return ratio_fixed_point(
      [&](double work) { return plan_ring(net, Workload{work, column_bytes}, method); },
      [&](const RingPlan& plan) {
        return columns * ratio * mean_neighbour_column_time(net, plan, column_bytes) * mean_member_speed(net, plan);
      },
      [&](const RingPlan& plan, double work) { return tstep_under_work(net, plan, work); }, initial_work, max_rounds);
}

}  // namespace ringsim::ring
