#include "planners/redistribution/asap_schedule.hpp"
#include "planners/redistribution/block_budget.hpp"
#include "planners/redistribution/lemma4_runs.hpp"
#include "planners/redistribution/paced_block.hpp"
#include "planners/redistribution/played_items.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <optional>
#include <queue>
#include <random>
#include <stdexcept>
#include <tuple>

namespace ringsim::redistribution {
namespace {

struct Completion {
  double time;
  std::size_t from;
  Direction dir;
  bool operator>(const Completion& o) const {
    return std::tie(time, from, dir) > std::tie(o.time, o.from, o.dir);
  }
};

class AsapExecutor {
 public:
  AsapExecutor(const RingInstance& inst, const std::vector<Count>& send_next,
               const std::vector<Count>& send_prev, const AsapRules& rules, const TransferSink& emit)
      : inst_(inst), rules_(rules), emit_(emit), held_(inst.loads), rem_{send_next, send_prev},
        sending_(inst.size(), 0), receiving_(inst.size(), 0),
        slots_{std::vector<Slot>(inst.size()), std::vector<Slot>(inst.size())},
        last_sent_(inst.size(), kNone), last_received_(inst.size(), kNone),
        rng_(rules.seed) {
    if (rem_[1].empty()) rem_[1].assign(inst.size(), 0);
    check_items_played_one_by_one(items_to_play(), "the item-by-item schedule");
    if (rules_.policy == PortPolicy::random_then_other) {
      prefer_next_.resize(inst.size());
      for (auto& p : prefer_next_) p = static_cast<char>(rng_() >> 63);
    }
  }

  // Returns the makespan; the blocks went to emit.
  double run() {
    const std::size_t n = inst_.size();
    std::vector<std::size_t> ready(n);
    std::vector<std::pair<std::size_t, Direction>> continuing;
    for (std::size_t i = 0; i < n; ++i) ready[i] = i;
    start_all(ready, 0.0);
    while (!queue_.empty()) {
      const double now = queue_.top().time;
      continuing.clear();
      ready.clear();
      while (!queue_.empty() && queue_.top().time == now) {
        const Completion c = queue_.top();
        queue_.pop();
        const std::size_t to = neighbour(inst_, c.from, c.dir);
        ++held_[to];
        sending_[c.from] = 0;
        receiving_[to] = 0;
        continuing.emplace_back(c.from, c.dir);
        ready.insert(ready.end(), {c.from, to, inst_.prev(to), inst_.next(to)});
      }
      std::sort(continuing.begin(), continuing.end());
      for (const auto& [p, d] : continuing) continue_block(p, d, now);
      start_all(ready, now);
    }
    for (const auto& side : rem_)
      for (Count r : side)
        if (r != 0) throw std::logic_error("schedule_asap: some items are never available to send");
    for (int side = 0; side < 2; ++side)
      for (std::size_t p = 0; p < n; ++p) finish_block(side, p);
    if (rules_.hand_out == HandOut::in_opening_order) {
      std::sort(done_.begin(), done_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (const auto& [id, block] : done_) emit_(block);
    }
    return makespan_;
  }

  std::size_t held_peak() const { return held_peak_; }

 private:
  // The items of every flow, up to just past the bound (their sum may not fit a Count).
  Count items_to_play() const {
    Count items = 0;
    for (const auto& side : rem_)
      for (Count r : side)
        if ((items += std::min(r, kMaxItemsPlayedOneByOne + 1)) > kMaxItemsPlayedOneByOne) return items;
    return items;
  }

  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  // The block each sender has open in each direction (numbered as opened), if any.
  struct Slot {
    std::size_t id = kNone;
    Transfer block;
  };
  static int side(Direction d) { return d == Direction::next ? 0 : 1; }

  double work_left(std::size_t p, Direction d) const {
    return static_cast<double>(rem_[side(d)][p]) * item_cost(inst_, p, d);
  }
  double work_left(std::size_t p) const { return work_left(p, Direction::next) + work_left(p, Direction::prev); }

  bool can_send(std::size_t p, Direction d) const {
    return rem_[side(d)][p] > 0 && !receiving_[neighbour(inst_, p, d)];
  }

  bool choose(std::size_t p, Direction& out) const {
    const bool n = can_send(p, Direction::next), b = can_send(p, Direction::prev);
    switch (rules_.policy) {
      case PortPolicy::next_then_prev:  // Lemma 4: the other direction only once this one is done
        if (rem_[0][p] > 0) return n && (out = Direction::next, true);
        return b && (out = Direction::prev, true);
      case PortPolicy::prev_then_next:
        if (rem_[1][p] > 0) return b && (out = Direction::prev, true);
        return n && (out = Direction::next, true);
      case PortPolicy::longest_first:
        if (n && b) out = work_left(p, Direction::next) >= work_left(p, Direction::prev) ? Direction::next : Direction::prev;
        else if (n || b) out = n ? Direction::next : Direction::prev;
        return n || b;
      case PortPolicy::random_then_other:
        if (prefer_next_[p] ? rem_[0][p] > 0 : rem_[1][p] == 0) return n && (out = Direction::next, true);
        return b && (out = Direction::prev, true);
      case PortPolicy::random_each_item:
        if (n && b) out = rng_() >> 63 ? Direction::next : Direction::prev;
        else if (n || b) out = n ? Direction::next : Direction::prev;
        return n || b;
    }
    return false;
  }

  // The sender that has just finished an item keeps the receiver's port for its next item in the
  // same direction: blocks stay back to back, as Lemma 4's schedule requires (a competing
  // neighbour gets the port when the block ends). With keep_busy it also has the first claim on
  // the other receiver, which keeps a critical sender from idling.
  void continue_block(std::size_t p, Direction same, double now) {
    Direction d{};
    if (!sending_[p] && held_[p] > 0 && choose(p, d) && (d == same || rules_.keep_busy)) start(p, d, now);
  }

  void start_all(std::vector<std::size_t>& ready, double now) {
    std::sort(ready.begin(), ready.end());
    ready.erase(std::unique(ready.begin(), ready.end()), ready.end());
    if (rules_.contention == PortContention::longest_first) {
      std::stable_sort(ready.begin(), ready.end(),
                       [this](std::size_t a, std::size_t b) { return work_left(a) > work_left(b); });
    } else if (rules_.contention == PortContention::random) {
      // Fisher-Yates with the raw generator (distributions differ between standard libraries).
      for (std::size_t k = ready.size(); k > 1; --k) std::swap(ready[k - 1], ready[rng_() % k]);
    }
    // Lemma 4: every P_i sends to P_(i+1) from time 0, so a sink's clockwise reception must not
    // be pre-empted by a neighbour that only has counter-clockwise items (the proof of Lemma 4
    // starts P_(i+1)'s counter-clockwise block when both ports are free). The mirror rule holds
    // for the mirrored order.
    if (rules_.policy == PortPolicy::next_then_prev || rules_.policy == PortPolicy::prev_then_next) {
      const Direction first = rules_.policy == PortPolicy::next_then_prev ? Direction::next : Direction::prev;
      for (std::size_t p : ready) {
        Direction d{};
        if (!sending_[p] && held_[p] > 0 && choose(p, d) && d == first) start(p, d, now);
      }
    }
    for (std::size_t p : ready) {
      Direction d{};
      if (!sending_[p] && held_[p] > 0 && choose(p, d)) start(p, d, now);
    }
  }

  void start(std::size_t p, Direction d, double now) {
    const std::size_t to = neighbour(inst_, p, d);
    const double c = item_cost(inst_, p, d);
    --held_[p];
    --rem_[side(d)][p];
    sending_[p] = 1;
    receiving_[to] = 1;
    queue_.push({now + c, p, d});
    makespan_ = std::max(makespan_, now + c);
    const int s = side(d);
    Slot& slot = slots_[s][p];
    if (!joins_open_block(slot, p, to, now, c)) {
      const std::size_t sent_before = last_sent_[p], received_before = last_received_[to];
      finish_block(s, p);  // its sender opens another block that way
      BlockBudget::check(opened_ + 1);
      slot.id = opened_++;
      slot.block = {p, to, d, 1, now, now + c};
      last_sent_[p] = last_received_[to] = slot.id;
      ++open_blocks_;
      held_peak_ = std::max(held_peak_, open_blocks_ + done_.size());
      if (rules_.settle_early) {
        settle(sent_before, p, Direction::next, p, Direction::prev);
        settle(received_before, inst_.prev(to), Direction::next, inst_.next(to), Direction::prev);
      }
    }
    if (rules_.settle_early && rem_[s][p] == 0) finish_block(s, p);  // nothing left that way
  }

  // Block `id`, which was on one of the two slots named, has just lost its sender's or its
  // receiver's port to a new block. No item can join it any more: its ports were its own until
  // its end, so none leaves back to back with it, nor at its pace (joins_open_block).
  void settle(std::size_t id, std::size_t p1, Direction d1, std::size_t p2, Direction d2) {
    if (id == kNone) return;
    for (const auto& [q, d] : {std::pair{p1, d1}, std::pair{p2, d2}})
      if (slots_[side(d)][q].id == id) finish_block(side(d), q);
  }

  void finish_block(int s, std::size_t p) {
    Slot& slot = slots_[s][p];
    if (slot.id == kNone) return;
    if (rules_.hand_out == HandOut::in_opening_order) done_.emplace_back(slot.id, slot.block);
    else emit_(slot.block);
    slot.id = kNone;
    --open_blocks_;
  }

  // Items from the same sender in the same direction form one block when they leave back to
  // back, or at a steady pace (forwarded from a slower link) with neither port used by another
  // block in between (a block holds both ports from its start to its end). Paced items join only
  // where start + m*period is exactly their time: schedules keep the very times they had item by
  // item, and so do the simulations that execute them.
  bool joins_open_block(Slot& slot, std::size_t p, std::size_t to, double now, double c) {
    if (slot.id == kNone) return false;
    const std::size_t open = slot.id;
    Transfer& b = slot.block;
    if (b.period == 0.0 && b.end == now) {
      ++b.items;
      b.end = now + c;
      return true;
    }
    return rules_.paced_blocks && last_sent_[p] == open && last_received_[to] == open && b.end < now &&
           extends_block(b, departure(b, b.items - 1, c), now, c);
  }

  const RingInstance& inst_;
  AsapRules rules_;
  const TransferSink& emit_;
  std::vector<Count> held_;
  std::vector<Count> rem_[2];
  std::vector<char> sending_, receiving_;
  std::vector<Slot> slots_[2];
  std::vector<std::size_t> last_sent_, last_received_;  // the latest block using each port
  std::vector<std::pair<std::size_t, Transfer>> done_;  // in_opening_order: the finished blocks
  std::size_t opened_ = 0, open_blocks_ = 0, held_peak_ = 0;
  double makespan_ = 0.0;
  std::priority_queue<Completion, std::vector<Completion>, std::greater<>> queue_;
  mutable std::mt19937_64 rng_;  // the random rules only
  std::vector<char> prefer_next_;
};

// The rules of a run whose blocks are all kept: in the order they were opened, finished only by
// the joining rules themselves (the plan's blocks, whatever a stream would hand out early).
AsapRules held_whole(AsapRules rules) {
  rules.hand_out = HandOut::in_opening_order;
  rules.settle_early = false;
  return rules;
}

// Reversing a schedule (each item travels back, from its receiver to its sender, over
// [T - end, T - start)) gives a feasible schedule of the reversed instance: loads and targets
// swapped, the cost of P_i -> P_(i+1) moved to P_(i+1) -> P_i and conversely, the items crossing
// each edge sent the other way. Holdings are the same at every instant and one-port is symmetric.
std::vector<Transfer> schedule_alap(const RingInstance& inst, const std::vector<Count>& send_next,
                                    const std::vector<Count>& send_prev, const AsapRules& rules) {
  RingInstance rev = inst;
  std::swap(rev.loads, rev.targets);
  std::vector<Count> rev_next(inst.size()), rev_prev(inst.size());
  for (std::size_t i = 0; i < inst.size(); ++i) {
    rev.cost_next[i] = inst.cost_prev[inst.next(i)];
    rev.cost_prev[inst.next(i)] = inst.cost_next[i];
    rev_next[i] = send_prev[inst.next(i)];
    rev_prev[inst.next(i)] = send_next[i];
  }
  std::vector<Transfer> transfers;
  const TransferSink hold = [&transfers](const Transfer& t) { transfers.push_back(t); };
  const double T = AsapExecutor(rev, rev_next, rev_prev, held_whole(rules), hold).run();
  for (auto& t : transfers) {
    const double s = t.start;
    std::swap(t.from, t.to);
    t.dir = t.dir == Direction::next ? Direction::prev : Direction::next;
    t.start = T - t.end;
    t.end = T - s;
  }
  std::sort(transfers.begin(), transfers.end(),
            [](const Transfer& a, const Transfer& b) { return std::tie(a.start, a.from, a.dir) < std::tie(b.start, b.from, b.dir); });
  return transfers;
}

// Lemma 4's schedule by runs of items (HiPC 2004, Section 6; lemma4_runs.hpp), where the rules are
// Lemma 4's and a stream would hand its blocks out by the settling rules: nothing where it does not
// apply, and the executor plays the items one by one.
std::optional<Lemma4Blocks> by_runs(const RingInstance& inst, const std::vector<Count>& send_next,
                                    const std::vector<Count>& send_prev, const AsapRules& rules, bool held_whole) {
  const bool lemma4 = rules.by_runs && rules.policy == PortPolicy::next_then_prev &&
                      rules.contention == PortContention::ring_index && !rules.keep_busy && !rules.as_late_as_possible &&
                      rules.paced_blocks;
  if (!lemma4 || send_prev.size() != inst.size() || (!held_whole && !rules.settle_early)) return std::nullopt;
  return lemma4_blocks_by_runs(inst, EdgeFlows{send_next, send_prev}, held_whole);
}

}  // namespace

std::vector<Transfer> schedule_asap(const RingInstance& inst, const std::vector<Count>& send_next,
                                    const std::vector<Count>& send_prev, const AsapRules& rules) {
  if (rules.as_late_as_possible) return schedule_alap(inst, send_next, send_prev, rules);
  if (auto runs = by_runs(inst, send_next, send_prev, rules, true)) return std::move(runs->blocks);
  std::vector<Transfer> transfers;
  const TransferSink hold = [&transfers](const Transfer& t) { transfers.push_back(t); };
  AsapExecutor(inst, send_next, send_prev, held_whole(rules), hold).run();
  return transfers;
}

double stream_asap(const RingInstance& inst, const std::vector<Count>& send_next, const std::vector<Count>& send_prev,
                   const AsapRules& rules, const TransferSink& emit, std::size_t* held_peak) {
  if (rules.as_late_as_possible) {
    const auto transfers = schedule_alap(inst, send_next, send_prev, rules);
    for (const auto& t : transfers) emit(t);
    if (held_peak) *held_peak = transfers.size();
    return makespan(transfers);
  }
  const bool held_whole = rules.hand_out == HandOut::in_opening_order;
  if (auto runs = by_runs(inst, send_next, send_prev, rules, held_whole)) {
    for (const auto& t : runs->blocks) emit(t);
    if (held_peak) *held_peak = runs->blocks.size();  // computed whole, then handed out
    return runs->makespan;
  }
  AsapExecutor executor(inst, send_next, send_prev, rules, emit);
  const double t = executor.run();
  if (held_peak) *held_peak = executor.held_peak();
  return t;
}

double makespan(const std::vector<Transfer>& transfers) {
  double m = 0.0;
  for (const auto& t : transfers) m = std::max(m, t.end);
  return m;
}

}  // namespace ringsim::redistribution
