// What a schedule's blocks are made of (whether they stay within 2n): how many each flow
// (one sender, one direction) takes, how many go to processors that receive from both sides and how
// many of those are turns of the receiving port between its two senders, and whether any two
// consecutive blocks of a flow could have been one. A block has one pace and holds its sender's
// and its receiver's ports from its start to its end (model/redistribution.hpp, replay.hpp), so
// with no such pair the blocks are as few as that format allows for the schedule's very times.
#pragma once

#include <vector>

#include "model/redistribution.hpp"

namespace ringsim::redistribution {

struct BlockCensus {
  std::size_t blocks = 0;
  std::size_t flows = 0;                      // (sender, direction) pairs that send
  std::size_t most_in_one_flow = 0;
  std::vector<std::size_t> flows_by_blocks;   // [k]: the flows of k blocks (k >= 1)
  std::size_t two_way_receivers = 0;          // processors receiving from both sides
  std::size_t into_two_way = 0;               // the blocks they receive
  std::size_t two_way_turns = 0;              // of those, each first one and each change of sender
  std::size_t could_merge = 0;                // consecutive blocks of a flow that one block could hold
};

// `tolerance` (relative) compares times: 0 where they are exact (integer costs), a few ulps for
// schedules computed by runs with real costs (lemma4_runs.hpp joins within 1e-12).
BlockCensus block_census(const RingInstance& inst, const std::vector<Transfer>& blocks, double tolerance = 0.0);

}  // namespace ringsim::redistribution
