#include "planners/redistribution/block_budget.hpp"

#include <string>

#include "model/errors.hpp"

namespace ringsim {

thread_local std::size_t BlockBudget::limit_ = 0;

BlockBudget::BlockBudget(std::size_t max_blocks) : previous_(limit_) { limit_ = max_blocks; }

BlockBudget::~BlockBudget() { limit_ = previous_; }

void BlockBudget::exceeded() {
  throw InputError("the schedule needs more than " + std::to_string(limit_) +
                   " transfer blocks (--max-blocks): --summary gives its time, lower bound and per-link counts "
                   "without them, or raise the budget");
}

}  // namespace ringsim
