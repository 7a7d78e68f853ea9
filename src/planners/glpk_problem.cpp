#include "planners/glpk_problem.hpp"

namespace ringsim::planners::detail {
namespace {

int silence(void*, const char*) { return 1; }

// GLPK's documented way out of an error: free its environment, then leave by longjmp (the frames
// left are GLPK's own, written in C).
void leave(void* jump) {
  glp_free_env();
  std::longjmp(*static_cast<std::jmp_buf*>(jump), 1);
}

}  // namespace

void begin_guarded_glpk(std::jmp_buf* jump) {
  glp_term_hook(silence, nullptr);
  glp_error_hook(leave, jump);
}

void end_guarded_glpk() {
  glp_error_hook(nullptr, nullptr);
  glp_term_hook(nullptr, nullptr);
}

}  // namespace ringsim::planners::detail
