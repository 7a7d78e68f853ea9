// The common evaluator: every method's output goes through evaluate_plan, so that all T_step values
// are computed the same way, from the allocated bandwidths, with link sharing.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "planners/ring/ring_plan.hpp"
#include "planners/ring/tstep.hpp"

namespace ringsim::ring {
namespace {

void check_path(const RingNetwork& net, const HostPath& path, std::size_t from, std::size_t to) {
  const std::string what = "path " + net.host_name(from) + " -> " + net.host_name(to);
  if (path.from != from || path.to != to) throw std::logic_error(what + ": wrong end points");
  if (path.links.empty()) throw std::logic_error(what + ": no link");
  if (net.fixed_routes()) {
    if (path.links != net.route(from, to)) throw std::logic_error(what + ": not the platform's route");
    return;
  }
  std::size_t at = net.host_node(from);
  for (auto l : path.links) {
    const RingNetwork::Arc* next = nullptr;
    for (const auto* a = net.arcs_begin(at); a != net.arcs_end(at); ++a)
      if (a->link == l) {
        next = a;
        break;
      }
    if (!next) throw std::logic_error(what + ": link " + net.link_name(l) + " does not leave the current node");
    at = next->node;
  }
  if (at != net.host_node(to)) throw std::logic_error(what + ": does not end at its destination");
}

}  // namespace

std::vector<double> link_usage(const RingNetwork& net, const RingPlan& plan) {
  std::vector<double> used(net.link_count(), 0.0);
  for (std::size_t m = 0; m < plan.succ.size(); ++m) {
    for (auto l : plan.succ[m].links)
      if (!net.fatpipe(l)) used[l] += plan.succ_bw[m];
    for (auto l : plan.pred[m].links)
      if (!net.fatpipe(l)) used[l] += plan.pred_bw[m];
  }
  return used;
}

void evaluate_plan(const RingNetwork& net, const Workload& load, RingPlan& plan) {
  const std::size_t q = plan.ring.size();
  if (q == 0) throw std::logic_error("evaluate_plan: empty ring");
  std::vector<bool> seen(net.host_count(), false);
  for (auto h : plan.ring) {
    if (h >= net.host_count() || seen[h]) throw std::logic_error("evaluate_plan: a host appears twice in the ring");
    seen[h] = true;
  }
  const std::size_t paths = q == 1 ? 0 : q;
  if (plan.succ.size() != paths || plan.pred.size() != paths || plan.succ_bw.size() != paths ||
      plan.pred_bw.size() != paths)
    throw std::logic_error("evaluate_plan: expected " + std::to_string(2 * paths) + " paths");
  for (std::size_t m = 0; m < paths; ++m) {
    check_path(net, plan.succ[m], plan.ring[m], plan.ring[(m + 1) % q]);
    check_path(net, plan.pred[m], plan.ring[m], plan.ring[(m + q - 1) % q]);
    if (!(plan.succ_bw[m] > 0) || !(plan.pred_bw[m] > 0))
      throw std::logic_error("evaluate_plan: a path has no bandwidth");
  }
  const auto used = link_usage(net, plan);
  for (std::size_t l = 0; l < net.link_count(); ++l)
    if (used[l] > net.capacity(l) * (1 + 1e-9))
      throw std::logic_error("evaluate_plan: link " + net.link_name(l) + " carries " + std::to_string(used[l]) +
                             " B/s > its bandwidth " + std::to_string(net.capacity(l)));
  for (std::size_t m = 0; m < paths; ++m) {
    for (auto l : plan.succ[m].links)
      if (net.fatpipe(l) && plan.succ_bw[m] > net.capacity(l) * (1 + 1e-9))
        throw std::logic_error("evaluate_plan: a path exceeds FATPIPE link " + net.link_name(l));
    for (auto l : plan.pred[m].links)
      if (net.fatpipe(l) && plan.pred_bw[m] > net.capacity(l) * (1 + 1e-9))
        throw std::logic_error("evaluate_plan: a path exceeds FATPIPE link " + net.link_name(l));
  }
  std::vector<double> compute(q), comm(q, 0.0);
  double speed_sum = 0.0;
  for (std::size_t m = 0; m < q; ++m) {
    compute[m] = load.work / net.speed(plan.ring[m]);
    speed_sum += net.speed(plan.ring[m]);
    if (paths) comm[m] = load.comm * (1.0 / plan.succ_bw[m] + 1.0 / plan.pred_bw[m]);
  }
  const auto shares = balance_shares(compute, comm);
  plan.tstep = shares.tstep;
  plan.tstep_eq4 = shares.eq4;
  plan.wcumul = 1.0 / speed_sum;
  plan.alpha = shares.alpha;
  plan.compute_time.resize(q);
  for (std::size_t m = 0; m < q; ++m) plan.compute_time[m] = shares.alpha[m] * compute[m];
  plan.comm_time = comm;
}

void set_pair_paths(const RingNetwork& net, RingPlan& plan) {
  const std::size_t q = plan.ring.size();
  plan.succ.clear();
  plan.pred.clear();
  plan.succ_bw.clear();
  plan.pred_bw.clear();
  if (q < 2) return;
  for (std::size_t m = 0; m < q; ++m) {
    plan.succ.push_back(net.pair_path(plan.ring[m], plan.ring[(m + 1) % q]));
    plan.pred.push_back(net.pair_path(plan.ring[m], plan.ring[(m + q - 1) % q]));
  }
  plan.succ_bw.assign(q, 0.0);
  plan.pred_bw.assign(q, 0.0);
}

}  // namespace ringsim::ring
