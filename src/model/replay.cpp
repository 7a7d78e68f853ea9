#include "model/replay.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

namespace ringsim {
namespace {

struct Interval {
  double start;
  double end;
  std::size_t block;
};

struct ItemEvent {
  double time;
  int kind;  // 0 = arrival, 1 = departure: arrivals at the same instant can be forwarded at once
  std::size_t proc;
};

std::string describe(const Transfer& t, std::size_t index) {
  std::ostringstream os;
  os << "transfer #" << index << " (P" << t.from << "->P" << t.to << ", " << t.items << " items";
  if (t.period != 0.0) os << " every " << t.period;
  os << ", [" << t.start << ", " << t.end << "))";
  return os.str();
}

// One-port: the intervals a processor spends sending (or receiving) must not overlap.
bool overlapping(std::vector<Interval>& intervals, double eps, std::size_t& a, std::size_t& b) {
  std::sort(intervals.begin(), intervals.end(),
            [](const Interval& x, const Interval& y) { return x.start < y.start; });
  for (std::size_t k = 1; k < intervals.size(); ++k) {
    if (intervals[k].start < intervals[k - 1].end - eps) {
      a = intervals[k - 1].block;
      b = intervals[k].block;
      return true;
    }
  }
  return false;
}

}  // namespace

ReplayReport replay(const RingInstance& inst, const RedistributionPlan& plan, double tolerance) {
  ReplayReport rep;
  const std::size_t n = inst.size();
  auto fail = [&rep](std::string msg) {
    rep.ok = false;
    rep.error = std::move(msg);
    return rep;
  };

  double scale = std::max(1.0, std::abs(plan.time));
  for (const auto& t : plan.transfers) scale = std::max({scale, std::abs(t.start), std::abs(t.end)});
  const double eps = tolerance * scale;

  std::vector<std::vector<Interval>> sending(n), receiving(n);
  std::vector<Count> sent_next(n, 0), sent_prev(n, 0);
  std::vector<ItemEvent> events;
  for (std::size_t k = 0; k < plan.transfers.size(); ++k) {
    const Transfer& t = plan.transfers[k];
    if (t.from >= n) return fail(describe(t, k) + ": no such sender");
    if (!inst.bidirectional && t.dir != Direction::next)
      return fail(describe(t, k) + ": sends backwards on a unidirectional ring");
    if (t.to != neighbour(inst, t.from, t.dir))
      return fail(describe(t, k) + ": receiver is not the ring neighbour in that direction");
    if (t.items < 1) return fail(describe(t, k) + ": empty block");
    if (!(t.start >= -eps)) return fail(describe(t, k) + ": starts before time 0");
    const double c = item_cost(inst, t.from, t.dir);
    if (t.period != 0.0 && !(t.period >= c - eps))
      return fail(describe(t, k) + ": paced faster than one item per item cost");
    if (std::abs(t.end - (departure(t, t.items - 1, c) + c)) > eps)
      return fail(describe(t, k) + (t.period != 0.0 ? ": end differs from start + (items-1) * period + cost"
                                                    : ": duration differs from items * cost"));
    (t.dir == Direction::next ? sent_next : sent_prev)[t.from] += t.items;
    sending[t.from].push_back({t.start, t.end, k});
    receiving[t.to].push_back({t.start, t.end, k});
    for (Count m = 0; m < t.items; ++m) {
      const double leaves = departure(t, m, c);
      events.push_back({leaves, 1, t.from});
      events.push_back({leaves + c, 0, t.to});
    }
    rep.makespan = std::max(rep.makespan, t.end);
  }

  for (std::size_t i = 0; i < n; ++i) {
    std::size_t a = 0, b = 0;
    if (overlapping(sending[i], eps, a, b))
      return fail("one-port violated: P" + std::to_string(i) + " sends " + describe(plan.transfers[a], a) +
                  " and " + describe(plan.transfers[b], b) + " at the same time");
    if (overlapping(receiving[i], eps, a, b))
      return fail("one-port violated: P" + std::to_string(i) + " receives " + describe(plan.transfers[a], a) +
                  " and " + describe(plan.transfers[b], b) + " at the same time");
  }
  if (!plan.send_next.empty() && plan.send_next != sent_next)
    return fail("send_next does not match the transfers");
  if (!plan.send_prev.empty() && plan.send_prev != sent_prev)
    return fail("send_prev does not match the transfers");

  // Events closer than eps are simultaneous; arrivals then come first (an item may be forwarded
  // the instant it arrives, as in Algorithm 2's as-soon-as-possible forwarding).
  std::sort(events.begin(), events.end(), [](const ItemEvent& x, const ItemEvent& y) {
    return std::tie(x.time, x.kind, x.proc) < std::tie(y.time, y.kind, y.proc);
  });
  std::vector<Count> held(inst.loads.begin(), inst.loads.end());
  std::size_t k = 0;
  while (k < events.size()) {
    std::size_t group_end = k;
    while (group_end < events.size() && events[group_end].time <= events[k].time + eps) ++group_end;
    for (std::size_t e = k; e < group_end; ++e)
      if (events[e].kind == 0) ++held[events[e].proc];
    for (std::size_t e = k; e < group_end; ++e) {
      if (events[e].kind != 1) continue;
      if (--held[events[e].proc] < 0) {
        std::ostringstream os;
        os << "P" << events[e].proc << " sends an item it does not hold at time " << events[e].time;
        return fail(os.str());
      }
    }
    k = group_end;
  }
  rep.final_loads = held;
  for (std::size_t i = 0; i < n; ++i)
    if (held[i] != inst.targets[i])
      return fail("P" + std::to_string(i) + " ends with " + std::to_string(held[i]) + " items, target " +
                  std::to_string(inst.targets[i]));
  if (std::abs(rep.makespan - plan.time) > eps) {
    std::ostringstream os;
    os << "reported time " << plan.time << " differs from the schedule's makespan " << rep.makespan;
    return fail(os.str());
  }
  return rep;
}

}  // namespace ringsim
