#include "planners/points/played_move.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace ringsim::points {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();
// A column move has no rate of its own (the executor does not set one): its links bound it.
constexpr double kUnbounded = std::numeric_limits<double>::infinity();
// The executor does not wait for an instant less than this ahead (SimGrid's clock resolution).
constexpr double kClockResolution = 1e-9;

// One side of a member's part in the move: its blocks in the order of their planned start, the
// block and item it is at, and whether that item's transfer is under way.
struct Queue {
  std::vector<const Transfer*> blocks;
  std::size_t block = 0;
  Count item = 0;
  bool busy = false;

  const Transfer* current() const { return block < blocks.size() ? blocks[block] : nullptr; }
  void item_done() {
    busy = false;
    if (++item == blocks[block]->items) {
      ++block;
      item = 0;
    }
  }
};

// The earliest instant the sender may post its current item: the block's start for the first
// item, a paced block's own departure for the others, none for a back-to-back block's others.
double not_before(const Queue& q) {
  const Transfer& t = *q.current();
  if (q.item == 0) return t.start;
  return t.period != 0.0 ? departure(t, q.item, 0.0) : -kNever;
}

}  // namespace

double played_move_time(const RedistributionPlan& plan, const std::vector<Count>& loads,
                        const NeighbourRoutes& routes) {
  const std::size_t n = loads.size();
  std::vector<Queue> sends(n), receives(n);
  for (std::size_t i = 0; i < n; ++i) {
    sends[i].blocks = blocks_in_play_order(plan, i, true);
    receives[i].blocks = blocks_in_play_order(plan, i, false);
  }
  for (const Transfer& t : plan.transfers)  // as the executor's replay check refuses them
    if (t.items < 1) throw std::logic_error("played move: an empty block");
  std::vector<Count> held = loads;
  std::vector<bool> posted(n, false);  // the sender has taken a column and waits for its receiver
  std::vector<std::size_t> sender_of;  // per transfer under way
  SharedTransfers transfers(routes, 0.0);
  double end = 0.0;
  std::vector<std::size_t> ended;
  for (;;) {
    const double now = transfers.now();
    double wake = kNever;  // the next instant a sender may post
    for (std::size_t i = 0; i < n; ++i) {
      if (posted[i] || sends[i].busy || !sends[i].current()) continue;
      const double at = not_before(sends[i]);
      if (at - now > kClockResolution) wake = std::min(wake, at);
      else if (held[i] > 0) {
        --held[i];
        posted[i] = true;
      }
    }
    for (std::size_t j = 0; j < n; ++j) {
      const Transfer* t = receives[j].current();
      if (receives[j].busy || !t || !posted[t->from]) continue;
      const Transfer* s = sends[t->from].current();
      if (s->to != j || s->dir != t->dir) continue;  // the sender waits on this member's other side
      posted[t->from] = false;
      sends[t->from].busy = receives[j].busy = true;
      const bool next = t->dir == Direction::next;
      const double latency = next ? routes.next_latency[t->from] : routes.prev_latency[t->from];
      transfers.add(now + latency, routes.bytes,
                    {next ? &routes.next_links[t->from] : &routes.prev_links[t->from], kUnbounded,
                     sharing_penalty(latency)});
      sender_of.push_back(t->from);
    }
    ended.clear();
    if (!transfers.advance(wake, ended)) break;
    for (std::size_t k : ended) {
      const std::size_t i = sender_of[k];
      const std::size_t j = sends[i].current()->to;
      sends[i].item_done();
      receives[j].item_done();
      ++held[j];
      end = std::max(end, transfers.now());
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    if (sends[i].current() || receives[i].current())
      throw std::logic_error("played move: member " + std::to_string(i) + " stopped before the end of its blocks");
  return end;
}

}  // namespace ringsim::points
