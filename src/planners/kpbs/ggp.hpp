// GGP (Generic Graph Peeling), Jeannot and Wagner, DRUIDE 2004, Section 2.1, and the parts it
// shares with OGGP (which only changes how step 5(a) chooses the perfect matching). Exposed
// piecewise so that tests can check the weight-regular completion on its own.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/kpbs.hpp"
#include "planners/kpbs/bipartite_matching.hpp"

namespace ringsim::kpbs {

// A communication of G with its weight in H: f_H(e) = ceil(f_G(e) / unit) (step 2).
struct UnitEdge {
  std::size_t from = 0;
  std::size_t to = 0;
  Weight units = 0;
};

// Step 2's rounding unit: beta, except when beta = 0 (the KPBS paper divides by beta) or so small that
// the weights would not fit the integer arithmetic; then a power of two u with
// max f / u < 2^40 (fewer bits for very large graphs). With such a u GGP is the beta -> 0 limit of
// itself and its data time is max(W, P/k) up to about 2^-40 of it: optimal when beta = 0.
double rounding_unit(const KpbsInstance& inst);

// The communications of G (row-major order) with f_H = ceil(f / unit); a quotient within 1e-9
// of an integer counts as that integer, so that 0.3 / 0.1 is 3 units and not 4.
std::vector<UnitEdge> unit_edges(const KpbsInstance& inst, double unit);

// The weight-regular graph J of steps 3 and 4. Left nodes: the senders that have data (in order),
// then the left padding nodes of step 3, then the virtual left nodes of step 4; right nodes
// likewise. Every node has weight R = P(I) / k, and every perfect matching holds exactly k edges
// of I (real or padding), hence at most k real edges.
struct RegularGraph {
  std::size_t nodes = 0;      // per side
  std::size_t k = 0;          // min(k, active senders, active receivers)
  Weight regular_weight = 0;  // R = max(W(H), ceil(P(H) / k))
  std::vector<WeightedEdge> edges;
  std::vector<std::ptrdiff_t> real;  // index into the UnitEdge list, or -1 for padding / virtual
  std::size_t padding_edges = 0;     // step 3
  std::size_t virtual_edges = 0;     // step 4
};

RegularGraph build_regular_graph(const std::vector<UnitEdge>& edges, std::size_t k);

// One matching of step 5 with its virtual edges removed (step 6): the real edges it holds and
// the weight s that was peeled from each.
struct PeeledMatching {
  Weight s = 0;
  std::vector<std::size_t> real_edges;  // indices into the UnitEdge list
};

enum class MatchingChoice {
  any,         // GGP: any perfect matching (the previous one, repaired where edges died)
  bottleneck,  // OGGP: a perfect matching whose smallest weight is as large as possible
};

// Step 5 then step 6: peels perfect matchings off J until no edge is left.
std::vector<PeeledMatching> peel(const RegularGraph& graph, MatchingChoice choice);

// Step 7: each matching becomes a step in which edge e sends min(s * unit, what is left of e);
// the last matching of e sends exactly what is left. Steps left without communication are
// dropped. Fills time (sum of beta + longest amount) but not lower_bound.
KpbsSchedule rescale(const KpbsInstance& inst, const std::vector<UnitEdge>& edges,
                     const std::vector<PeeledMatching>& matchings, double unit);

// GGP or OGGP end to end (steps 1 to 7); `name` becomes the schedule's algorithm.
KpbsSchedule plan_peeling(const KpbsInstance& inst, MatchingChoice choice, const std::string& name);

}  // namespace ringsim::kpbs
