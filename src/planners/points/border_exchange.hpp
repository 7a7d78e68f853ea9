// When an iteration's border exchange ends (sim/ring_iteration.cpp): every member, once it has
// computed, posts its two receives and sends one column to each neighbour; a column from member i
// to its neighbour j starts when both have computed (the receive is posted then), and the barrier
// after the exchange waits for the last arrival.
//
// Alone on its route, a column takes its edge's cost c(i -> j) = latency + bytes / bottleneck,
// so the end is max over ring edges of max(done_i, done_j) + c(i -> j): the slowest member's end
// plus the dearest edge only when the two meet. When border transfers that overlap in time cross
// the same SHARED link, they share its bandwidth; the end then follows SimGrid's CM02 model (the
// linear network model, docs/design.md): each transfer waits its route's latency, then receives
// its max-min fair share of every link it crosses (equal weights; a FATPIPE link bounds each
// transfer alone), recomputed whenever a transfer starts or ends. Without shared links the two
// coincide.
// Pure: no SimGrid; the simulation describes the routes (sim/reference_model.cpp).
#pragma once

#include <cstddef>
#include <vector>

namespace ringsim::points {

// The border transfers' routes, for their sharing: empty when no SHARED link carries two of them.
struct BorderRoutes {
  std::vector<double> capacity;  // per link, bytes/s
  std::vector<bool> shared;      // per link: SHARED (else FATPIPE: a bound on each transfer alone)
  // Per member i: the links and latency of its column to its successor (next) and predecessor (prev).
  std::vector<std::vector<std::size_t>> next_links, prev_links;
  std::vector<double> next_latency, prev_latency;
  std::vector<double> next_rate, prev_rate;  // a transfer's own rate bound, bytes/s (+inf: none)
  double bytes = 0.0;                        // one border column

  bool empty() const { return capacity.empty(); }
};

// One transfer's share: the links it crosses and its own bound.
struct BorderTransfer {
  const std::vector<std::size_t>* links = nullptr;
  double bound = 0.0;  // bytes/s, +inf for none
};

// The max-min fair rates of `transfers` that share the links (equal weights): raise every rate
// together, freeze the transfers of a link when it saturates or a transfer at its own bound (a
// FATPIPE link it crosses included), until every transfer is frozen.
std::vector<double> max_min_rates(const BorderRoutes& routes, const std::vector<BorderTransfer>& transfers);

// The end of the exchange, each member i having computed until done[i] (the transfers' sharing
// over time, as the header says).
double shared_exchange_end(const BorderRoutes& routes, const std::vector<double>& done);

}  // namespace ringsim::points
