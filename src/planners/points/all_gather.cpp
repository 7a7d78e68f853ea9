#include "planners/points/all_gather.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace ringsim::points {

std::vector<double> all_gather_ends(const std::vector<double>& report_cost) {
  const std::size_t n = report_cost.size();
  std::vector<double> g(n, 0.0), next(n);
  for (std::size_t round = 1; round < n; ++round) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t succ = (i + 1) % n, pred = (i + n - 1) % n;
      next[i] = std::max(std::max(g[i], g[succ]) + report_cost[i], std::max(g[pred], g[i]) + report_cost[pred]);
    }
    g.swap(next);
  }
  return g;
}

std::vector<double> shared_all_gather_ends(const NeighbourRoutes& routes, double report_bytes) {
  const std::size_t n = routes.next_links.size();
  std::vector<double> g(n, 0.0);
  // Member i is in round[i] (n: done); its report of that round sent, its predecessor's received.
  std::vector<std::size_t> round(n, 1), sender_of;
  std::vector<bool> sent(n, false), received(n, false), sending(n, false);
  SharedTransfers reports(routes, 0.0);
  std::vector<std::size_t> ended;
  for (;;) {
    // A report leaves when its successor, in the same round, has posted its receive.
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t succ = (i + 1) % n;
      if (round[i] < n && !sent[i] && !sending[i] && round[succ] == round[i]) {
        sending[i] = true;
        reports.add(reports.now() + routes.next_latency[i], report_bytes,
                    {&routes.next_links[i], std::numeric_limits<double>::infinity(),
                     sharing_penalty(routes.next_latency[i])});
        sender_of.push_back(i);
      }
    }
    ended.clear();
    if (!reports.advance(std::numeric_limits<double>::infinity(), ended)) break;
    for (std::size_t k : ended) {
      const std::size_t i = sender_of[k];
      sending[i] = false;
      sent[i] = received[(i + 1) % n] = true;
    }
    for (std::size_t i = 0; i < n; ++i)
      if (round[i] < n && sent[i] && received[i]) {
        g[i] = reports.now();
        ++round[i];
        sent[i] = received[i] = false;
      }
  }
  for (std::size_t i = 0; i < n; ++i)
    if (round[i] < n) throw std::logic_error("all-gather: member " + std::to_string(i) + " stopped before its last round");
  return g;
}

}  // namespace ringsim::points
