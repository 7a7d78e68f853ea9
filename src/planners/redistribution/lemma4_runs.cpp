#include "planners/redistribution/lemma4_runs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "planners/redistribution/forwarding_runs.hpp"

namespace ringsim {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

// When a feed's m-th item is in hand, for m = 0, 1, ... in order.
class Availability {
 public:
  explicit Availability(const ForwardingFeed& f) : f_(f) {}
  double at(Count m) {
    if (f_.source) return f_.t0;
    if (m < f_.held) return 0.0;
    const Count j = m - f_.held;
    while (j >= runs_done_ + f_.upstream[run_].count) runs_done_ += f_.upstream[run_++].count;
    const DepartureRun& r = f_.upstream[run_];
    return r.start + static_cast<double>(j - r.first) * r.period + f_.c_up;
  }

 private:
  const ForwardingFeed& f_;
  std::size_t run_ = 0;
  Count runs_done_ = 0;
};

struct Sender {
  ForwardingFeed feed;
  Count items = 0;
  double c = 0.0;
};

// A two-way sink's receiving port, item by item, with the executor's rules: the sender whose item
// just arrived keeps the port when it holds another; otherwise the first ready, the clockwise
// sender (a) when both are. Returns the last arrival.
double contest(const Sender& a, const Sender& b) {
  Availability avail_a(a.feed), avail_b(b.feed);
  double free_a = a.feed.source ? a.feed.t0 : 0.0, free_b = b.feed.source ? b.feed.t0 : 0.0;
  double port = 0.0, last_end = 0.0;
  Count ia = 0, ib = 0;
  int last = -1;
  while (ia < a.items || ib < b.items) {
    const double ra = ia < a.items ? std::max(avail_a.at(ia), free_a) : kNever;
    const double rb = ib < b.items ? std::max(avail_b.at(ib), free_b) : kNever;
    bool take_a;
    double t;
    if (last == 0 && ra <= port) take_a = true, t = port;
    else if (last == 1 && rb <= port) take_a = false, t = port;
    else {
      t = std::max(port, std::min(ra, rb));
      take_a = ra <= t;
    }
    if (take_a) {
      port = free_a = t + a.c;
      ++ia;
      last = 0;
    } else {
      port = free_b = t + b.c;
      ++ib;
      last = 1;
    }
    last_end = std::max(last_end, port);
  }
  return last_end;
}

}  // namespace

std::optional<double> lemma4_makespan_by_runs(const RingInstance& inst, const EdgeFlows& flows) {
  const std::size_t n = inst.size();
  if (n < 3 || !inst.bidirectional) return std::nullopt;
  // Edge i joins P_i and P_(i+1): right[i] items go clockwise over it, left[i] counter-clockwise.
  std::vector<Count> right(n), left(n);
  bool any_right = false, any_left = false;
  for (std::size_t i = 0; i < n; ++i) {
    right[i] = flows.send_next[i];
    left[i] = flows.send_prev[inst.next(i)];
    if (right[i] > 0 && left[i] > 0) return std::nullopt;  // not the flows of one circulation
    any_right |= right[i] > 0;
    any_left |= left[i] > 0;
  }
  auto in_left = [&](std::size_t i) { return right[inst.prev(i)] > 0; };
  auto in_right = [&](std::size_t i) { return left[i] > 0; };
  auto out_next = [&](std::size_t i) { return right[i] > 0; };
  auto out_prev = [&](std::size_t i) { return left[inst.prev(i)] > 0; };

  double makespan = 0.0;
  std::vector<Sender> from_left(n), from_right(n);  // the two feeders of each two-way sink
  bool headless = any_right || any_left;

  // Walks one chain from its source `head` (free from t0), hop by hop: sender k, receiver r.
  auto walk = [&](std::size_t head, double t0, bool clockwise) {
    auto receiver = [&](std::size_t k) { return clockwise ? inst.next(k) : inst.prev(k); };
    auto items = [&](std::size_t k) { return clockwise ? right[k] : left[inst.prev(k)]; };
    auto cost = [&](std::size_t k) { return clockwise ? inst.cost_next[k] : inst.cost_prev[k]; };
    auto forwards = [&](std::size_t r) { return clockwise ? out_next(r) : out_prev(r); };
    auto two_way_sink = [&](std::size_t r) { return clockwise ? in_right(r) : in_left(r); };
    ForwardingFeed feed;
    feed.t0 = t0;
    std::size_t k = head;
    for (std::size_t hops = 0; hops < n; ++hops) {
      const std::size_t r = receiver(k);
      if (!forwards(r) && two_way_sink(r)) {
        (clockwise ? from_left : from_right)[r] = Sender{std::move(feed), items(k), cost(k)};
        return;
      }
      std::vector<DepartureRun> dep = forward_by_runs(feed, items(k), cost(k));
      makespan = std::max(makespan, runs_end(dep, cost(k)));
      if (!forwards(r)) return;
      feed.source = false;  // r forwards: it holds its load and receives what k sent
      feed.held = inst.loads[r];
      feed.upstream = std::move(dep);
      feed.c_up = cost(k);
      k = r;
    }
  };

  for (std::size_t h = 0; h < n; ++h) {
    if (out_next(h) && !in_left(h)) {
      walk(h, 0.0, true);
      headless = false;
    }
    // A two-way source turns counter-clockwise once its clockwise block, back to back from 0, is over.
    if (out_prev(h) && !in_right(h)) {
      walk(h, out_next(h) ? static_cast<double>(right[h]) * inst.cost_next[h] : 0.0, false);
      headless = false;
    }
  }
  if (headless) return std::nullopt;  // every edge carries items the same way round: no source
  for (std::size_t t = 0; t < n; ++t)
    if (in_left(t) && in_right(t)) makespan = std::max(makespan, contest(from_left[t], from_right[t]));
  return makespan;
}

}  // namespace ringsim
