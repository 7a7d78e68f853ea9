// Graph zones: capacities from the bridges of the network (bridge_tree.hpp), used by the bounds
// of insertion_bounds.cpp.
//
// Why they are upper bounds. Every path between the two sides of a bridge crosses it, whatever
// the widest search picks, and a SHARED bridge carries the paths crossing it within its capacity
// in the residual network where evaluate() places them. The four new paths of an insertion join
// k to i and j: they all cross the bridges between k's component and the one where the ways to i
// and j part. S_i and P_j, which give their bandwidth back, join i and j and so cross none of
// those: there the residual is the capacity. The two new paths at i (at j), for a host k below
// another child of the root, cross every bridge above i (above j), with S_i and P_j given back.
#include <algorithm>

#include "planners/ring/greedy.hpp"

namespace ringsim::ring::greedy {
namespace {

// The smallest residual capacity of the SHARED bridges from component c upward while keep(c).
template <class Keep>
double bridges_up(const RingNetwork& net, const std::vector<double>& residual, std::uint32_t c, Keep keep) {
  const BridgeTree& bt = net.bridges();
  double cap = kInfinity;
  for (; bt.parent(c) != BridgeTree::kNone && keep(c); c = bt.parent(c)) {
    const std::size_t l = bt.link(c);
    if (!net.fatpipe(l)) cap = std::min(cap, residual[l]);
  }
  return cap;
}

}  // namespace

// Ring members below each component of the bridge tree, kept as hosts join.
void Greedy::count_below(std::size_t h) {
  if (net_.fixed_routes()) return;
  if (below_.empty()) below_.assign(bt().size(), 0);
  for (auto c = comp_of(h); c != BridgeTree::kNone; c = bt().parent(c)) ++below_[c];
}

// Per host out of the ring, this step: members_free_capacity (pool_) and chain_capacity (chain_).
void Greedy::prepare_host_capacities() {
  const std::size_t p = net_.host_count();
  pool_.assign(p, kInfinity);
  chain_.assign(p, kInfinity);
  for (std::size_t k = 0; k < p; ++k)
    if (pos_of_[k] == kNone) {
      pool_[k] = members_free_capacity(k);
      chain_[k] = chain_capacity(k);
    }
}

double Greedy::bridges_above(std::uint32_t c) const {
  return bridges_up(net_, residual_, c, [](std::uint32_t) { return true; });
}

// The lowest component at or above both a and b (kNone in different connected parts).
std::uint32_t Greedy::meet(std::uint32_t a, std::uint32_t b) const {
  for (; a != BridgeTree::kNone; a = bt().parent(a))
    if (bt().above_or_at(a, b)) return a;
  return BridgeTree::kNone;
}

// The four new paths' bandwidth sum when k goes between i and j: the bridges above k below which
// lie neither i nor j, and those above meet(i, j) below which k does not lie. k's incident links
// bound the same sum (pool).
double Greedy::four_path_capacity(std::size_t k, std::size_t i, std::size_t j) const {
  const std::uint32_t ck = comp_of(k), ci = comp_of(i), cj = comp_of(j);
  double cap = std::min(net_.pool_capacity(k), bridges_up(net_, residual_, ck, [&](std::uint32_t c) {
                          return !bt().above_or_at(c, ci) && !bt().above_or_at(c, cj);
                        }));
  const std::uint32_t m = meet(ci, cj);
  if (m != BridgeTree::kNone)
    cap = std::min(cap, bridges_up(net_, residual_, m, [&](std::uint32_t c) { return !bt().above_or_at(c, ck); }));
  return cap;
}

// Host k's part of it for every position at once: the bridges above k below which lies no ring
// member (pool_), and all the bridges above k (chain_, for positions whose i and j lie below
// another child of the root than k: see pool_at).
double Greedy::members_free_capacity(std::size_t k) const {
  return std::min(net_.pool_capacity(k),
                  bridges_up(net_, residual_, comp_of(k), [&](std::uint32_t c) { return below_[c] == 0; }));
}

double Greedy::chain_capacity(std::size_t k) const {
  return std::min(net_.pool_capacity(k), bridges_above(comp_of(k)));
}

// The two new paths' bandwidth sum at member m (i or j) of a position, for a host k below another
// child of the root than m: both paths between k and m cross every bridge above m, within its
// capacity once S_i and P_j (`a`, `b`) gave theirs back, computed as evaluate() re-injects them,
// bit for bit.
double Greedy::side_capacity(std::size_t m, const PathState& a, const PathState& b) const {
  double cap = kInfinity;
  for (auto c = comp_of(m); bt().parent(c) != BridgeTree::kNone; c = bt().parent(c)) {
    const std::size_t l = bt().link(c);
    if (net_.fatpipe(l)) continue;
    double v = residual_[l];
    for (const PathState* ps : {&a, &b})
      for (auto x : ps->links)
        if (x == l) v = std::min(full_[l], v + ps->bw);
    cap = std::min(cap, v);
  }
  return cap;
}

// The four new paths' sum at k for the position pi (four_path_capacity): when k lies below
// another child of the root than i and j, every bridge above k and every one above meet(i, j).
double Greedy::pool_at(const HostInfo& h, const PosInfo& pi) const {
  if (!touches(h, pi)) return std::min(h.chain, pi.meet_chain);
  return std::min(h.pool, four_path_capacity(h.k, pi.i, pi.j));
}

}  // namespace ringsim::ring::greedy
