#include "planners/redistribution/lemma4_runs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ringsim {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

// Items first .. first+count-1 of a hop leave at start + (m - first) * period.
struct Run {
  Count first;
  Count count;
  double start;
  double period;
  double last() const { return start + static_cast<double>(count - 1) * period; }
};

// What a sender can send, and from when: a source holds everything from t0 (its port free then);
// a forwarder holds `held` items from time 0 and then receives the upstream hop's items, each
// `c_up` after it leaves.
struct Feed {
  bool source = true;
  double t0 = 0.0;
  Count held = 0;
  std::vector<Run> upstream;
  double c_up = 0.0;
};

void append(std::vector<Run>& runs, const Run& r) {
  if (r.count <= 0) return;
  if (!runs.empty()) {
    Run& b = runs.back();
    const double next = b.start + static_cast<double>(b.count) * b.period;
    if (b.period == r.period && std::abs(next - r.start) <= 1e-12 * std::max(1.0, std::abs(r.start))) {
      b.count += r.count;
      return;
    }
  }
  runs.push_back(r);
}

// Departures of `sends` items over a link of item cost c, uncontested receiver (Section 4's
// recursion d(m) = max(d(m-1) + c, a(m)), one run of arrivals at a time).
std::vector<Run> departures(const Feed& in, Count sends, double c) {
  std::vector<Run> out;
  if (sends <= 0) return out;
  if (in.source) {
    out.push_back({0, sends, in.t0, c});
    return out;
  }
  const Count own = std::min(in.held, sends);
  double carry = -kNever;  // d(m-1) + c
  if (own > 0) {
    out.push_back({0, own, 0.0, c});
    carry = static_cast<double>(own) * c;
  }
  Count m = own;
  for (const Run& up : in.upstream) {
    if (m >= sends) break;
    const Count cnt = std::min(up.count, sends - m);
    const double s = up.start + in.c_up;  // arrival of the run's first item
    const double p = up.period;
    if (p <= c) {  // arrivals no slower than sending: back to back from the first of them
      const double d0 = std::max(carry, s);
      append(out, {m, cnt, d0, c});
      carry = d0 + static_cast<double>(cnt) * c;
    } else if (carry <= s) {  // caught up: at the arrivals' pace
      append(out, {m, cnt, s, p});
      carry = s + static_cast<double>(cnt - 1) * p + c;
    } else {  // back to back until the arrivals overtake, then at their pace
      auto behind = [&](Count k) { return s + static_cast<double>(k) * p < carry + static_cast<double>(k) * c; };
      Count k = static_cast<Count>(std::ceil((carry - s) / (p - c)));
      k = std::clamp<Count>(k, 0, cnt);
      while (k > 0 && !behind(k - 1)) --k;
      while (k < cnt && behind(k)) ++k;
      append(out, {m, k, carry, c});
      if (k < cnt) {
        append(out, {m + k, cnt - k, s + static_cast<double>(k) * p, p});
        carry = s + static_cast<double>(cnt - 1) * p + c;
      } else {
        carry += static_cast<double>(k) * c;
      }
    }
    m += cnt;
  }
  return out;
}

double end_of(const std::vector<Run>& runs, double c) { return runs.empty() ? 0.0 : runs.back().last() + c; }

// When a feed's m-th item is in hand, for m = 0, 1, ... in order.
class Availability {
 public:
  explicit Availability(const Feed& f) : f_(f) {}
  double at(Count m) {
    if (f_.source) return f_.t0;
    if (m < f_.held) return 0.0;
    const Count j = m - f_.held;
    while (j >= runs_done_ + f_.upstream[run_].count) runs_done_ += f_.upstream[run_++].count;
    const Run& r = f_.upstream[run_];
    return r.start + static_cast<double>(j - r.first) * r.period + f_.c_up;
  }

 private:
  const Feed& f_;
  std::size_t run_ = 0;
  Count runs_done_ = 0;
};

struct Sender {
  Feed feed;
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

  // Walks one chain from its source: `to` is the receiver of a sender, `items`/`cost` what it sends.
  auto walk = [&](std::size_t head, double t0, bool clockwise) {
    auto receiver = [&](std::size_t k) { return clockwise ? inst.next(k) : inst.prev(k); };
    auto items = [&](std::size_t k) { return clockwise ? right[k] : left[inst.prev(k)]; };
    auto cost = [&](std::size_t k) { return clockwise ? inst.cost_next[k] : inst.cost_prev[k]; };
    auto forwards = [&](std::size_t r) { return clockwise ? out_next(r) : out_prev(r); };
    auto two_way_sink = [&](std::size_t r) { return clockwise ? in_right(r) : in_left(r); };
    Feed feed;
    feed.t0 = t0;
    std::size_t k = head;
    for (std::size_t hops = 0; hops < n; ++hops) {
      const std::size_t r = receiver(k);
      if (!forwards(r) && two_way_sink(r)) {
        (clockwise ? from_left : from_right)[r] = Sender{std::move(feed), items(k), cost(k)};
        return;
      }
      std::vector<Run> dep = departures(feed, items(k), cost(k));
      makespan = std::max(makespan, end_of(dep, cost(k)));
      if (!forwards(r)) return;
      Feed next;
      next.source = false;
      next.held = inst.loads[r];
      next.upstream = std::move(dep);
      next.c_up = cost(k);
      feed = std::move(next);
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
