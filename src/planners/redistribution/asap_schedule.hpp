// Item-by-item, as-soon-as-possible execution of given per-edge item counts under the one-port
// model (HiPC 2004, Section 2): a processor sends an item when it holds one, its sending port is
// free and the receiver's receiving port is free, so every schedule it returns is feasible (an item
// is forwarded only once it has arrived). It executes the Lemma 4 schedule of light
// redistributions (Section 6) and every run of the general heuristic (general_heuristic.cpp), which
// searches over the rules below: the one-port model leaves open which neighbour a processor serves
// first and who gets a receiving port two neighbours want at the same instant.
// Lemma 4's rule on the flows of one circulation is computed by runs of items instead
// (lemma4_runs.hpp: the same blocks, in the same order, exactly where all times are exact doubles;
// the item-by-item executor stays as the reference and for every other rule).
// Items are simulated one by one, but written as blocks: back to back, or paced where a processor
// forwards at an upstream link's pace (paced_block.hpp), with the item times left unchanged.
// Streamed, a block is handed out as soon as it is final (no later item can join it), so at most
// one block per sender and direction is held: 2n. Held whole, the blocks come in the order they
// were opened (by start).
#pragma once

#include <cstdint>
#include <vector>

#include "model/redistribution.hpp"

namespace ringsim::redistribution {

// Which neighbour a processor with items for both serves.
enum class PortPolicy {
  next_then_prev,     // Lemma 4: all items to P_(i+1) first, then to P_(i-1) as soon as possible
  prev_then_next,
  longest_first,      // whichever direction has more sending time left, if its receiver is free
  random_then_other,  // next_then_prev or prev_then_next, drawn once per processor
  random_each_item,   // a coin whenever both receivers are free
};

// How the executor hands its blocks out.
enum class HandOut {
  when_final,        // each once it is final: at most 2n held (stream_asap's default)
  in_opening_order,  // all at the end, in the order they were opened (schedule_asap)
};

// Who gets a receiving port that several senders could claim at the same instant.
enum class PortContention {
  ring_index,     // the lowest processor index
  longest_first,  // the sender with the most sending time left: the one that would end last
  random,
};

struct AsapRules {
  // Implicit from a policy alone: schedule_asap(..., PortPolicy::next_then_prev) is Lemma 4's.
  constexpr AsapRules(PortPolicy order = PortPolicy::next_then_prev,
                      PortContention contested = PortContention::ring_index, bool busy = false,
                      std::uint64_t random_seed = 0)
      : policy(order), contention(contested), keep_busy(busy), seed(random_seed) {}

  PortPolicy policy;
  PortContention contention;
  bool keep_busy;      // a sender that finishes an item may switch direction at once
  std::uint64_t seed;  // for the random rules
  // Execute the time-reversed instance as soon as possible and map the result back to real time:
  // as late as possible, which suits a processor that forwards what it receives (it keeps the last
  // items to arrive instead of waiting for them). Bidirectional rings only.
  bool as_late_as_possible = false;
  // Write a run of items forwarded at a steady pace as one paced block. Off, such a run is one block
  // per item (the form the tests compare it with); the item times are the same either way.
  bool paced_blocks = true;
  HandOut hand_out = HandOut::when_final;
  // A block is final once its sender opens another that way; with settle_early also once another
  // block takes its sender's or its receiver's port, or its sender has nothing left that way
  // (off: the tests' reference for those rules; schedule_asap's blocks are the same either way).
  bool settle_early = true;
  // Lemma 4's rule (next_then_prev, contested ports by ring index, not kept busy, as soon as
  // possible, paced blocks) is computed by runs of items where lemma4_runs.hpp applies: the same
  // blocks in the same order. Off: item by item, always (the tests' reference).
  bool by_runs = true;
};

// send_prev may be empty on a unidirectional ring. Throws std::logic_error if the counts cannot
// be executed (some item is never available).
std::vector<Transfer> schedule_asap(const RingInstance& inst, const std::vector<Count>& send_next,
                                    const std::vector<Count>& send_prev, const AsapRules& rules);

// The same blocks handed to `emit` as rules.hand_out says instead of returned: by default each once
// it is final, so not in the order they start. As late as possible maps the reversed run's end to
// time 0, so it holds its blocks to the end (and hands them out by start). Returns the makespan
// and, in *held_peak, the most blocks held at once.
double stream_asap(const RingInstance& inst, const std::vector<Count>& send_next, const std::vector<Count>& send_prev,
                   const AsapRules& rules, const TransferSink& emit, std::size_t* held_peak = nullptr);

double makespan(const std::vector<Transfer>& transfers);

// A sink that keeps the blocks it gets while they are at most `limit`; past that it drops them
// (complete() is then false): a streamed schedule that fits is handed out after one run, a larger
// one is run again and handed out as it goes.
class BoundedHold {
 public:
  explicit BoundedHold(std::size_t limit) : limit_(limit) {}
  TransferSink sink() {
    return [this](const Transfer& t) {
      if (!complete_) return;
      if (blocks.size() == limit_) {
        complete_ = false;
        std::vector<Transfer>().swap(blocks);
        return;
      }
      blocks.push_back(t);
    };
  }
  bool complete() const { return complete_; }
  std::vector<Transfer> blocks;

 private:
  std::size_t limit_;
  bool complete_ = true;
};

}  // namespace ringsim::redistribution
