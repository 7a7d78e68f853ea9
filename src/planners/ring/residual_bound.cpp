#include "planners/ring/residual_bound.hpp"

#include <algorithm>
#include <cmath>

namespace ringsim::ring::greedy {

void ResidualBound::tighten(Candidate& c, const std::vector<PosInfo>& pos_info) {
  if (g_.net_.fixed_routes()) return;
  if (!started_) start();
  if (from_k_[c.k].empty()) prepare_host(c.k);
  if (!xs_ready_[c.pos]) prepare_position(c.pos);
  const auto& fk = from_k_[c.k];
  double pair_i = 0.0, pair_j = 0.0;
  for (std::size_t x = 0; x < xs_[c.pos].size(); ++x) {
    const double f = fk[xs_[c.pos][x]];
    pair_i = std::max(pair_i, std::min(f, to_i_[c.pos][x]));
    pair_j = std::max(pair_j, std::min(f, to_j_[c.pos][x]));
  }
  const HostInfo h = g_.host_info(c.k, pool_plus_[c.k]);
  const PosInfo& pi = pos_info[c.pos];
  const Bound b = g_.bound(h, pi, pair_at(h, pi.top_i, pi.chain_i, pair_i), pair_at(h, pi.top_j, pi.chain_j, pair_j),
                           g_.pool_at(h, pi));
  c.soft = std::max(c.soft, b.soft);
  c.bound = std::max(c.soft, c.floor);
}

void ResidualBound::start() {
  const std::size_t r = g_.ring_.size(), p = g_.net_.host_count();
  started_ = true;
  prepare_residual_plus();
  g_.res_tree_.build(g_.residual_, kInfinity);
  xs_.assign(r, {});
  to_i_.assign(r, {});
  to_j_.assign(r, {});
  xs_ready_.assign(r, 0);
  from_k_.assign(p, {});
  pool_plus_.assign(p, kInfinity);
}

// Capacity a new path could find at a link, whatever the position: the residual plus the largest
// re-injection of one position (its S_i and P_j), and the maximum spanning tree of that.
void ResidualBound::prepare_residual_plus() {
  const RingNetwork& net = g_.net_;
  g_.residual_plus_ = g_.residual_;
  std::vector<double> add(net.link_count(), 0.0);
  std::vector<std::size_t> touched;
  for (std::size_t pos = 0; pos < g_.ring_.size(); ++pos) {
    for (const PathState* ps : {&g_.S_[g_.ring_[pos]], &g_.P_[g_.succ_of(pos)]})
      for (auto l : ps->links)
        if (!net.fatpipe(l)) {
          if (add[l] == 0.0) touched.push_back(l);
          add[l] += ps->bw;
        }
    for (auto l : touched) {
      g_.residual_plus_[l] = std::max(g_.residual_plus_[l], std::min(g_.full_[l], g_.residual_[l] + add[l]));
      add[l] = 0.0;
    }
    touched.clear();
  }
  g_.tree_.build(g_.residual_plus_, kInfinity);
}

// Widest bottlenecks from k on the residual network, and the bound of k's incident links.
void ResidualBound::prepare_host(std::size_t k) {
  g_.res_tree_.from_source(g_.net_.host_node(k), from_k_[k]);
  pool_plus_[k] = g_.pool_of(k);
  if (std::isfinite(g_.net_.pool_capacity(k))) {
    double incident = 0.0;
    for (auto l : g_.incident_[k]) incident += g_.residual_plus_[l];
    pool_plus_[k] = std::min(pool_plus_[k], incident);
  }
}

// The nodes x of S_i and P_j, and the widest x ~ i and x ~ j with re-injection.
void ResidualBound::prepare_position(std::size_t q) {
  xs_ready_[q] = 1;
  const std::size_t i = g_.ring_[q], j = g_.succ_of(q);
  path_nodes(i, g_.S_[i].links, xs_[q]);
  path_nodes(j, g_.P_[j].links, xs_[q]);
  std::sort(xs_[q].begin(), xs_[q].end());
  xs_[q].erase(std::unique(xs_[q].begin(), xs_[q].end()), xs_[q].end());
  for (auto x : xs_[q]) {
    to_i_[q].push_back(g_.tree_.query(x, g_.net_.host_node(i)));
    to_j_[q].push_back(g_.tree_.query(x, g_.net_.host_node(j)));
  }
}

// Appends the nodes of a path that starts at host `from`.
void ResidualBound::path_nodes(std::size_t from, const std::vector<std::size_t>& links,
                               std::vector<std::uint32_t>& out) const {
  const RingNetwork& net = g_.net_;
  std::size_t at = net.host_node(from);
  out.push_back(static_cast<std::uint32_t>(at));
  for (auto l : links) {
    for (const auto* a = net.arcs_begin(at); a != net.arcs_end(at); ++a)
      if (a->link == l) {
        at = a->node;
        break;
      }
    out.push_back(static_cast<std::uint32_t>(at));
  }
}

}  // namespace ringsim::ring::greedy
