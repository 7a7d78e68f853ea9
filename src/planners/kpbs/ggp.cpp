// GGP, Jeannot and Wagner, DRUIDE 2004 (seeds/kpbs-ggp-backbone-message-scheduling.md, Section
// 2.1), step by step:
//   1-2. H: every weight in units of beta, f_H = ceil(f_G / beta).
//   3.   I: if P(H) / k is below W(H) or not an integer, padding edges between new degree-1
//        nodes raise P to k * R with R = max(W(H), ceil(P(H) / k)); all weigh R but one.
//   4.   J: virtual nodes and edges (never between two nodes of I) make every node weigh R.
//   5.   while J has edges: a perfect matching M, s = its smallest weight, M's weights minus s.
//   6.   the virtual and padding edges leave the matchings.
//   7.   each matching is a step where e sends min(s * beta, what is left of e).
// Why a perfect matching of J holds at most k real edges: J has n1I - k virtual right nodes,
// adjacent to left nodes of I only, so exactly n1I - k left nodes of I are matched to virtual
// nodes and the k others to right nodes of I (the KPBS paper's informal description, Section 2.2).
// Why J always has a perfect matching: a bipartite multigraph whose nodes all have the same
// weight has one (Koenig), and peeling keeps every node at the same weight.
#include "planners/kpbs/ggp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "planners/kpbs/kpbs_algorithms.hpp"

namespace ringsim::kpbs {

double rounding_unit(const KpbsInstance& inst) {
  double max_f = 0.0;
  std::size_t m = 0;
  for (const auto& row : inst.times)
    for (double f : row)
      if (f > 0) {
        max_f = std::max(max_f, f);
        ++m;
      }
  if (m == 0) return inst.beta > 0 ? inst.beta : 1.0;
  // Keep k * R and P(H) below 2^61: both are at most max(k * n, m) * 2^(bits + 1).
  const double n = static_cast<double>(std::max(inst.senders(), inst.receivers()));
  const double kn = static_cast<double>(std::min(inst.k, std::max(inst.senders(), inst.receivers()))) * n;
  const int size_bits = static_cast<int>(std::ceil(std::log2(std::max({kn, static_cast<double>(m), 2.0}))));
  const int bits = std::max(8, std::min(40, 59 - size_bits));
  // max_f / smallest < 2^bits (and no underflow to 0 for absurdly small times)
  const double smallest = std::max(std::ldexp(1.0, std::ilogb(max_f) + 1 - bits), std::numeric_limits<double>::denorm_min());
  return std::max(inst.beta, smallest);
}

std::vector<UnitEdge> unit_edges(const KpbsInstance& inst, double unit) {
  std::vector<UnitEdge> edges;
  for (std::size_t i = 0; i < inst.senders(); ++i)
    for (std::size_t j = 0; j < inst.receivers(); ++j) {
      const double f = inst.times[i][j];
      if (f <= 0) continue;
      const double q = f / unit;
      const double r = std::nearbyint(q);
      const double units = std::abs(q - r) <= 1e-9 * std::max(1.0, r) ? r : std::ceil(q);
      edges.push_back({i, j, std::max<Weight>(1, static_cast<Weight>(units))});
    }
  return edges;
}

namespace {

// Next-fit: the deficits R - w(v) of `deficits` fill virtual nodes of weight R one after the
// other (a deficit may be split between two consecutive virtual nodes).
void fill_deficits(const std::vector<Weight>& weights, Weight R, std::size_t first_virtual, bool left_side,
                   RegularGraph& g) {
  std::size_t current = first_virtual;
  Weight room = R;
  for (std::size_t v = 0; v < weights.size(); ++v) {
    Weight deficit = R - weights[v];
    while (deficit > 0) {
      const Weight x = std::min(deficit, room);
      g.edges.push_back(left_side ? WeightedEdge{v, current, x} : WeightedEdge{current, v, x});
      g.real.push_back(-1);
      ++g.virtual_edges;
      deficit -= x;
      room -= x;
      if (room == 0) {
        ++current;
        room = R;
      }
    }
  }
}

}  // namespace

RegularGraph build_regular_graph(const std::vector<UnitEdge>& edges, std::size_t k) {
  RegularGraph g;
  if (edges.empty()) return g;
  // Only the nodes that communicate take part: an idle node would only need a virtual edge.
  std::size_t max_from = 0, max_to = 0;
  for (const auto& e : edges) {
    max_from = std::max(max_from, e.from);
    max_to = std::max(max_to, e.to);
  }
  const std::size_t unused = static_cast<std::size_t>(-1);
  std::vector<std::size_t> left_of(max_from + 1, unused), right_of(max_to + 1, unused);
  std::size_t n1 = 0, n2 = 0;
  for (const auto& e : edges) {
    if (left_of[e.from] == unused) left_of[e.from] = n1++;
    if (right_of[e.to] == unused) right_of[e.to] = n2++;
  }
  g.k = std::min({k, n1, n2});
  const Weight kk = static_cast<Weight>(g.k);

  std::vector<Weight> wl(n1, 0), wr(n2, 0);
  Weight P = 0;
  for (std::size_t x = 0; x < edges.size(); ++x) {
    const auto& e = edges[x];
    g.edges.push_back({left_of[e.from], right_of[e.to], e.units});
    g.real.push_back(static_cast<std::ptrdiff_t>(x));
    wl[left_of[e.from]] += e.units;
    wr[right_of[e.to]] += e.units;
    P += e.units;
  }
  const Weight W = std::max(*std::max_element(wl.begin(), wl.end()), *std::max_element(wr.begin(), wr.end()));
  const Weight R = std::max(W, (P + kk - 1) / kk);
  g.regular_weight = R;

  // Step 3: P(I) = k * R through padding edges between fresh degree-1 nodes.
  const Weight D = kk * R - P;
  const std::size_t p = static_cast<std::size_t>((D + R - 1) / R);
  for (std::size_t q = 0; q < p; ++q) {
    const Weight w = q + 1 < p ? R : D - static_cast<Weight>(p - 1) * R;
    g.edges.push_back({n1 + q, n2 + q, w});
    g.real.push_back(-1);
    wl.push_back(w);
    wr.push_back(w);
    ++g.padding_edges;
  }
  const std::size_t n1I = n1 + p, n2I = n2 + p;

  // Step 4: n1I - k virtual right nodes absorb the left deficits, n2I - k virtual left nodes the
  // right ones (total deficit on the left: n1I * R - P(I) = (n1I - k) * R).
  g.nodes = n1I + n2I - g.k;
  fill_deficits(wl, R, n2I, true, g);
  fill_deficits(wr, R, n1I, false, g);
  return g;
}

std::vector<PeeledMatching> peel(const RegularGraph& graph, MatchingChoice choice) {
  std::vector<PeeledMatching> out;
  BipartiteMatcher matcher(graph.nodes, graph.nodes, graph.edges);
  std::vector<std::size_t> matched;
  while (matcher.live_edges() > 0) {
    const bool ok = choice == MatchingChoice::any ? matcher.maximize(1) == graph.nodes : matcher.bottleneck_perfect();
    if (!ok) throw std::logic_error("GGP: the weight-regular graph has no perfect matching");
    const Weight s = matcher.smallest_matched_weight();
    matched = matcher.mate_of_left();
    PeeledMatching pm;
    pm.s = s;
    for (std::size_t e : matched) {
      if (graph.real[e] >= 0) pm.real_edges.push_back(static_cast<std::size_t>(graph.real[e]));
      matcher.decrease(e, s);
    }
    if (!pm.real_edges.empty()) out.push_back(std::move(pm));
  }
  return out;
}

KpbsSchedule rescale(const KpbsInstance& inst, const std::vector<UnitEdge>& edges,
                     const std::vector<PeeledMatching>& matchings, double unit) {
  KpbsSchedule sched;
  std::vector<double> left(edges.size());
  std::vector<Weight> units_left(edges.size());
  for (std::size_t x = 0; x < edges.size(); ++x) {
    left[x] = inst.times[edges[x].from][edges[x].to];
    units_left[x] = edges[x].units;
  }
  for (const auto& pm : matchings) {
    KpbsStep step;
    double longest = 0.0;
    for (std::size_t x : pm.real_edges) {
      units_left[x] -= pm.s;
      if (left[x] <= 0) continue;  // ceil() gave e more units than it needs
      const double amount = units_left[x] <= 0 ? left[x] : std::min(static_cast<double>(pm.s) * unit, left[x]);
      left[x] = amount == left[x] ? 0.0 : left[x] - amount;
      step.comms.push_back({edges[x].from, edges[x].to, amount});
      longest = std::max(longest, amount);
    }
    if (step.comms.empty()) continue;
    step.duration = inst.beta + longest;
    sched.time += step.duration;
    sched.steps.push_back(std::move(step));
  }
  for (std::size_t x = 0; x < edges.size(); ++x)
    if (left[x] != 0.0 || units_left[x] != 0) throw std::logic_error("GGP: a communication was not fully scheduled");
  return sched;
}

KpbsSchedule plan_peeling(const KpbsInstance& inst, MatchingChoice choice, const std::string& name) {
  const double unit = rounding_unit(inst);
  const auto edges = unit_edges(inst, unit);
  const RegularGraph graph = build_regular_graph(edges, inst.k);
  KpbsSchedule sched = rescale(inst, edges, peel(graph, choice), unit);
  sched.scheduler = name;
  if (unit != inst.beta && !edges.empty())
    sched.notes.push_back(inst.beta == 0 ? "beta = 0: weights rounded to a power-of-two unit (2^-40 of the largest "
                                           "time or finer), the beta -> 0 limit of " + name
                                         : "beta is tiny next to the times: weights rounded to a power-of-two unit "
                                           "(about 2^-40 of the largest time) instead of beta");
  return sched;
}

KpbsSchedule plan_ggp(const KpbsInstance& inst) { return plan_peeling(inst, MatchingChoice::any, "ggp"); }

}  // namespace ringsim::kpbs
