// A GLPK problem as an owned resource: the linear programs of the planners (light's circulation,
// the time-indexed exact schedule, the bandwidth fractions, the TSP tour) are deleted with their owner,
// on every path out, exceptions included.
#pragma once

#include <glpk.h>

#include <memory>

namespace ringsim::planners {

struct GlpkProblemDeleter {
  void operator()(glp_prob* p) const { glp_delete_prob(p); }
};
using GlpkProblem = std::unique_ptr<glp_prob, GlpkProblemDeleter>;

}  // namespace ringsim::planners
