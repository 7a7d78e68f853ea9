#include "planners/ring/ring_network.hpp"

#include <algorithm>
#include <stdexcept>

#include "model/errors.hpp"
#include "model/huge_pages.hpp"

namespace ringsim::ring {

RingNetwork::RingNetwork(const Platform& platform) : platform_(platform) {
  for (const auto& l : platform.links) {
    capacity_.push_back(l.bandwidth);
    latency_.push_back(l.latency);
    fatpipe_.push_back(l.sharing == SharingPolicy::fatpipe ? 1 : 0);
  }
  hosts_ = platform.host_indices();
  const std::size_t p = hosts_.size();
  // p x p tables the greedy reads row by row for each candidate (model/huge_pages.hpp).
  reserve_huge(full_bw_, p * p);
  reserve_huge(pair_shared_, p * p);
  full_bw_.assign(p * p, kInfinity);
  pool_.assign(p, kInfinity);
  pair_shared_.assign(p * p, kInfinity);
  if (platform.graph_routed()) {
    index_arcs();
    bridges_ = BridgeTree(platform);
    blocks_ = BlockTree(platform);
    compute_graph_pools();
    compute_graph_bottlenecks();
  } else {
    if (!platform.host_routes.empty()) {  // validate() checked its shape against the hosts
      route_start_ = platform.host_routes.start.data();
      route_links_ = platform.host_routes.links.data();
    } else {
      store_own_routes();
    }
    compute_route_bottlenecks();
    compute_route_pools();
  }
}

void RingNetwork::index_arcs() {
  const std::size_t n = platform_.nodes.size();
  std::vector<std::uint32_t> degree(n, 0);
  for (const auto& e : platform_.edges) {
    ++degree[e.a];
    ++degree[e.b];
  }
  arc_start_.assign(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) arc_start_[v + 1] = arc_start_[v] + degree[v];
  arcs_.resize(arc_start_[n]);
  std::vector<std::uint32_t> fill(arc_start_.begin(), arc_start_.end() - 1);
  for (const auto& e : platform_.edges) {  // edge order: deterministic
    arcs_[fill[e.a]++] = {static_cast<std::uint32_t>(e.b), static_cast<std::uint32_t>(e.link)};
    arcs_[fill[e.b]++] = {static_cast<std::uint32_t>(e.a), static_cast<std::uint32_t>(e.link)};
  }
}

void RingNetwork::compute_graph_pools() {
  for (std::size_t h = 0; h < hosts_.size(); ++h) {
    double sum = 0.0;
    bool all_shared = true;
    for (const Arc* a = arcs_begin(hosts_[h]); a != arcs_end(hosts_[h]); ++a) {
      if (fatpipe(a->link)) all_shared = false;
      sum += capacity(a->link);
    }
    pool_[h] = all_shared ? sum : kInfinity;
  }
}

void RingNetwork::compute_graph_bottlenecks() {
  const std::size_t p = hosts_.size();
  // All-pairs bottlenecks on the full-capacity network: one search per host.
  std::vector<double> cap(platform_.links.size());
  for (std::size_t l = 0; l < cap.size(); ++l) cap[l] = capacity(l);
  WidestSearch search(*this);
  for (std::size_t a = 0; a < p; ++a) {
    search.run(hosts_[a], cap, hosts_);
    for (std::size_t b = 0; b < p; ++b)
      if (b != a) full_bw_[a * p + b] = search.bottleneck(hosts_[b]);
  }
  BottleneckTree tree(*this);
  tree.build(cap, kInfinity);
  for (std::size_t a = 0; a < p; ++a)
    for (std::size_t b = a + 1; b < p; ++b)
      pair_shared_[a * p + b] = pair_shared_[b * p + a] = tree.query(hosts_[a], hosts_[b]);
}

void RingNetwork::store_own_routes() {
  const std::size_t p = hosts_.size();
  std::vector<std::size_t> host_id(platform_.nodes.size(), p);
  for (std::size_t h = 0; h < p; ++h) host_id[hosts_[h]] = h;
  std::vector<std::vector<std::size_t>> pair_routes(p * p);
  // A route may cross no link at all (a Vivaldi zone's latency-only routes): presence is kept apart.
  std::vector<char> routed(p * p, 0);
  for (const auto& r : platform_.routes) {
    const std::size_t a = host_id[r.src], b = host_id[r.dst];
    if (a == p || b == p) continue;  // routes between routers carry no ring traffic
    pair_routes[a * p + b] = r.links;
    routed[a * p + b] = 1;
    if (r.symmetrical) {
      pair_routes[b * p + a].assign(r.links.rbegin(), r.links.rend());
      routed[b * p + a] = 1;
    }
  }
  for (std::size_t a = 0; a < p; ++a)
    for (std::size_t b = 0; b < p; ++b)
      if (a != b && !routed[a * p + b])
        throw InputError("no route from host '" + host_name(a) + "' to host '" + host_name(b) + "'");
  // Flat storage: the greedy reads four routes per candidate, a million times on large platforms.
  own_start_.assign(p * p + 1, 0);
  for (std::size_t x = 0; x < p * p; ++x) own_start_[x + 1] = own_start_[x] + pair_routes[x].size();
  own_links_.reserve(own_start_.back());
  for (auto& r : pair_routes) {
    for (auto l : r) own_links_.push_back(static_cast<std::uint32_t>(l));
    std::vector<std::size_t>().swap(r);
  }
  route_start_ = own_start_.data();
  route_links_ = own_links_.data();
}

void RingNetwork::compute_route_bottlenecks() {
  const std::size_t p = hosts_.size();
  for (std::size_t a = 0; a < p; ++a)
    for (std::size_t b = 0; b < p; ++b) {
      if (a == b) continue;
      const RouteView links = route(a, b);
      double bw = kInfinity;
      for (auto l : links) bw = std::min<double>(bw, capacity(l));
      full_bw_[a * p + b] = bw;
      const RouteView back = route(b, a);
      double both = kInfinity;
      for (auto l : links)
        if (!fatpipe(l) && std::find(back.begin(), back.end(), l) != back.end()) both = std::min(both, capacity(l));
      pair_shared_[a * p + b] = both;
    }
  reserve_huge(full_bw_t_, p * p);
  full_bw_t_.resize(p * p);
  for (std::size_t a = 0; a < p; ++a)
    for (std::size_t b = 0; b < p; ++b) full_bw_t_[a * p + b] = full_bw_[b * p + a];
}

void RingNetwork::compute_route_pools() {
  const std::size_t p = hosts_.size();
  // Pools: SHARED links on every route from and to h.
  for (std::size_t h = 0; h < p && p >= 2; ++h) {
    std::vector<std::size_t> common;
    for (auto l : route(h, h == 0 ? 1 : 0))
      if (!fatpipe(l)) common.push_back(l);
    for (std::size_t x = 0; x < p && !common.empty(); ++x) {
      if (x == h) continue;
      for (const RouteView r : {route(h, x), route(x, h)}) {
        std::vector<std::size_t> kept;
        for (auto l : common)
          if (std::find(r.begin(), r.end(), l) != r.end()) kept.push_back(l);
        common.swap(kept);
      }
    }
    for (auto l : common) pool_[h] = std::min(pool_[h], capacity(l));
  }
}

RingNetwork::~RingNetwork() = default;

HostPath RingNetwork::pair_path(std::size_t a, std::size_t b) const {
  HostPath path{a, b, {}};
  if (a == b) throw std::logic_error("pair_path: a host has no path to itself");
  if (fixed_routes()) {
    path.links = route(a, b).to_vector();
    return path;
  }
  std::vector<double> cap(link_count());
  for (std::size_t l = 0; l < cap.size(); ++l) cap[l] = capacity(l);
  WidestSearch search(*this);
  const std::size_t lo = std::min(a, b), hi = std::max(a, b);
  search.run(hosts_[lo], cap, {hosts_[hi]});
  if (!search.reached(hosts_[hi]))
    throw InputError("hosts '" + host_name(a) + "' and '" + host_name(b) + "' are not connected");
  path.links = search.links_to(hosts_[hi]);
  if (a > b) std::reverse(path.links.begin(), path.links.end());
  return path;
}

// ---------------------------------------------------------------------------------------------

WidestSearch::WidestSearch(const RingNetwork& net) : net_(net) {
  const std::size_t n = net.node_count();
  best_.assign(n, 0.0);
  latency_.assign(n, 0.0);
  hops_.assign(n, 0);
  via_link_.assign(n, 0);
  via_node_.assign(n, 0);
  stamp_.assign(n, 0);
  settled_.assign(n, 0);
  target_.assign(n, 0);
  needed_.assign(std::max(n, net.blocks().size()), 0);
  slot_.assign(n, 0);
}

std::size_t WidestSearch::begin_run(const std::vector<std::size_t>& targets) {
  if (++run_ == 0) {  // wrapped: reset the stamps
    std::fill(stamp_.begin(), stamp_.end(), 0);
    std::fill(settled_.begin(), settled_.end(), 0);
    std::fill(target_.begin(), target_.end(), 0);
    std::fill(needed_.begin(), needed_.end(), 0);
    run_ = 1;
  }
  std::size_t pending = 0;
  for (auto t : targets)
    if (target_[t] != run_) {
      target_[t] = run_;
      ++pending;
    }
  return pending;
}

void WidestSearch::mark_needed_blocks(std::size_t node) {
  const BlockTree& tree = net_.blocks();
  for (auto b = tree.home(node); b != BlockTree::kNone && needed_[b] != run_; b = tree.parent(b)) needed_[b] = run_;
}

// Labelled, unsettled nodes in a binary heap of node ids, best label first: (bw desc, hops asc,
// latency asc, node asc), a strict order, so the nodes are settled in the order of a search
// that pops the best label of all (each node holds one label here: improving it moves it up).
bool WidestSearch::comes_first(std::uint32_t x, std::uint32_t y) const {
  if (best_[x] != best_[y]) return best_[x] > best_[y];
  if (hops_[x] != hops_[y]) return hops_[x] < hops_[y];
  if (latency_[x] != latency_[y]) return latency_[x] < latency_[y];
  return x < y;
}

void WidestSearch::place(std::size_t at, std::uint32_t v) {
  heap_[at] = v;
  slot_[v] = static_cast<std::uint32_t>(at);
}

void WidestSearch::sift_up(std::size_t at) {
  const std::uint32_t v = heap_[at];
  while (at > 0) {
    const std::size_t up = (at - 1) / 2;
    if (!comes_first(v, heap_[up])) break;
    place(at, heap_[up]);
    at = up;
  }
  place(at, v);
}

std::uint32_t WidestSearch::pop_best() {
  const std::uint32_t top = heap_.front(), last = heap_.back();
  heap_.pop_back();
  if (heap_.empty()) return top;
  std::size_t at = 0;
  const std::size_t n = heap_.size();
  for (;;) {
    std::size_t child = 2 * at + 1;
    if (child >= n) break;
    if (child + 1 < n && comes_first(heap_[child + 1], heap_[child])) ++child;
    if (!comes_first(heap_[child], last)) break;
    place(at, heap_[child]);
    at = child;
  }
  place(at, last);
  return top;
}

void WidestSearch::run(std::size_t source_node, const std::vector<double>& capacity,
                       const std::vector<std::size_t>& targets) {
  std::size_t pending = begin_run(targets);
  const bool all = targets.empty();
  // The blocks a search must enter: those on the way from a root to the source or a target.
  const BlockTree& tree = net_.blocks();
  if (!all) {
    mark_needed_blocks(source_node);
    for (auto t : targets) mark_needed_blocks(t);
  }
  // Label setting from the source: the best labelled node (comes_first) is settled next.
  heap_.clear();
  const auto src = static_cast<std::uint32_t>(source_node);
  stamp_[src] = run_;
  best_[src] = kInfinity;
  hops_[src] = 0;
  latency_[src] = 0.0;
  heap_.push_back(src);
  slot_[src] = 0;
  while (!heap_.empty()) {
    const std::uint32_t v = pop_best();
    settled_[v] = run_;
    if (target_[v] == run_ && --pending == 0 && !all) break;
    const double bw = best_[v], lat = latency_[v];
    const std::uint32_t hops = hops_[v] + 1;
    for (const auto* a = net_.arcs_begin(v); a != net_.arcs_end(v); ++a) {
      const double cap = capacity[a->link];
      if (!(cap > 0)) continue;
      const std::uint32_t u = a->node;
      if (settled_[u] == run_) continue;
      if (!all && needed_[tree.home(u)] != run_) continue;
      const double nbw = std::min(bw, cap), nlat = lat + net_.latency(a->link);
      const bool fresh = stamp_[u] != run_;
      if (!fresh) {  // keep the label unless the new one comes first
        if (best_[u] != nbw ? best_[u] > nbw : hops_[u] != hops ? hops_[u] < hops : !(latency_[u] > nlat)) continue;
      }
      stamp_[u] = run_;
      best_[u] = nbw;
      hops_[u] = hops;
      latency_[u] = nlat;
      via_link_[u] = a->link;
      via_node_[u] = v;
      if (fresh) {
        heap_.push_back(u);
        sift_up(heap_.size() - 1);
      } else {
        sift_up(slot_[u]);
      }
    }
  }
}

std::vector<std::size_t> WidestSearch::links_to(std::size_t node) const {
  std::vector<std::size_t> links;
  if (!reached(node)) throw std::logic_error("WidestSearch::links_to: node not reached");
  for (std::size_t v = node; hops_[v] > 0; v = via_node_[v]) links.push_back(via_link_[v]);
  std::reverse(links.begin(), links.end());
  return links;
}

// ---------------------------------------------------------------------------------------------

BottleneckTree::BottleneckTree(const RingNetwork& net) : net_(net) {}

void BottleneckTree::build(const std::vector<double>& capacity, double fatpipe_value) {
  const Platform& pf = net_.platform();
  const std::size_t n = pf.nodes.size();
  auto cap_of = [&](std::size_t e) {
    const std::size_t l = pf.edges[e].link;
    return net_.fatpipe(l) ? fatpipe_value : capacity[l];
  };
  // Edges by capacity, equal ones in edge order (a strict order: one sorted sequence). The greedy
  // rebuilds after each insertion, which changes a few links: the edges whose capacity did not
  // change keep their order, the others are sorted and merged in.
  const std::size_t m = pf.edges.size();
  fresh_key_.resize(m);
  for (std::size_t e = 0; e < m; ++e) fresh_key_[e] = cap_of(e);
  auto before = [&](std::uint32_t x, std::uint32_t y) {
    const double cx = fresh_key_[x], cy = fresh_key_[y];
    return cx > cy || (cx == cy && x < y);
  };
  changed_.clear();
  if (key_.size() == m && order_.size() == m)
    for (std::size_t e = 0; e < m; ++e)
      if (!(fresh_key_[e] == key_[e])) changed_.push_back(static_cast<std::uint32_t>(e));
  if (key_.size() != m || order_.size() != m || changed_.size() * 8 > m) {
    order_.resize(m);
    for (std::size_t e = 0; e < m; ++e) order_[e] = static_cast<std::uint32_t>(e);
    std::sort(order_.begin(), order_.end(), before);
  } else if (!changed_.empty()) {
    kept_.clear();
    for (const auto e : order_)
      if (fresh_key_[e] == key_[e]) kept_.push_back(e);
    std::sort(changed_.begin(), changed_.end(), before);
    std::merge(kept_.begin(), kept_.end(), changed_.begin(), changed_.end(), order_.begin(), before);
  }
  key_.swap(fresh_key_);
  parent_uf_.resize(n);
  for (std::size_t v = 0; v < n; ++v) parent_uf_[v] = static_cast<std::uint32_t>(v);
  auto find = [&](std::uint32_t x) {
    while (parent_uf_[x] != x) x = parent_uf_[x] = parent_uf_[parent_uf_[x]];
    return x;
  };
  tree_.assign(n, {});
  for (auto e : order_) {
    const double c = cap_of(e);
    if (!(c > 0)) break;
    const auto a = static_cast<std::uint32_t>(pf.edges[e].a), b = static_cast<std::uint32_t>(pf.edges[e].b);
    const auto ra = find(a), rb = find(b);
    if (ra == rb) continue;
    parent_uf_[ra] = rb;
    tree_[a].push_back({b, c});
    tree_[b].push_back({a, c});
  }
  // Root every tree, then binary lifting of (ancestor, smallest capacity on the way).
  std::size_t levels = 1;
  while ((std::size_t{1} << levels) < n) ++levels;
  up_.assign(levels, std::vector<std::uint32_t>(n));
  low_.assign(levels, std::vector<double>(n, kInfinity));
  depth_.assign(n, 0);
  comp_.assign(n, static_cast<std::uint32_t>(n));
  std::vector<std::uint32_t> stack;
  found_.clear();
  found_start_.assign(n, 0);
  found_end_.assign(n, 0);
  for (std::size_t root = 0; root < n; ++root) {
    if (comp_[root] != n) continue;
    comp_[root] = static_cast<std::uint32_t>(root);
    up_[0][root] = static_cast<std::uint32_t>(root);
    found_start_[root] = static_cast<std::uint32_t>(found_.size());
    found_.push_back(static_cast<std::uint32_t>(root));
    stack.assign(1, static_cast<std::uint32_t>(root));
    while (!stack.empty()) {
      const auto v = stack.back();
      stack.pop_back();
      for (const auto& [u, c] : tree_[v])
        if (comp_[u] == n) {
          comp_[u] = static_cast<std::uint32_t>(root);
          up_[0][u] = v;
          low_[0][u] = c;
          depth_[u] = depth_[v] + 1;
          found_.push_back(u);
          stack.push_back(u);
        }
    }
    found_end_[root] = static_cast<std::uint32_t>(found_.size());
  }
  for (std::size_t j = 1; j < levels; ++j)
    for (std::size_t v = 0; v < n; ++v) {
      const auto mid = up_[j - 1][v];
      up_[j][v] = up_[j - 1][mid];
      low_[j][v] = std::min(low_[j - 1][v], low_[j - 1][mid]);
    }
}

void BottleneckTree::from_source(std::size_t source, std::vector<double>& out) const {
  const std::size_t n = depth_.size();
  out.assign(n, 0.0);  // other trees: not connected
  if (mark_.size() != n || ++mark_gen_ == 0) {
    mark_.assign(n, 0);
    mark_gen_ = 1;
  }
  // Up: the smallest capacity from the source to each of its ancestors.
  double low = kInfinity;
  for (auto v = static_cast<std::uint32_t>(source);; v = up_[0][v]) {
    mark_[v] = mark_gen_;
    out[v] = low;
    if (up_[0][v] == v) break;
    low = std::min(low, low_[0][v]);
  }
  // Down: any other node's way from the source goes through its parent.
  const std::uint32_t root = comp_[source];
  for (std::size_t x = found_start_[root] + 1; x < found_end_[root]; ++x) {
    const std::uint32_t v = found_[x];
    if (mark_[v] != mark_gen_) out[v] = std::min(out[up_[0][v]], low_[0][v]);
  }
}

double BottleneckTree::query(std::size_t u, std::size_t v) const {
  if (u == v) return kInfinity;
  if (comp_[u] != comp_[v]) return 0.0;
  double low = kInfinity;
  auto a = static_cast<std::uint32_t>(u), b = static_cast<std::uint32_t>(v);
  if (depth_[a] < depth_[b]) std::swap(a, b);
  for (std::size_t j = up_.size(); j-- > 0;)
    if (depth_[a] - (std::uint32_t{1} << j) >= depth_[b] && depth_[a] >= (std::uint32_t{1} << j)) {
      low = std::min(low, low_[j][a]);
      a = up_[j][a];
    }
  if (a == b) return low;
  for (std::size_t j = up_.size(); j-- > 0;)
    if (up_[j][a] != up_[j][b]) {
      low = std::min({low, low_[j][a], low_[j][b]});
      a = up_[j][a];
      b = up_[j][b];
    }
  return std::min({low, low_[0][a], low_[0][b]});
}

}  // namespace ringsim::ring
