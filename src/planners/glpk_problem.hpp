// A GLPK problem as an owned resource: the linear programs of the planners (light's circulation,
// the time-indexed exact schedule, the bandwidth fractions, the TSP tour) are deleted with their owner,
// on every path out, exceptions included.
#pragma once

#include <glpk.h>

#include <csetjmp>
#include <memory>
#include <optional>

namespace ringsim::planners {

struct GlpkProblemDeleter {
  void operator()(glp_prob* p) const { glp_delete_prob(p); }
};
using GlpkProblem = std::unique_ptr<glp_prob, GlpkProblemDeleter>;

namespace detail {
void begin_guarded_glpk(std::jmp_buf* jump);
void end_guarded_glpk();
}  // namespace detail

// GLPK aborts the process on an internal error (an assertion that values far from 1 break, say),
// after printing to standard output. `solve(problem.get())` (a GLPK solver call) runs with GLPK's
// output silenced and its error hook set: on such an error GLPK's environment is freed, with every
// problem of this thread (`problem` is then released, no longer owned), and nothing is returned;
// otherwise the solver's return code.
template <class Solve>
std::optional<int> solve_guarded(GlpkProblem& problem, Solve solve) {
  std::jmp_buf jump;
  detail::begin_guarded_glpk(&jump);
  if (setjmp(jump) != 0) {
    problem.release();
    detail::end_guarded_glpk();
    return std::nullopt;
  }
  const int rc = solve(problem.get());
  detail::end_guarded_glpk();
  return rc;
}

}  // namespace ringsim::planners
