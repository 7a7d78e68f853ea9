// Transfers between ring neighbours on routes that share links, as SimGrid's CM02 model plays them
// (the linear network model, docs/design.md): a transfer waits its route's latency, then receives
// its weighted max-min fair share of every link it crosses, recomputed whenever a transfer's bytes
// start or end. The weights are CM02's sharing penalties: a transfer's rate is inversely
// proportional to its route's latency (TCP's RTT unfairness; the network/weight-S correction is 0
// under CM02), a route without latency counting 1. The border exchange (border_exchange.hpp), a
// point's all-gather (all_gather.hpp) and its column move (played_move.hpp) are such transfers.
// Pure: no SimGrid; the simulation describes the routes (sim/reference_model.cpp).
#pragma once

#include <cstddef>
#include <vector>

namespace ringsim::points {

// The routes of the ring's neighbour transfers, for their sharing: empty when no SHARED link
// carries two of them and no FATPIPE link two of different penalties (each transfer then takes
// its edge's cost alone).
struct NeighbourRoutes {
  std::vector<double> capacity;  // per link, bytes/s
  std::vector<bool> shared;      // per link: SHARED (else FATPIPE: no transfer above its capacity)
  // Per member i: the links and latency of its column to its successor (next) and predecessor (prev).
  std::vector<std::vector<std::size_t>> next_links, prev_links;
  std::vector<double> next_latency, prev_latency;
  std::vector<double> next_rate, prev_rate;  // a border transfer's own rate bound, bytes/s (+inf: none)
  double bytes = 0.0;                        // one column

  bool empty() const { return capacity.empty(); }
};

// One transfer's share: the links it crosses, its own bound and its sharing penalty.
struct RouteShare {
  const std::vector<std::size_t>* links = nullptr;
  double bound = 0.0;    // bytes/s, +inf for none
  double penalty = 1.0;  // its rate is a common level over this (sharing_penalty)
};

// CM02's sharing penalty of a transfer whose route has this latency.
inline double sharing_penalty(double latency) { return latency > 0.0 ? latency : 1.0; }

// The weighted max-min fair rates of `transfers` that share the links, as SimGrid's lmm solves
// them: raise a common level, each transfer not frozen flowing at level / penalty; freeze a
// transfer at its own bound, and every transfer of a link when the link saturates, until every
// transfer is frozen. A SHARED link saturates when its transfers' rates fill its capacity; a
// FATPIPE link (lmm's unshared constraint: no transfer above the capacity) when the transfer of
// least penalty on it reaches the capacity, so that the others are frozen below it, in proportion
// to that penalty over theirs (two transfers of route latency 10 ms and 40 ms through a 1 MBps
// FATPIPE link flow at 1 MBps and 0.25 MBps in SimGrid 3.32).
std::vector<double> max_min_rates(const NeighbourRoutes& routes, const std::vector<RouteShare>& transfers);

// max_min_rates' buffers, kept by a caller that solves many times (a point's move solves once per
// event): the rates are in `rate` after each call.
struct MaxMinWork {
  std::vector<double> rate, bound, left, weight, fat_level;  // left, weight, fat_level: per link
  std::vector<std::size_t> users, freeze;
  std::vector<bool> frozen;
  std::vector<std::size_t> crossed;  // the links the transfers cross, increasing
  std::vector<bool> is_crossed;      // per link, false between calls
  std::vector<std::size_t> first_user, user_count, link_users;  // each crossed link's transfers
  std::vector<bool> stopping;
};
void max_min_rates(const NeighbourRoutes& routes, const std::vector<RouteShare>& transfers, MaxMinWork& work);

// Transfers over time on the routes: each added with the instant its latency has passed and its
// bytes; between two events (a transfer's bytes start or end) the rates are constant.
class SharedTransfers {
 public:
  SharedTransfers(const NeighbourRoutes& routes, double start) : routes_(routes), now_(start) {}

  // A transfer whose bytes start flowing at `release`; its index, in the order added.
  std::size_t add(double release, double bytes, RouteShare share);
  // Moves the clock to the next event (a release or an end), or to `horizon` if that comes first,
  // and appends to `ended` the transfers that end there. False, the clock unmoved, when there is
  // nothing to wait for: no transfer left and an infinite horizon.
  bool advance(double horizon, std::vector<std::size_t>& ended);
  double now() const { return now_; }

 private:
  struct Flow {
    double release = 0.0;  // when its latency has passed: its bytes start to flow
    double bytes = 0.0;
    double left = 0.0;     // bytes still to send
    RouteShare share;
    bool finished = false;
  };
  const NeighbourRoutes& routes_;
  std::vector<Flow> flows_;
  // The flows not finished, in the order added (a move adds one flow per column: scanning only
  // these keeps each event O(flows under way), not O(flows ever added)).
  std::vector<std::size_t> live_;
  std::vector<std::size_t> active_;  // advance's: the live flows whose bytes flow, and their shares
  std::vector<RouteShare> shares_;
  MaxMinWork work_;
  double now_;
};

}  // namespace ringsim::points
