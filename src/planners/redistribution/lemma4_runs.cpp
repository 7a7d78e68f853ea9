#include "planners/redistribution/lemma4_runs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

#include "planners/redistribution/block_budget.hpp"
#include "planners/redistribution/forwarding_runs.hpp"
#include "planners/redistribution/played_items.hpp"

namespace ringsim::redistribution {
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

// Whether a sender can send all it must: a forwarder holds its load and receives the upstream hop's
// items (the executor throws when it cannot; the runs leave that to it).
bool enough(const ForwardingFeed& f, Count sends) {
  if (f.source) return true;
  Count have = f.held;
  for (const DepartureRun& r : f.upstream) have += r.count;
  return have >= sends;
}

// A two-way sink's receiving port, item by item, with the executor's rules: the sender whose item
// just arrived keeps the port when it holds another; otherwise the first ready, the clockwise
// sender (a) when both are. sent(0 or 1, t) is told each item's departure, in order; returns the
// last arrival.
template <class Sent>
double contest(const Sender& a, const Sender& b, Sent&& sent) {
  check_items_played_one_by_one(a.items > kMaxItemsPlayedOneByOne ? a.items : a.items + b.items,
                                "a processor receiving from both neighbours");
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
    sent(take_a ? 0 : 1, t);
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

// Lemma 4's schedule as chains of forwarding hops and contested two-way sinks. hop(k, r, clockwise,
// departures, c) is told every hop whose receiver hears from k alone, with its departures by runs;
// sink(t, clockwise feeder, counter-clockwise feeder) every two-way sink, once all hops are told.
// False when the run structure does not apply (see the header) or some sender cannot send all it
// must (the executor reports that).
template <class Hop, class Sink>
bool traverse_lemma4(const RingInstance& inst, const EdgeFlows& flows, Hop&& hop, Sink&& sink) {
  const std::size_t n = inst.size();
  if (n < 3 || !inst.bidirectional) return false;
  // Edge i joins P_i and P_(i+1): right[i] items go clockwise over it, left[i] counter-clockwise.
  std::vector<Count> right(n), left(n);
  bool any_right = false, any_left = false;
  for (std::size_t i = 0; i < n; ++i) {
    right[i] = flows.send_next[i];
    left[i] = flows.send_prev[inst.next(i)];
    if (right[i] > 0 && left[i] > 0) return false;  // not the flows of one circulation
    any_right |= right[i] > 0;
    any_left |= left[i] > 0;
  }
  auto in_left = [&](std::size_t i) { return right[inst.prev(i)] > 0; };
  auto in_right = [&](std::size_t i) { return left[i] > 0; };
  auto out_next = [&](std::size_t i) { return right[i] > 0; };
  auto out_prev = [&](std::size_t i) { return left[inst.prev(i)] > 0; };

  std::vector<Sender> from_left(n), from_right(n);  // the two feeders of each two-way sink
  bool headless = any_right || any_left, feasible = true;

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
      if (!enough(feed, items(k))) {
        feasible = false;
        return;
      }
      if (!forwards(r) && two_way_sink(r)) {
        (clockwise ? from_left : from_right)[r] = Sender{std::move(feed), items(k), cost(k)};
        return;
      }
      std::vector<DepartureRun> dep = forward_by_runs(feed, items(k), cost(k));
      hop(k, r, clockwise, dep, cost(k));
      if (!forwards(r)) return;
      feed.source = false;  // r forwards: it holds its load and receives what k sent
      feed.held = inst.loads[r];
      feed.upstream = std::move(dep);
      feed.c_up = cost(k);
      k = r;
    }
  };

  for (std::size_t h = 0; h < n && feasible; ++h) {
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
  if (headless || !feasible) return false;  // headless: every edge carries items the same way round
  for (std::size_t t = 0; t < n; ++t)
    if (in_left(t) && in_right(t)) sink(t, from_left[t], from_right[t]);
  return true;
}

}  // namespace

std::optional<double> lemma4_makespan_by_runs(const RingInstance& inst, const EdgeFlows& flows) {
  double makespan = 0.0;
  const bool applies = traverse_lemma4(
      inst, flows,
      [&](std::size_t, std::size_t, bool, const std::vector<DepartureRun>& dep, double c) {
        makespan = std::max(makespan, runs_end(dep, c));
      },
      [&](std::size_t, const Sender& a, const Sender& b) {
        makespan = std::max(makespan, contest(a, b, [](int, double) {}));
      });
  if (!applies) return std::nullopt;
  return makespan;
}


namespace {

// Whether every time of the schedule is computed exactly in doubles, whatever the order of the sums:
// every cost a multiple of 2^-e and every time (at most the sum of all the items' costs) below
// 2^39 * 2^-e. forward_by_runs then joins runs only where they continue one another exactly (its
// tolerance is 1e-12 relative), so the runs' formulas give the executor's very times.
bool exact_arithmetic(const RingInstance& inst, const EdgeFlows& flows) {
  int e = 0;
  double total = 0.0;
  for (std::size_t i = 0; i < inst.size(); ++i) {
    for (const auto& [c, items] : {std::pair{inst.cost_next[i], flows.send_next[i]}, std::pair{inst.cost_prev[i], flows.send_prev[i]}}) {
      if (!(c > 0.0) || !std::isfinite(c)) return false;
      while (std::ldexp(c, e) != std::floor(std::ldexp(c, e))) {
        if (++e > 40) return false;
      }
      total += static_cast<double>(items) * c;
    }
  }
  return std::ldexp(total, e) < std::ldexp(1.0, 39);
}

// When, and in which step of the executor's instant, something happens: the executor takes each
// instant's events as senders that continue a block back to back (phase 0), then clockwise starts
// (1), then counter-clockwise ones (2), each by processor index; within one start, the blocks it
// finishes come as `sub` says (asap_schedule.cpp: its own slot's block, then the block that last
// used its sender's port, then its receiver's, then its own when its sender has nothing left).
struct EventKey {
  double time;
  int phase;
  std::size_t p;
  int sub;
  bool operator<(const EventKey& o) const { return std::tie(time, phase, p, sub) < std::tie(o.time, o.phase, o.p, o.sub); }
};

struct KeyedBlock {
  Transfer block;
  EventKey opened;
  bool last = false;  // it holds its sender's last item that way, sent at `last_key`
  EventKey last_key{};
};

// One sender's blocks in one direction, grown item by item with the executor's joining rules
// (asap_schedule.cpp: joins_open_block, paced_block.hpp: extends_block), or a run at a time once
// the open block continues the run exactly. `tol` is 0 where arithmetic is exact (the very
// comparisons of the executor); otherwise times within tol (relative) are the same instant.
class BlockGrower {
 public:
  // `singly` counts the items given one at a time, over every grower of one schedule: a run joins
  // a block whole unless rounding keeps its items off the block's formula (costs far apart).
  BlockGrower(std::vector<KeyedBlock>& out, std::size_t from, std::size_t to, Direction d, double c, double tol,
              Count& singly)
      : out_(out), from_(from), to_(to), dir_(d), c_(c), tol_(tol), singly_(singly) {}

  // The next item leaves at t; paced joins only with `pace_ok` (no other block took either port
  // since the open one was opened). Returns true when the item opened a block.
  bool item(double t, bool pace_ok, double run_period = 0.0) {
    if (++singly_ > kMaxItemsPlayedOneByOne) check_items_played_one_by_one(singly_, "the schedule by runs");
    const bool back_to_back = any_ && same(t, last_t_ + c_);
    last_t_ = t;
    any_ = true;
    last_phase_ = back_to_back ? 0 : own_phase();
    if (open_ != kNone) {
      Transfer& b = out_[open_].block;
      if (b.period == 0.0 && same(b.end, t)) {
        ++b.items;
        b.end = t + c_;
        return false;
      }
      if (pace_ok && b.end < t && !same(b.end, t)) {
        if (b.items == 1) {
          double period = t - b.start;
          // With real costs, t - start carries start's rounding: the run's own period, when it
          // fits, keeps the block on the run's formula (and lets the rest of the run join whole).
          if (tol_ > 0.0 && run_period > c_ && same(b.start + run_period, t)) period = run_period;
          if (same(b.start + period, t)) {
            b.period = period;
            ++b.items;
            b.end = departure(b, b.items - 1, c_) + c_;
            return false;
          }
        } else if (b.period != 0.0 && same(t, departure(b, b.items, c_))) {
          ++b.items;
          b.end = departure(b, b.items - 1, c_) + c_;
          return false;
        }
      }
    }
    BlockBudget::check(out_.size() + 1);
    out_.push_back({{from_, to_, dir_, 1, t, t + c_}, {t, last_phase_, from_, 0}});
    open_ = out_.size() - 1;
    return true;
  }

  // A run of departures to a receiver that hears from this sender alone (ports always its own).
  void run(const DepartureRun& r) {
    for (Count j = 0; j < r.count; ++j) {
      const double t = r.start + static_cast<double>(j) * r.period;
      if (open_ != kNone && continues(r, j, t)) {  // every later item of the run joins too
        Transfer& b = out_[open_].block;
        b.items += r.count - j;
        last_t_ = r.last();
        last_phase_ = b.period == 0.0 ? 0 : own_phase();
        b.end = b.period == 0.0 ? last_t_ + c_ : departure(b, b.items - 1, c_) + c_;
        return;
      }
      item(t, true, r.period);
    }
  }

  // All this sender's items that way have been given: its last block ends with the last of them.
  void close() {
    if (open_ == kNone) return;
    out_[open_].last = true;
    out_[open_].last_key = {last_t_, last_phase_, from_, 3};
  }

 private:
  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  int own_phase() const { return dir_ == Direction::next ? 1 : 2; }
  bool same(double a, double b) const {
    return a == b || (tol_ > 0.0 && std::abs(a - b) <= tol_ * std::max(1.0, std::abs(b)));
  }
  // Whether the open block takes item j of run r (leaving at t) and every later one: back to back,
  // or paced with the run's first and last items on the block's formula (both progressions are
  // arithmetic, so the items between are too; exactly so where arithmetic is exact).
  bool continues(const DepartureRun& r, Count j, double t) const {
    const Transfer& b = out_[open_].block;
    if (r.period == c_) return b.period == 0.0 && same(b.end, t);
    return b.period != 0.0 && b.end < t && !same(b.end, t) && same(t, departure(b, b.items, c_)) &&
           same(r.last(), departure(b, b.items + (r.count - j) - 1, c_));
  }

  std::vector<KeyedBlock>& out_;
  std::size_t from_, to_;
  Direction dir_;
  double c_, tol_;
  Count& singly_;
  std::size_t open_ = kNone;
  bool any_ = false;
  double last_t_ = 0.0;
  int last_phase_ = 0;
};

// Each block's key once no later item can join it, as the streaming executor finds it: the first
// of the block opened next in its slot, the next block that takes its sender's or its receiver's
// port, and its sender's last item that way. `by_opening` is in opening order.
std::vector<EventKey> final_keys(const std::vector<KeyedBlock>& by_opening, std::size_t n) {
  const std::size_t none = std::numeric_limits<std::size_t>::max();
  std::vector<EventKey> key(by_opening.size(), EventKey{std::numeric_limits<double>::infinity(), 0, 0, 0});
  std::vector<std::size_t> slot(2 * n, none), sent(n, none), received(n, none);
  auto settle = [&](std::size_t b, const EventKey& k) {
    if (b != none && k < key[b]) key[b] = k;
  };
  for (std::size_t i = 0; i < by_opening.size(); ++i) {
    const Transfer& t = by_opening[i].block;
    const EventKey& k = by_opening[i].opened;
    std::size_t& own = slot[2 * t.from + (t.dir == Direction::next ? 0 : 1)];
    settle(own, {k.time, k.phase, k.p, 0});
    settle(sent[t.from], {k.time, k.phase, k.p, 1});
    settle(received[t.to], {k.time, k.phase, k.p, 2});
    own = sent[t.from] = received[t.to] = i;
    if (by_opening[i].last) settle(i, by_opening[i].last_key);
  }
  return key;
}

}  // namespace

std::optional<Lemma4Blocks> lemma4_blocks_by_runs(const RingInstance& inst, const EdgeFlows& flows, bool in_opening_order,
                                                  Count real_costs_from) {
  const bool exact = exact_arithmetic(inst, flows);
  if (!exact && inst.size() == flows.send_next.size() && inst.size() == flows.send_prev.size()) {
    Count items = 0;
    for (std::size_t i = 0; i < inst.size(); ++i) items += flows.send_next[i] + flows.send_prev[i];
    if (items < real_costs_from) return std::nullopt;
  }
  const double tol = exact ? 0.0 : 1e-12;
  std::vector<KeyedBlock> blocks;
  Count singly = 0;
  auto dir_of = [](bool clockwise) { return clockwise ? Direction::next : Direction::prev; };
  const bool applies = traverse_lemma4(
      inst, flows,
      [&](std::size_t k, std::size_t r, bool clockwise, const std::vector<DepartureRun>& dep, double c) {
        BlockGrower grow(blocks, k, r, dir_of(clockwise), c, tol, singly);
        for (const DepartureRun& run : dep) grow.run(run);
        grow.close();
      },
      [&](std::size_t t, const Sender& a, const Sender& b) {
        // The sink's port goes to one sender or the other: a sender's paced block grows only while
        // it holds the block that last took the port.
        BlockGrower grow[2] = {BlockGrower(blocks, inst.prev(t), t, Direction::next, a.c, tol, singly),
                               BlockGrower(blocks, inst.next(t), t, Direction::prev, b.c, tol, singly)};
        int owner = -1;
        contest(a, b, [&](int who, double when) {
          if (grow[who].item(when, owner == who)) owner = who;
        });
        grow[0].close();
        grow[1].close();
      });
  if (!applies) return std::nullopt;
  Lemma4Blocks answer;
  for (const KeyedBlock& b : blocks) answer.makespan = std::max(answer.makespan, b.block.end);
  std::sort(blocks.begin(), blocks.end(), [](const KeyedBlock& a, const KeyedBlock& b) { return a.opened < b.opened; });
  answer.blocks.reserve(blocks.size());
  if (in_opening_order) {
    for (const KeyedBlock& b : blocks) answer.blocks.push_back(b.block);
    return answer;
  }
  const std::vector<EventKey> key = final_keys(blocks, inst.size());
  std::vector<std::size_t> order(blocks.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key[a] < key[b]; });
  for (std::size_t i : order) answer.blocks.push_back(blocks[i].block);
  return answer;
}

}  // namespace ringsim::redistribution
