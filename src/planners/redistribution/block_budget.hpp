// A budget on the transfer blocks a planner may hold (`ringsim redistribute --max-blocks`): a full
// schedule that would exceed it stops with InputError (exit 2, one line) before it takes the
// memory, instead of an out-of-memory kill. Every place that appends a block checks it.
#pragma once

#include <cstddef>

namespace ringsim::redistribution {

class BlockBudget {
 public:
  // In effect on this thread for the guard's lifetime; 0 means no budget.
  explicit BlockBudget(std::size_t max_blocks);
  ~BlockBudget();
  BlockBudget(const BlockBudget&) = delete;
  BlockBudget& operator=(const BlockBudget&) = delete;

  // Throws InputError when a schedule holding `blocks` blocks exceeds the budget in effect.
  static void check(std::size_t blocks);

 private:
  std::size_t previous_;
};

}  // namespace ringsim::redistribution
