// k for transfers that do not cross a single backbone: the KPBS paper's k = min(v1, v2, floor(bb /
// min(b1, b2, bb))) (seeds/kpbs-ggp-backbone-message-scheduling.md, Section 1.2) is "the maximum
// number of simultaneous connections generating no interferences". On an arbitrary network the
// same question is asked of every link: under the one-port rule at most min(|senders crossing it|,
// |receivers crossing it|) transfers cross a link at once, each at most at the fastest full rate
// among the pairs that cross it; a link that could then be overloaded limits k to
// floor(capacity / that rate). With k so chosen, every transfer of a step keeps its full rate
// (each flow alone on its bottleneck link: the max-min fair share), so a step lasts exactly beta
// plus its longest amount under a linear network model without latency. On the KPBS paper's two-cluster
// platform this gives the KPBS paper's formula.
#pragma once

#include <cstddef>
#include <vector>

namespace ringsim::kpbs {

struct PairRoute {
  bool used = false;               // the pair has data to move over the network
  std::vector<std::size_t> links;  // indices into the capacity vector
  double rate = 0.0;               // full rate of the pair alone: its bottleneck, bytes/s
};

// routes[i][j] for sender i, receiver j. capacity[l] in bytes/s; +inf for links whose flows do not
// share (fat pipes). Returns at least 1; min(senders with data, receivers with data) when no link
// limits, 1 when nothing moves.
std::size_t interference_free_concurrency(const std::vector<std::vector<PairRoute>>& routes,
                                          const std::vector<double>& capacity);

}  // namespace ringsim::kpbs
