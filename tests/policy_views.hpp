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
