// The platform as the ring planners see it (SharedRing report, Section 2.1): hosts with a speed
// (cycle time w = 1/speed), links with a capacity b_e that is either SHARED by every path crossing
// it -- in both directions, as SimGrid shares its SHARED links -- or a FATPIPE (the report's
// "backbone links", Section 2.3: each path gets the whole bandwidth), and the paths between hosts:
// free (widest paths through the platform graph) on graph-routed zones, the platform's own routes
// on Full zones (clusters, explicit routes: no path choice).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "model/platform_graph.hpp"
#include "planners/ring/block_tree.hpp"
#include "planners/ring/bridge_tree.hpp"

namespace ringsim::ring {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// A communication path between two hosts (host ids of RingNetwork, not platform node indices).
struct HostPath {
  std::size_t from = 0;
  std::size_t to = 0;
  std::vector<std::size_t> links;  // platform link indices, in order from `from` to `to`
};

class WidestSearch;

// A route's links, in order, viewed in RingNetwork's flat storage.
// Link ids are 32-bit there: half the memory the greedy reads per candidate.
struct RouteView {
  const std::uint32_t* first = nullptr;
  const std::uint32_t* last = nullptr;
  const std::uint32_t* begin() const { return first; }
  const std::uint32_t* end() const { return last; }
  std::size_t size() const { return static_cast<std::size_t>(last - first); }
  bool empty() const { return first == last; }
  std::vector<std::size_t> to_vector() const { return {first, last}; }
};
inline bool operator==(const std::vector<std::size_t>& v, const RouteView& r) {
  return v.size() == r.size() && std::equal(v.begin(), v.end(), r.begin());
}
inline bool operator!=(const std::vector<std::size_t>& v, const RouteView& r) { return !(v == r); }

class RingNetwork {
 public:
  // The platform must be valid (model/platform_graph.hpp's validate).
  explicit RingNetwork(const Platform& platform);
  ~RingNetwork();
  RingNetwork(const RingNetwork&) = delete;
  RingNetwork& operator=(const RingNetwork&) = delete;

  const Platform& platform() const { return platform_; }
  std::size_t host_count() const { return hosts_.size(); }
  std::size_t host_node(std::size_t h) const { return hosts_[h]; }
  const std::string& host_name(std::size_t h) const { return platform_.nodes[hosts_[h]].name; }
  double speed(std::size_t h) const { return platform_.nodes[hosts_[h]].speed; }

  std::size_t link_count() const { return platform_.links.size(); }
  // From flat arrays: the greedy asks these for every link of every candidate it evaluates.
  double capacity(std::size_t l) const { return capacity_[l]; }
  double latency(std::size_t l) const { return latency_[l]; }  // the widest searches' tie-break
  bool fatpipe(std::size_t l) const { return fatpipe_[l] != 0; }
  const std::string& link_name(std::size_t l) const { return platform_.links[l].name; }

  // Full zones: paths are the platform's routes. Graph zones: the planners choose them.
  bool fixed_routes() const { return !platform_.graph_routed(); }

  // The route of a Full zone from host a to host b (a != b).
  RouteView route(std::size_t a, std::size_t b) const {  // inline: the greedy's innermost read
    const std::size_t x = a * hosts_.size() + b;
    return {route_links_ + route_start_[x], route_links_ + route_start_[x + 1]};
  }
  // A hint that route(a, b) will be read soon: its offsets (stage 0), then, once they are in
  // cache, its links (stage 1). The table is far larger than the caches (16.7 million routes for
  // 4096 hosts) and the greedy reads it in an order no hardware prefetcher guesses.
  void prefetch_route(std::size_t a, std::size_t b, int stage) const {
    const std::size_t x = a * hosts_.size() + b;
    if (stage == 0)
      __builtin_prefetch(route_start_ + x);
    else
      __builtin_prefetch(route_links_ + route_start_[x]);
  }

  // Bottleneck of the best path from a to b on the full-capacity network: the widest path on a
  // graph zone, the route's smallest link bandwidth on a Full zone. The complete-graph view of
  // the slides labels edge (a, b) with it; every path's bandwidth is at most this value.
  double full_bandwidth(std::size_t a, std::size_t b) const { return full_bw_[a * hosts_.size() + b]; }
  // Rows for fast scans: from_row(a)[b] = full_bandwidth(a, b), to_row(a)[b] = full_bandwidth(b, a),
  // pair_row(a)[b] = pair_shared_bandwidth(a, b) (symmetric).
  const double* from_row(std::size_t a) const { return full_bw_.data() + a * hosts_.size(); }
  const double* to_row(std::size_t a) const {
    return (full_bw_t_.empty() ? full_bw_.data() : full_bw_t_.data()) + a * hosts_.size();
  }
  const double* pair_row(std::size_t a) const { return pair_shared_.data() + a * hosts_.size(); }

  // The pair's path on the full-capacity network: on a graph zone the widest path found from
  // min(a, b), reversed when a > b (so that a -> b and b -> a cross the same links); on a Full zone
  // the route.
  HostPath pair_path(std::size_t a, std::size_t b) const;

  // Upper bound on f(a -> b) + f(b -> a) when the two paths cross the same links (the reverse of
  // each other, as the planners lay them on graph zones; on Full zones the links common to both
  // routes): the largest, over paths, of the smallest SHARED capacity along it (FATPIPE links do
  // not limit a sum). +inf when no SHARED link must be crossed.
  double pair_shared_bandwidth(std::size_t a, std::size_t b) const { return pair_shared_[a * hosts_.size() + b]; }

  // Upper bound on the total bandwidth of all the paths that start or end at host h (they all
  // draw from one pool): on a graph zone the sum of the capacities of h's incident links when they
  // are all SHARED (each such path crosses exactly one of them); on a Full zone the smallest
  // SHARED link common to every route from and to h (a cluster's private link); +inf otherwise.
  double pool_capacity(std::size_t h) const { return pool_[h]; }

  // Graph zones: CSR adjacency (node -> (neighbour, link)), for the widest-path searches.
  struct Arc {
    std::uint32_t node;
    std::uint32_t link;
  };
  const Arc* arcs_begin(std::size_t node) const { return arcs_.data() + arc_start_[node]; }
  const Arc* arcs_end(std::size_t node) const { return arcs_.data() + arc_start_[node + 1]; }
  std::size_t node_count() const { return platform_.nodes.size(); }
  // Graph zones: the 2-edge-connected components joined by the bridges (bridge_tree.hpp), and
  // the blocks joined at the articulation points (block_tree.hpp).
  const BridgeTree& bridges() const { return bridges_; }
  const BlockTree& blocks() const { return blocks_; }

 private:
  // Graph zones: the CSR adjacency of arc_start_ and arcs_.
  void index_arcs();
  // Graph zones: pool_ (pool_capacity) from each host's incident links.
  void compute_graph_pools();
  // Graph zones: full_bw_ by one widest search per host, pair_shared_ by the bottleneck tree.
  void compute_graph_bottlenecks();
  // Full zones without a HostRouteTable: the platform's host-to-host routes into own_start_ and
  // own_links_ (symmetrical routes stored both ways); InputError when a pair has no route.
  void store_own_routes();
  // Full zones: full_bw_ and pair_shared_ from the routes, and full_bw_t_.
  void compute_route_bottlenecks();
  // Full zones: pool_ from the SHARED links common to every route from and to each host.
  void compute_route_pools();

  const Platform& platform_;
  std::vector<double> capacity_;   // per link: its bandwidth
  std::vector<double> latency_;    // per link: its latency
  std::vector<char> fatpipe_;      // per link: FATPIPE
  std::vector<std::size_t> hosts_;  // host id -> platform node
  std::vector<std::uint32_t> arc_start_;
  std::vector<Arc> arcs_;
  BridgeTree bridges_;
  BlockTree blocks_;
  std::vector<double> full_bw_;    // host x host
  std::vector<double> full_bw_t_;  // its transpose when not symmetric (Full zones)
  std::vector<double> pool_, pair_shared_;
  // Full zones: the route of host pair (a, b) is route_links_[route_start_[a p + b] .. route_start_[a p + b + 1]),
  // in the platform's route table (HostRouteTable) when it has one, else in own_start_, own_links_.
  const std::uint64_t* route_start_ = nullptr;
  const std::uint32_t* route_links_ = nullptr;
  std::vector<std::uint64_t> own_start_;
  std::vector<std::uint32_t> own_links_;
};

// Single-source widest paths (largest bottleneck capacity; among them, few links then low
// latency, as far as a label-setting search can tell; ties by node index, so deterministic).
// Reusable workspace: run() costs O(E log V) and no allocation after the first call.
// With targets, the part of the graph hanging at an articulation point (RingNetwork::blocks)
// that holds neither the source nor a target, the point itself left out, is never entered: its
// nodes are reached only through that point, after the point is settled, and relax nothing but
// each other and the point (settled), so they decide no other label and change no other node's
// order (labels are totally ordered). Every node outside such parts gets the label and arc of a
// search that enters them.
class WidestSearch {
 public:
  explicit WidestSearch(const RingNetwork& net);
  // Capacities per platform link (links with capacity <= 0 are not used); stops once every node
  // of `targets` is settled (all nodes when empty). Nodes other than the source and the targets
  // may be left unsettled (the parts hanging at articulation points, see above).
  void run(std::size_t source_node, const std::vector<double>& capacity, const std::vector<std::size_t>& targets);
  // Settled by the last run (every target is, when reachable through positive capacities).
  bool reached(std::size_t node) const { return settled_[node] == run_; }
  double bottleneck(std::size_t node) const { return reached(node) ? best_[node] : 0.0; }
  // Links from the source to `node`, in order (requires reached(node)).
  std::vector<std::size_t> links_to(std::size_t node) const;
  // Calls f(link) for every link from `node` back to the source (reverse order), no allocation.
  template <class F>
  void for_each_link_back(std::size_t node, F&& f) const {
    for (std::size_t v = node; hops_[v] > 0; v = via_node_[v]) f(static_cast<std::size_t>(via_link_[v]));
  }

 private:
  // A new run: the stamps of the last one made stale (reset when the counter wraps), the targets
  // marked; how many distinct targets there are.
  std::size_t begin_run(const std::vector<std::size_t>& targets);
  // Marks the blocks on the way from a root of the block tree to `node` as needed by this run.
  void mark_needed_blocks(std::size_t node);
  // The heap of labelled, unsettled nodes (see run()).
  bool comes_first(std::uint32_t x, std::uint32_t y) const;
  void place(std::size_t at, std::uint32_t v);
  void sift_up(std::size_t at);
  std::uint32_t pop_best();

  const RingNetwork& net_;
  std::vector<double> best_, latency_;
  std::vector<std::uint32_t> hops_, via_link_, via_node_, stamp_, settled_, target_, needed_;
  std::uint32_t run_ = 0;
  std::vector<std::uint32_t> heap_, slot_;  // labelled nodes, best first; each one's place
};

// All-pairs widest-path bottlenecks of a graph zone through one maximum spanning forest: the
// bottleneck between two nodes is the smallest capacity on their path in that forest (a classical
// property of maximum spanning trees). Built in O(E log E + V log V), queried in O(log V).
class BottleneckTree {
 public:
  explicit BottleneckTree(const RingNetwork& net);
  // capacity per platform link (<= 0: unusable); FATPIPE links count as `fatpipe_value`.
  void build(const std::vector<double>& capacity, double fatpipe_value);
  double query(std::size_t u, std::size_t v) const;  // 0 when not connected, +inf when u == v
  // Bottlenecks from `source` to every node (out[v]): up from the source to its root, then down
  // its tree in the order the nodes were found (parents first): O(size of its tree).
  void from_source(std::size_t source, std::vector<double>& out) const;

 private:
  const RingNetwork& net_;
  std::vector<std::uint32_t> order_, parent_uf_, depth_, comp_;
  std::vector<double> key_, fresh_key_;       // per edge: its capacity in order_, and now
  std::vector<std::uint32_t> changed_, kept_;  // build's workspace
  std::vector<std::vector<std::uint32_t>> up_;
  std::vector<std::vector<double>> low_;
  std::vector<std::vector<std::pair<std::uint32_t, double>>> tree_;
  std::vector<std::uint32_t> found_, found_start_, found_end_;  // nodes by tree, parents first; per root its range
  mutable std::vector<std::uint32_t> mark_;         // from_source: the source's ancestors, by call
  mutable std::uint32_t mark_gen_ = 0;
};

}  // namespace ringsim::ring
