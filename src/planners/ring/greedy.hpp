// The state of the SharedRing greedy (report Section 4; its steps are in greedy.cpp) and of the
// exact speed-ups of its insertion step, each in the file named after what it computes:
//  - insertion_bounds.cpp: lower bounds of a candidate's criterion from upper bounds on its four
//    new bandwidths, and the floors that bound whole hosts and groups of positions;
//  - bridge_bounds.cpp: the graph zones' capacities that every path through a bridge shares;
//  - residual_bound.cpp: the graph zones' second bound, on the residual network;
//  - branch_and_bound.cpp: the step itself, candidates evaluated best bound first until no bound
//    can beat the best value found;
//  - twin_classes.hpp: one evaluation per class of interchangeable hosts (fixed routes);
//  - insertion_memo.cpp: insertions kept from step to step until one of their inputs changes;
//  - row_summaries.cpp: bounds over the kept insertions of one ring edge, to pass a row unread;
//  - allocation_memo.hpp, shared_link_sets.hpp: the allocation's inputs and answers.
// Every speed-up returns the insertion a full evaluation of every candidate chooses (ties: lowest
// value, then lowest host id k, then ring position); RingOptions::prune = false evaluates every
// candidate (the tests check that both agree).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "model/huge_pages.hpp"
#include "planners/ring/allocation_memo.hpp"
#include "planners/ring/ring_planner.hpp"
#include "planners/ring/shared_link_sets.hpp"
#include "planners/ring/twin_classes.hpp"

namespace ringsim::ring::greedy {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// One candidate's outcome: T_step and its four paths.
struct Insertion {
  double tstep = kInfinity;
  std::size_t k = kNone, pos = kNone;
  bool cached = false;  // taken from the memo: paths not filled in yet
  // P_k = k -> i, S_i = i -> k, S_k = k -> j, P_j = j -> k
  PathState pk, si, sk, pj;
};

// Whether inserting k at pos with value t beats `best` (the tie rule of every speed-up).
inline bool better(double t, std::size_t k, std::size_t pos, const Insertion& best) {
  if (t != best.tstep) return t < best.tstep;
  return k < best.k || (k == best.k && pos < best.pos);
}

// What the bounds read of one ring position (i -> j) in a step (insertion_bounds.cpp).
struct PosInfo {
  std::size_t i, j;
  double base;              // Equation 4's sum without the terms of S_i and P_j (which leave)
  double avail_i, avail_j;  // bound on the new pair's bandwidth sum at i, at j
  double rest_comm;         // H C_m of the member with the largest C_m other than i and j
  double s_i, r_i, s_j, r_j, c_pi, c_sj;  // speeds, their roots, c(P_i), c(S_j)
  std::uint32_t top_i = 0, top_j = 0;     // graph zones: BridgeTree::top of i's and j's components
  double chain_i = kInfinity, chain_j = kInfinity;  // graph zones: side_capacity at i and j
  double meet_chain = kInfinity;                    // graph zones: the bridges above meet(i, j), all of them
};

// What the bounds read of one candidate host in a step.
struct HostInfo {
  std::size_t k;
  double s, r, denom, pool;
  const double *from, *to, *pair;  // full_bandwidth(k, .), full_bandwidth(., k), pair_shared(k, .)
  double chain = kInfinity;        // graph zones: pool and every link above k (four_path_capacity)
  std::uint32_t top = BridgeTree::kNone;  // graph zones: BridgeTree::top of k's component
};

// Whether i or j lies below the same child of the root as host h (graph zones).
inline bool touches(const HostInfo& h, const PosInfo& pi) {
  return h.top != BridgeTree::kNone && (pi.top_i == h.top || pi.top_j == h.top);
}
// The pair bound at i (at j) for host h: the chain's when h lies below another child of the
// root than i (or in a root component itself) (bridge_bounds.cpp).
inline double pair_at(const HostInfo& h, std::uint32_t top, double chain, double pair) {
  return h.top == BridgeTree::kNone || h.top != top ? std::min(pair, chain) : pair;
}

// `bound` orders the candidates; `soft` (Equation 4 and the new members' communication times
// with optimistic costs) is a bound up to rounding, `floor` (an unchanged member's communication
// time) is computed exactly as T_step will be, so it prunes without a margin.
struct Candidate {
  double bound, soft, floor;
  std::size_t k, pos;
};
struct Bound {
  double soft, floor;
};

class Greedy {
 public:
  Greedy(const RingNetwork& net, const Workload& load, Refinement refinement, const RingOptions& opt);
  RingPlan run();

 private:
  friend class StepSearch;
  friend class ResidualBound;

  // ---- Section 4 (greedy.cpp) ----
  double gap_at(std::size_t q) const { return q >= 2 && q - 1 < gap_by_size_.size() ? gap_by_size_[q - 1] : 0.0; }
  static double cost(const PathState& ps) { return 1.0 / ps.bw; }
  double member_c(std::size_t h) const { return cost(S_[h]) + cost(P_[h]); }
  std::size_t succ_of(std::size_t pos) const { return ring_[pos + 1 < ring_.size() ? pos + 1 : 0]; }
  std::size_t pred_of(std::size_t pos) const { return ring_[(pos + ring_.size() - 1) % ring_.size()]; }
  void take(const PathState& ps);
  void give_back(const PathState& ps);
  double pair_tstep(std::size_t a, std::size_t b, const double* f) const;
  bool choose_pair();
  GreedyProgress progress() const { return {ring_.size(), net_.host_count(), candidates_, evaluations_}; }
  void prepare_step();
  double candidate_tstep(std::size_t k, std::size_t i, std::size_t j, double c_pk, double c_si, double c_sk,
                         double c_pj) const;
  Insertion evaluate(std::size_t k, std::size_t pos);
  Insertion evaluate_on_routes(std::size_t k, std::size_t pos);
  Insertion evaluate_by_widest_paths(std::size_t k, std::size_t pos);
  void consider(std::size_t k, std::size_t pos, Insertion& best);
  void apply(const Insertion& ins);
  void refine();
  double current_tstep() const;
  void snapshot(RingPlan& plan) const;

  // ---- the insertion step (branch_and_bound.cpp) ----
  Insertion choose_insertion();
  Insertion choose_best();
  template <class F>
  void for_each_open(F&& f, bool evaluating = false);
  bool open_host(std::size_t k) {
    return pos_of_[k] == kNone && !(opt_.prune && net_.fixed_routes() && !twins_.is_representative(k, pos_of_));
  }
  std::size_t class_rep(std::size_t c) { return twins_.representative(c, pos_of_); }

  // ---- bounds (insertion_bounds.cpp) ----
  std::vector<PosInfo> position_info() const;
  Bound bound(const HostInfo& h, const PosInfo& pi, double pair_i, double pair_j, double pool) const;
  Candidate first_bound(const HostInfo& h, const PosInfo& pi, std::size_t pos) const;
  HostInfo host_info(std::size_t k, double pool) const;
  double pool_at(const HostInfo& h, const PosInfo& pi) const;
  double host_floor(const HostInfo& h, double pool, double min_base, double min_root) const;
  std::vector<std::pair<double, std::size_t>> hosts_by_floor(const std::vector<PosInfo>& pos_info);
  void audit_floors(const std::vector<std::pair<double, std::size_t>>& host_order, const std::vector<PosInfo>& based,
                    double least_root) const;

  // ---- bridges (bridge_bounds.cpp) ----
  const BridgeTree& bt() const { return net_.bridges(); }
  std::uint32_t comp_of(std::size_t h) const { return bt().component(net_.host_node(h)); }
  double pool_of(std::size_t k) const { return net_.fixed_routes() ? net_.pool_capacity(k) : pool_[k]; }
  void count_below(std::size_t h);
  void prepare_host_capacities();
  double bridges_above(std::uint32_t c) const;
  std::uint32_t meet(std::uint32_t a, std::uint32_t b) const;
  double four_path_capacity(std::size_t k, std::size_t i, std::size_t j) const;
  double members_free_capacity(std::size_t k) const;
  double chain_capacity(std::size_t k) const;
  double side_capacity(std::size_t m, const PathState& a, const PathState& b) const;

  // ---- the memo of insertions (insertion_memo.cpp) and its rows (row_summaries.cpp) ----
  struct Memo {  // f[0] is NaN while the entry is not valid, 0 when the insertion is impossible
    double f[4] = {NAN, NAN, NAN, NAN};
  };
  struct RowSummary {
    double a[3] = {kInfinity, kInfinity, kInfinity};
    double speed = 0.0;
    std::size_t k = kNone;
    bool any = false;  // a feasible entry was folded in
  };
  void start_memo();
  void drop_entry(std::size_t row, std::size_t c);
  void drop_edges(std::size_t m);
  void invalidate_memo();
  void index_crossings();
  void remember(std::size_t k, std::size_t i, std::size_t j, const double* f, bool feasible);
  void note_changes(const std::vector<std::size_t>& old_si_links, const std::vector<std::size_t>& old_pj_links,
                    std::size_t i, std::size_t j, std::size_t k);
  void entry_terms(const Memo& m, std::size_t i, std::size_t j, std::size_t k, double* a) const;
  void fold(RowSummary& row, const double* a, std::size_t k) const;
  double row_bound(const RowSummary& row, const PosInfo& pi) const;
  void consider_entry(std::size_t pos, std::size_t c, std::size_t k, RowSummary& row, Insertion& best);
  void best_from_rows(const std::vector<PosInfo>& pos_info, Insertion& best);
  Insertion finish(Insertion best);

  // The problem and the ring being grown.
  const RingNetwork& net_;
  Workload load_;
  Refinement refinement_;
  RingOptions opt_;
  WidestSearch search_;
  BottleneckTree tree_, res_tree_;
  std::vector<double> speed_, root_, full_, residual_, residual_plus_;
  std::vector<std::size_t> ring_, pos_of_;
  std::vector<PathState> S_, P_;  // per host id: path to the successor / predecessor
  std::size_t candidates_ = 0, evaluations_ = 0;
  std::vector<double> gap_by_size_;
  bool solver_trouble_ = false;
  std::vector<std::pair<std::size_t, double>> saved_;  // residuals an evaluation restores
  // Per step: sum of s_m C_m, sum of speeds, the three largest C_m (for the O(1) T_step).
  double csum_ = 0.0, speed_sum_ = 0.0;
  struct Top {
    double value;
    std::size_t host;
  };
  Top top_[3];

  // Graph zones (bridge_bounds.cpp).
  std::vector<std::uint32_t> below_;  // per bridge-tree component: ring members below
  std::vector<double> pool_, chain_;  // per open host, this step: four_path_capacity
  std::vector<std::vector<std::size_t>> incident_;  // each host's incident links

  // Fixed routes: twins, the shared-set builder, the allocation memo.
  TwinClasses twins_;
  FixedRouteSets route_sets_;
  AllocationMemo allocations_;

  // Fixed routes, pruning, no refinement (insertion_memo.cpp): per ring member i and class c, the
  // fractions of the class's insertion on the edge i -> j (memo_[i C + c], C classes: the
  // entries of one edge, a row, lie together).
  std::vector<double> weight_;  // per ring member h, this step: s_h c_h as prepare_step sums it
  std::vector<Memo> memo_;
  bool memo_on_ = false;
  // The entries of a row that are not valid, each listed once (listed_), so that a step visits
  // what changed instead of every (class, edge) pair.
  std::vector<unsigned char> listed_;
  std::vector<std::vector<std::uint32_t>> pending_;  // per ring member: classes
  std::vector<RowSummary> row_;
  static constexpr int kBoundCheck = 64;
  int unbounded_steps_ = 0;     // steps left to evaluate the open entries without bounds
  std::size_t open_count_ = 0;  // open entries bounded in this step
  std::vector<std::size_t> changed_;  // links whose residual the last insertion changed
  std::size_t last_i_ = kNone, last_j_ = kNone, last_k_ = kNone;
  std::vector<std::uint32_t> chg_stamp_;
  std::uint32_t chg_gen_ = 0;
  // Per shared link l, the pairs (class c, host m), as c p + m, whose routes between the class's
  // candidate and m cross l: cross_[cross_start_[l] .. cross_start_[l + 1]) (index_crossings).
  std::vector<std::uint64_t> cross_start_;
  std::vector<std::uint32_t> cross_;
};

}  // namespace ringsim::ring::greedy
