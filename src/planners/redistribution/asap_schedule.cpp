#include "planners/redistribution/asap_schedule.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>
#include <tuple>

namespace ringsim {
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
               const std::vector<Count>& send_prev, PortPolicy policy)
      : inst_(inst), policy_(policy), held_(inst.loads), remaining_{send_next, send_prev},
        sending_(inst.size(), false), receiving_(inst.size(), false),
        open_block_{std::vector<long>(inst.size(), -1), std::vector<long>(inst.size(), -1)},
        all_(inst.size()) {
    if (remaining_[1].empty()) remaining_[1].assign(inst.size(), 0);
    for (std::size_t i = 0; i < all_.size(); ++i) all_[i] = i;
  }

  std::vector<Transfer> run() {
    start_round(all_, 0.0);
    std::vector<std::pair<std::size_t, Direction>> continuing;
    std::vector<std::size_t> touched;
    while (!queue_.empty()) {
      const double now = queue_.top().time;
      continuing.clear();
      touched.clear();
      while (!queue_.empty() && queue_.top().time == now) {
        const Completion c = queue_.top();
        queue_.pop();
        const std::size_t to = neighbour(inst_, c.from, c.dir);
        ++held_[to];
        sending_[c.from] = false;
        receiving_[to] = false;
        continuing.emplace_back(c.from, c.dir);
        touched.insert(touched.end(), {c.from, to, inst_.prev(to), inst_.next(to)});
      }
      // A sender that just finished an item keeps the receiver's port for its next item in the
      // same direction: blocks stay back to back, as Lemma 4's schedule requires (a competing
      // neighbour gets the port when the block ends).
      std::sort(continuing.begin(), continuing.end());
      for (const auto& [p, d] : continuing) try_continue(p, now, d);
      std::sort(touched.begin(), touched.end());
      touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
      start_round(touched, now);
    }
    for (const auto& side : remaining_)
      for (Count r : side)
        if (r != 0) throw std::logic_error("schedule_asap: some items are never available to send");
    return std::move(transfers_);
  }

 private:
  static int side(Direction d) { return d == Direction::next ? 0 : 1; }

  bool can_send(std::size_t p, Direction d) const {
    return remaining_[side(d)][p] > 0 && !receiving_[neighbour(inst_, p, d)];
  }

  bool choose(std::size_t p, Direction& out) const {
    const bool n = can_send(p, Direction::next), b = can_send(p, Direction::prev);
    switch (policy_) {
      case PortPolicy::next_then_prev:
        if (remaining_[0][p] > 0) return n ? (out = Direction::next, true) : false;
        return b ? (out = Direction::prev, true) : false;
      case PortPolicy::prev_then_next:
        if (remaining_[1][p] > 0) return b ? (out = Direction::prev, true) : false;
        return n ? (out = Direction::next, true) : false;
      case PortPolicy::longest_first: {
        if (!n && !b) return false;
        if (n && b) {
          const double tn = static_cast<double>(remaining_[0][p]) * inst_.cost_next[p];
          const double tp = static_cast<double>(remaining_[1][p]) * inst_.cost_prev[p];
          out = tn >= tp ? Direction::next : Direction::prev;
        } else {
          out = n ? Direction::next : Direction::prev;
        }
        return true;
      }
    }
    return false;
  }

  // Clockwise sends claim free receivers before counter-clockwise ones: in Lemma 4's schedule
  // every P_i sends to P_(i+1) from time 0, so a sink's clockwise reception must not be pre-empted
  // by a neighbour that has only counter-clockwise items.
  void start_round(const std::vector<std::size_t>& procs, double now) {
    for (std::size_t p : procs) try_start(p, now, true);
    for (std::size_t p : procs) try_start(p, now, false);
  }

  void try_continue(std::size_t p, double now, Direction same) {
    Direction d{};
    if (sending_[p] || held_[p] <= 0 || !choose(p, d) || d != same) return;
    start(p, now, d);
  }

  void try_start(std::size_t p, double now, bool next_only) {
    Direction d{};
    if (sending_[p] || held_[p] <= 0 || !choose(p, d)) return;
    if (next_only && d != Direction::next) return;
    start(p, now, d);
  }

  void start(std::size_t p, double now, Direction d) {
    const std::size_t to = neighbour(inst_, p, d);
    const double c = item_cost(inst_, p, d);
    --held_[p];
    --remaining_[side(d)][p];
    sending_[p] = true;
    receiving_[to] = true;
    queue_.push({now + c, p, d});
    record(p, to, d, now, now + c);
  }

  // Items leaving back to back from the same sender in the same direction form one block.
  void record(std::size_t p, std::size_t to, Direction d, double start, double end) {
    long& open = open_block_[side(d)][p];
    if (open >= 0 && transfers_[static_cast<std::size_t>(open)].end == start) {
      Transfer& t = transfers_[static_cast<std::size_t>(open)];
      ++t.items;
      t.end = end;
      return;
    }
    open = static_cast<long>(transfers_.size());
    transfers_.push_back({p, to, d, 1, start, end});
  }

  const RingInstance& inst_;
  PortPolicy policy_;
  std::vector<Count> held_;
  std::vector<Count> remaining_[2];
  std::vector<bool> sending_, receiving_;
  std::vector<long> open_block_[2];
  std::vector<std::size_t> all_;
  std::vector<Transfer> transfers_;
  std::priority_queue<Completion, std::vector<Completion>, std::greater<>> queue_;
};

}  // namespace

std::vector<Transfer> schedule_asap(const RingInstance& inst, const std::vector<Count>& send_next,
                                    const std::vector<Count>& send_prev, PortPolicy policy) {
  return AsapExecutor(inst, send_next, send_prev, policy).run();
}

double makespan(const std::vector<Transfer>& transfers) {
  double m = 0.0;
  for (const auto& t : transfers) m = std::max(m, t.end);
  return m;
}

}  // namespace ringsim
