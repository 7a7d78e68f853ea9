// OGGP (Optimized GGP), Jeannot and Wagner, "Two fast and efficient message scheduling algorithms
// for data redistribution through a backbone" (IPDPS 2004, reference [3] of the KPBS paper): GGP whose
// step 5(a) takes, among the perfect matchings of J, one whose smallest weight is as large as
// possible. Each peeling then removes as much weight as it can from every node, which tends to
// give fewer steps (fewer setup delays beta) than GGP's arbitrary choice; both share the same
// approximation guarantee. The bottleneck matching is a search on the threshold over the live
// weights (median of the remaining candidates, so O(log m) tests), each test a Hopcroft-Karp
// run restricted to the edges at or above the threshold and started from the best matching
// found so far (bipartite_matching.cpp).
#include "planners/kpbs/ggp.hpp"
#include "planners/kpbs/kpbs_algorithms.hpp"

namespace ringsim::kpbs {

KpbsSchedule plan_oggp(const KpbsInstance& inst) { return plan_peeling(inst, MatchingChoice::bottleneck, "oggp"); }

}  // namespace ringsim::kpbs
