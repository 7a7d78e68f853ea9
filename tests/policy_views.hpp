// A ring as a policy sees it, for the policies' tests: the facts every member knows, every
// member's load, the reports common to all members and the newest ones; a snapshot of speeds made
// common, and one member's view of it.
#pragma once

#include <cstddef>
#include <vector>

#include "policy/policy.hpp"

namespace ringsim::policy {

struct Ring {
  RingFacts facts;
  std::vector<long> loads;
  std::vector<Report> common, newest;
};

// n members of 1e8 flop/s, each holding `held` columns of 1e6 flop, over 100 iterations: a column
// costs `column` s to a neighbour, a report hop `hop_latency` s and `hop_bandwidth` B/s, a
// planner run `decision_flops`; borders 0.01 s, reports of 16 B.
inline Ring uniform_ring(std::size_t n, long held, double decision_flops, double column, double hop_latency,
                         double hop_bandwidth) {
  Ring r;
  RingFacts& f = r.facts;
  f.n = n;
  f.iterations = 100;
  f.columns = held * static_cast<long>(n);
  f.flops_per_column = 1e6;
  f.decision_flops = decision_flops;
  f.cost_next.assign(n, column);
  f.cost_prev.assign(n, column);
  f.border_time = 0.01;
  f.report_bytes = 16;
  f.peak.assign(n, 1e8);
  f.latency_next.assign(n, hop_latency);
  f.latency_prev.assign(n, hop_latency);
  f.bandwidth_next.assign(n, hop_bandwidth);
  f.bandwidth_prev.assign(n, hop_bandwidth);
  r.loads.assign(n, held);
  return r;
}

// Iteration `it`'s reports of every member at these speeds, on its current loads, made common.
inline void set_speeds(Ring& r, const std::vector<double>& speeds, int it) {
  r.common.clear();
  for (std::size_t j = 0; j < speeds.size(); ++j) {
    Report rep;
    rep.iteration = it;
    rep.load = r.loads[j];
    rep.speed = speeds[j];
    rep.compute_time = static_cast<double>(r.loads[j]) * r.facts.flops_per_column / speeds[j];
    rep.time = 1.3 * it;
    r.common.push_back(rep);
  }
}

inline MemberView view_of(const Ring& r, std::size_t me, int it, int common_it) {
  MemberView v;
  v.ring = &r.facts;
  v.me = me;
  v.iteration = it;
  v.loads = &r.loads;
  v.common_iteration = common_it;
  v.common = &r.common;
  v.newest = &r.newest;
  return v;
}

}  // namespace ringsim::policy
