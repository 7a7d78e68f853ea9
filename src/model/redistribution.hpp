// Value types for data redistribution on a processor ring (no SimGrid here).
// Notation follows Renard, Robert, Vivien, "Data redistribution algorithms for homogeneous and
// heterogeneous processor rings" (HiPC 2004): P_i holds L_i items and must end with L_i - delta_i.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ringsim {

using Count = std::int64_t;
// The most items an instance holds (the sum of its loads): 2^62 leaves the planners' sums and
// differences of counts room within 64 bits.
constexpr Count kMaxTotalItems = Count{1} << 62;

// A ring redistribution instance. cost_next[i] is the time to send one item P_i -> P_(i+1),
// cost_prev[i] the time P_i -> P_(i-1); cost_prev is empty for a unidirectional ring.
struct RingInstance {
  bool bidirectional = false;
  std::vector<Count> loads;
  std::vector<Count> targets;
  std::vector<double> cost_next;
  std::vector<double> cost_prev;

  std::size_t size() const { return loads.size(); }
  std::size_t next(std::size_t i) const { return i + 1 == size() ? 0 : i + 1; }
  std::size_t prev(std::size_t i) const { return i == 0 ? size() - 1 : i - 1; }
  // delta_i = L_i - target_i: positive for an overloaded processor.
  Count imbalance(std::size_t i) const { return loads[i] - targets[i]; }
  // True when every link used by the ring has the same cost (Sections 3 and 5 of the paper).
  bool homogeneous() const;
};

enum class Direction { next, prev };

const char* to_string(Direction d);

// A block of `items` items sent from `from` to its neighbour in direction `dir`, c the link's item
// cost. Back to back (period 0): the m-th item leaves during [start + m*c, start + (m+1)*c) and
// arrives at start + (m+1)*c. Paced (period > c): the m-th item leaves at start + m*period, as
// items forwarded from a slower link arrive, and the block ends at start + (items-1)*period + c.
// One paced block stands for a run of items that would otherwise each be a block of its own.
struct Transfer {
  std::size_t from = 0;
  std::size_t to = 0;
  Direction dir = Direction::next;
  Count items = 0;
  double start = 0.0;
  double end = 0.0;
  double period = 0.0;
};

// When the m-th item (from 0) of block t leaves; c is the item cost of t's link.
inline double departure(const Transfer& t, Count m, double c) {
  return t.start + static_cast<double>(m) * (t.period > 0.0 ? t.period : c);
}

// Where a planner that streams its schedule hands each block, in the plan's order.
using TransferSink = std::function<void(const Transfer&)>;

struct RedistributionPlan {
  std::string planner;
  double time = 0.0;         // makespan of `transfers`
  double lower_bound = 0.0;  // a proven lower bound for this instance
  bool optimal = false;      // true only when time == a proven lower bound (or an exact solver)
  std::vector<Count> send_next;
  std::vector<Count> send_prev;
  std::vector<Transfer> transfers;
  std::vector<std::string> notes;  // e.g. which repair of a printed algorithm was used
};

// Cost of one item sent by P_i in direction d.
inline double item_cost(const RingInstance& inst, std::size_t i, Direction d) {
  return d == Direction::next ? inst.cost_next[i] : inst.cost_prev[i];
}

inline std::size_t neighbour(const RingInstance& inst, std::size_t i, Direction d) {
  return d == Direction::next ? inst.next(i) : inst.prev(i);
}

// Member `member`'s outgoing (or incoming) blocks in the order they are played: by planned start,
// ties in the plan's order. The executor (sim/redistribution_point.cpp) and its model
// (planners/points/played_move.hpp) both walk them so.
std::vector<const Transfer*> blocks_in_play_order(const RedistributionPlan& plan, std::size_t member, bool outgoing);

}  // namespace ringsim

namespace ringsim {
// Throws InputError naming the first problem: n < 2, sizes that differ, loads or targets < 1,
// different sums, costs that are not finite and positive, cost_prev missing when bidirectional.
void validate(const RingInstance& inst);
}  // namespace ringsim
