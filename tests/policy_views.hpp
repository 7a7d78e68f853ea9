// A ring as a policy sees it, for the policies' tests: the facts every member knows, every
// member's load, the reports common to all members and the newest ones; the rings the tests start
// from; a snapshot of speeds made common, and one member's view of it.
#pragma once

#include <cmath>
#include <cstddef>
#include <random>
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

// n members of 1e8 flop/s over `iterations` iterations, `columns` of 1e6 flop spread evenly (the
// remainder on member 0): a column costs 0.01 s to a neighbour, a report hop 5 ms and 1 MB/s, a
// planner run 1e6 flop; borders 0.01 s, reports of 16 B.
inline Ring even_ring(std::size_t n, long columns, int iterations) {
  Ring r;
  r.facts.n = n;
  r.facts.iterations = iterations;
  r.facts.columns = columns;
  r.facts.flops_per_column = 1e6;
  r.facts.decision_flops = 1e6;
  r.facts.cost_next.assign(n, 0.01);
  r.facts.cost_prev.assign(n, 0.01);
  r.facts.border_time = 0.01;
  r.facts.report_bytes = 16;
  r.facts.peak.assign(n, 1e8);
  r.facts.latency_next.assign(n, 0.005);
  r.facts.latency_prev.assign(n, 0.005);
  r.facts.bandwidth_next.assign(n, 1e6);
  r.facts.bandwidth_prev.assign(n, 1e6);
  r.loads.assign(n, columns / static_cast<long>(n));
  r.loads[0] += columns - r.loads[0] * static_cast<long>(n);
  return r;
}

// A ring of n where periodic looks never pay (a report hop costs 1 s) and a column costs
// `column` s to move.
inline Ring slow_report_ring(double column, std::size_t n = 8) {
  Ring r = even_ring(n, 125 * static_cast<long>(n), 100);
  r.facts.latency_next.assign(n, 1.0);
  r.facts.latency_prev.assign(n, 1.0);
  r.facts.cost_next.assign(n, column);
  r.facts.cost_prev.assign(n, column);
  return r;
}

// A ring of 4 to 31 members, 100 iterations, whose report hops cost 10^u s with u uniform in
// [log10_hop_low, -0.5], drawn from rng.
inline Ring random_ring_with_hops(std::mt19937_64& rng, double log10_hop_low) {
  const std::size_t n = 4 + rng() % 28;
  Ring r = even_ring(n, 50 * static_cast<long>(n) + static_cast<long>(rng() % 500), 100);
  const double hop = std::pow(10.0, std::uniform_real_distribution<double>(log10_hop_low, -0.5)(rng));
  r.facts.latency_next.assign(n, hop);
  r.facts.latency_prev.assign(n, hop);
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
