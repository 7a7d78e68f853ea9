#include "planners/redistribution/block_budget.hpp"

#include <string>

#include "model/errors.hpp"

namespace ringsim::redistribution {
namespace {

// Internal linkage: a thread_local seen from other files goes through a wrapper function, which
// UndefinedBehaviorSanitizer reports as a null load when it is inlined in a header. Initial-exec:
// the code is position-independent, and were it ever loaded with dlopen, dynamic TLS would go
// through __tls_get_addr, whose blocks LeakSanitizer (GCC 12, glibc 2.36) misreads at exit and
// crashes on; 8 bytes fit static TLS.
thread_local std::size_t g_block_limit __attribute__((tls_model("initial-exec"))) = 0;

}  // namespace

BlockBudget::BlockBudget(std::size_t max_blocks) : previous_(g_block_limit) { g_block_limit = max_blocks; }

BlockBudget::~BlockBudget() { g_block_limit = previous_; }

void BlockBudget::check(std::size_t blocks) {
  if (g_block_limit == 0 || blocks <= g_block_limit) return;
  throw InputError("the schedule needs more than " + std::to_string(g_block_limit) +
                   " transfer blocks (--max-blocks): --summary gives its time, lower bound and per-link counts "
                   "without them, or raise the budget");
}

}  // namespace ringsim::redistribution
