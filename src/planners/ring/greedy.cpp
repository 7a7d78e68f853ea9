// The SharedRing greedy heuristic (Legrand, Renard, Robert, Vivien, Section 4), with its two
// refinements (Section 4.3).
//
// Objective: the pair, then every insertion, minimizes the report's insertion cost, Equation 4
// (RingOptions::criterion = eq4, the default), or the exact T_step with alpha_i >= 0 (criterion =
// exact; tstep.hpp: T_step = max(Equation 4, largest communication time), so the two differ only
// when some member's communication alone exceeds the others' balanced time). Every ring size's
// exact T_step is recorded (tstep_by_size) and the answer is the best ring over all sizes
// q = 1..p (q = 1: the fastest host alone, no communication), since T_step is not monotone in q
// (report, Figure 11). The plan then goes through the common evaluator (evaluate_plan).
//
// Insertion of host k between ring neighbours i -> j (Section 4.2): the two paths between i and j
// (S_i and P_j) give their bandwidth back to the residual network; one widest-path search from k
// on those residual capacities gives k -> i and k -> j, and their reverses serve as i -> k and
// j -> k (four widest paths; on an undirected network the reverse of a widest path is a widest
// path, and k <-> i then share every link, as SimGrid's SHARED links are shared by both
// directions). Their fractions minimize the four paths' terms of Equation 4 under the residual
// capacities (bandwidth_allocation.hpp, exact); the other 2r - 2 paths keep theirs ("we never
// recalculate the bandwidth fractions that have been assigned to previous communicating paths").
// On Full zones the four paths are the platform's routes.
//
// Speed: a candidate's exact evaluation costs a graph search (which leaves out what hangs at
// articulation points away from k, i and j: WidestSearch). The (p - r) r candidates of a step
// get lower bounds of their criterion (Equation 4 with optimistic costs -- Equation 4 is itself a
// lower bound of the exact T_step -- and, for the exact criterion, the members' communication
// times) from upper bounds on the four new bandwidths:
//  - each path's bandwidth is at most its full-capacity widest bottleneck;
//  - k -> i and i -> k cross the same links, so their sum is at most the best path's smallest
//    SHARED capacity: on the full network (RingNetwork::pair_shared_bandwidth), then, for the
//    most promising candidates, on the residual network: a path from k to i either avoids the
//    links of S_i and P_j (the only ones whose capacity grows) or first reaches one of their
//    nodes without them (two maximum spanning trees per step, BottleneckTree);
//  - the two new paths at i (at j) cross one of i's incident links each, whose residual capacity
//    plus what S_i and P_j give back bounds their sum; the four paths at k share k's incident
//    links (Full zones: the SHARED link common to all routes of a host, RingNetwork::pool_capacity);
//  - graph zones: every path between two sides of a bridge crosses it (bridge_tree.hpp), so the
//    four paths share the SHARED bridges between k and where the ways to i and j part, and the
//    two paths at i (at j) those above i (above j) when k lies elsewhere (four_path_capacity,
//    side_capacity).
// Minimizing Equation 4's terms under those constraints has a closed form. Hosts are bounded in
// the order of a floor valid at all their positions, positions in increasing base, each scan
// stopping once a floor exceeds what a candidate must beat. The 256 candidates of smallest bound
// (1024 on graph zones) are evaluated first, in bound order, usually settling the step; otherwise the
// others follow, by bound, until the bound exceeds the best value found (branch and bound). A
// candidate is pruned only when its bound is above the best value by a relative 1e-12 (or, exact
// criterion, when an unchanged member's communication time -- computed bit for bit as the
// evaluation computes it -- reaches the best value and the tie would go to the best), so the
// choice (ties: lowest value, then lowest host id k, then ring position) is the one a full
// evaluation makes; RingOptions::prune = false evaluates every candidate (the tests check that
// both agree).
//
// Fixed routes (Full zones, the platform routing mode), with pruning: hosts interchangeable for
// the criterion (classes of twins, fixed once: find_twin_classes) are evaluated once per class
// and step, by the class's lowest host out of the ring, which wins any tie within the class; an
// insertion's fractions are kept per class and ring edge until one of the links their four routes
// cross changes residual (the memo: without refinement an insertion changes only the links of the
// six paths it removes and adds), and T_step is recomputed from them (Equation 4's sums change at
// every step); the non-laminar allocations, an iterative solve, are kept by their exact inputs.
// The kept insertions of one ring edge (a row) carry a bound computed with T_step's own
// operations from the row's smallest terms (RowSummary), so a row that cannot beat the best
// found is passed over unread: on a SimGrid fat tree, where no two hosts are twins and every
// insertion of a step ties bit for bit, a step reads a few rows instead of all (p - r) r entries.
#include <algorithm>
#include <array>
#include <cstring>
#include <unordered_map>
#include <cmath>
#include <stdexcept>
#include <string>

#include "model/huge_pages.hpp"
#include "planners/ring/bandwidth_allocation.hpp"
#include "planners/ring/fractions.hpp"
#include "planners/ring/ring_planner.hpp"
#include "planners/ring/tstep.hpp"

namespace ringsim::ring {
namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

struct PathState {
  std::vector<std::size_t> links;
  double bw = 0.0;
};

// One candidate's outcome: T_step and its four paths.
struct Insertion {
  double tstep = kInfinity;
  std::size_t k = kNone, pos = kNone;
  bool cached = false;  // taken from the memo: paths not filled in yet
  // P_k = k -> i, S_i = i -> k, S_k = k -> j, P_j = j -> k
  PathState pk, si, sk, pj;
};

bool better(double t, std::size_t k, std::size_t pos, const Insertion& best) {
  if (t != best.tstep) return t < best.tstep;
  return k < best.k || (k == best.k && pos < best.pos);
}

// min a1/f1 + a2/f2 subject to f1 + f2 <= R, f1 <= U1, f2 <= U2 (r = sqrt(a)), exactly.
double two_path_bound(double a1, double r1, double u1, double a2, double r2, double u2, double R) {
  if (!(R > 0) || !(u1 > 0) || !(u2 > 0)) return kInfinity;
  if (u1 + u2 <= R) return a1 / u1 + a2 / u2;
  const double t = R / (r1 + r2);
  if (t * r1 <= u1 && t * r2 <= u2) return (r1 + r2) * (r1 + r2) / R;
  if (t * r1 > u1) return a1 / u1 + a2 / (R - u1);
  return a1 / (R - u2) + a2 / u2;
}

class Greedy {
 public:
  Greedy(const RingNetwork& net, const Workload& load, Refinement refinement, const RingOptions& opt)
      : net_(net), load_(load), refinement_(refinement), opt_(opt), search_(net), tree_(net), res_tree_(net) {
    const std::size_t p = net.host_count();
    speed_.resize(p);
    root_.resize(p);
    for (std::size_t h = 0; h < p; ++h) {
      speed_[h] = net.speed(h);
      root_[h] = std::sqrt(speed_[h]);
    }
    full_.resize(net.link_count());
    for (std::size_t l = 0; l < full_.size(); ++l) full_[l] = net.capacity(l);
    residual_ = full_;
    pos_of_.assign(p, kNone);
    S_.resize(p);
    P_.resize(p);
    incident_.resize(p);
    if (!net.fixed_routes())
      for (std::size_t h = 0; h < p; ++h)
        for (const auto* a = net.arcs_begin(net.host_node(h)); a != net.arcs_end(net.host_node(h)); ++a)
          incident_[h].push_back(a->link);
    if (net.fixed_routes() && opt.prune) {
      find_private_links();
      find_twin_classes();
      // One entry per host and class (33 bytes): beyond 32M entries (1 GB) the memo is left out.
      memo_on_ = refinement == Refinement::none && classes_.size() * p <= (std::size_t{1} << 25);
      if (memo_on_) {
        reserve_huge(memo_, classes_.size() * p);
        memo_.assign(classes_.size() * p, Memo{});
        listed_.assign(classes_.size() * p, 0);
        pending_.assign(p, {});
        row_.assign(p, RowSummary{});
        chg_stamp_.assign(net.link_count(), 0);
        index_crossings();
      }
    }
  }

  RingPlan run() {
    const std::size_t p = net_.host_count();
    RingPlan best;
    best.tstep_by_size.assign(p, NAN);
    // q = 1: the fastest host alone.
    std::size_t fastest = 0;
    for (std::size_t h = 1; h < p; ++h)
      if (speed_[h] > speed_[fastest]) fastest = h;
    best.ring = {fastest};
    double best_t = load_.work / speed_[fastest];
    best.tstep_by_size[0] = best_t;
    if (p >= 2 && choose_pair()) {
      refine();
      double t = current_tstep();
      best.tstep_by_size[1] = t;
      if (t < best_t) {
        best_t = t;
        snapshot(best);
      }
      while (ring_.size() < p) {
        const Insertion ins = choose_insertion();
        if (!std::isfinite(ins.tstep)) break;  // no host can be inserted any more
        apply(ins);
        refine();
        t = current_tstep();
        best.tstep_by_size[ring_.size() - 1] = t;
        if (opt_.progress) opt_.progress(progress());
        if (t < best_t) {
          best_t = t;
          snapshot(best);
        }
      }
      if (ring_.size() < p)
        best.note = "the ring stopped growing at " + std::to_string(ring_.size()) +
                    " hosts: no remaining host has a path with bandwidth left";
    }
    best.criterion = opt_.criterion == GreedyCriterion::eq4 ? "equation-4" : "exact";
    best.candidates = candidates_;
    best.evaluations = evaluations_;
    best.fractions = refinement_ == Refinement::none     ? "greedy: the four new paths' fractions minimize Equation 4"
                     : refinement_ == Refinement::maxmin ? "max-min fairness after every insertion"
                                                         : "global optimum after every insertion (barrier method)";
    if (refinement_ == Refinement::global) best.fraction_gap = gap_at(best.ring.size());
    if (solver_trouble_)
      best.note += std::string(best.note.empty() ? "" : "; ") +
                   "GLPK failed numerically in some global solves: their best allocation so far was kept";
    return best;
  }

 private:
  const RingNetwork& net_;
  Workload load_;
  Refinement refinement_;
  RingOptions opt_;
  WidestSearch search_;
  BottleneckTree tree_, res_tree_;
  std::vector<double> speed_, root_, full_, residual_, residual_plus_;
  std::vector<std::uint32_t> below_;  // graph zones, per bridge-tree component: ring members below
  std::vector<double> pool_, chain_;  // per open host, this step: four_path_capacity
  std::vector<std::vector<std::size_t>> incident_;  // graph zones: each host's incident links
  std::vector<std::size_t> ring_, pos_of_;
  std::vector<PathState> S_, P_;  // per host id: path to the successor / predecessor
  std::size_t candidates_ = 0, evaluations_ = 0;
  std::vector<double> gap_by_size_;
  bool solver_trouble_ = false;

  // Per step: sum of s_m C_m, sum of speeds, the three largest C_m (for the O(1) T_step).
  double csum_ = 0.0, speed_sum_ = 0.0;
  struct Top {
    double value;
    std::size_t host;
  };
  Top top_[3];
  std::vector<std::pair<std::size_t, double>> saved_;
  std::vector<std::size_t> owner_;  // fixed routes: the host a link is private to (kNone: shared)
  std::vector<std::uint64_t> key_;   // fixed routes: a private link's key (find_private_links)
  std::vector<std::size_t> class_of_, class_next_;  // fixed routes, pruning: classes of twins
  std::vector<std::vector<std::size_t>> classes_;
  // Fixed routes, pruning, no refinement: per ring member i and class c, the fractions of the
  // class's insertion on the edge i -> j (memo_[i C + c], C classes: the entries of one edge, a
  // row, lie together), valid while no input changed. f[0] is NaN while the entry is not valid,
  // 0 when the insertion is impossible.
  struct Memo {
    double f[4] = {NAN, NAN, NAN, NAN};
  };
  std::vector<double> weight_;  // per ring member h, this step: s_h c_h as prepare_step sums it
  std::vector<Memo> memo_;
  bool memo_on_ = false;
  // The entries of a row that are not valid, each listed once (listed_), so that a step visits
  // what changed instead of every (class, edge) pair.
  std::vector<unsigned char> listed_;
  std::vector<std::vector<std::uint32_t>> pending_;  // per ring member: classes
  // Per row, bounds over every valid entry it held since it was last emptied or scanned: the
  // smallest of each of Equation 4's three new terms (s_i c_i, s_j c_j, s_k c_k, as
  // candidate_tstep sums them), the largest speed s_k and the lowest host k. Equation 4's sum
  // only grows with each term and its quotient only shrinks with s_k, operation by operation in
  // floating point (rounding to nearest is monotone), so Equation 4 computed from these is at
  // most every entry's value bit for bit: a row whose bound cannot beat the best insertion found
  // is passed over without reading its entries, with no rounding margin.
  struct RowSummary {
    double a[3] = {kInfinity, kInfinity, kInfinity};
    double speed = 0.0;
    std::size_t k = kNone;
    bool any = false;  // a feasible entry was folded in
  };
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
  // Section 4.2's allocation is a pure function of the four weights, caps and shared capacities;
  // when the sets are not laminar it runs an iterative solver (bandwidth_allocation.cpp) that
  // costs far more than an insertion's other work, and the same inputs recur (a class inserted
  // between members of one cluster: the same routes up to renaming, the same capacities). Its
  // answers are kept by their exact inputs (bit for bit), so a repeated input gets the answer the
  // solver gives it.
  struct AllocKey {
    double v[24];
    bool operator==(const AllocKey& o) const { return std::memcmp(v, o.v, sizeof v) == 0; }
  };
  struct AllocHash {
    std::size_t operator()(const AllocKey& k) const {
      std::uint64_t h = 1469598103934665603ull;
      for (double x : k.v) h = (h ^ bits(x)) * 1099511628211ull;
      return static_cast<std::size_t>(mix(h));
    }
  };
  std::unordered_map<AllocKey, std::array<double, 4>, AllocHash> alloc_cache_;

  void allocate4(const double* w, const double* root, const double* cap, const double* set_cap, double* f) {
    if (laminar_allocation_small(4, w, cap, set_cap, f, root)) return;  // closed form: cheaper than a look-up
    AllocKey key;
    std::copy(w, w + 4, key.v);
    std::copy(cap, cap + 4, key.v + 4);
    std::copy(set_cap, set_cap + 16, key.v + 8);
    const auto it = alloc_cache_.find(key);
    if (it != alloc_cache_.end()) {
      std::copy(it->second.begin(), it->second.end(), f);
      return;
    }
    min_weighted_cost_allocation_small(4, w, cap, set_cap, f);
    if (alloc_cache_.size() >= (std::size_t{1} << 16)) alloc_cache_.clear();  // bounded memory
    alloc_cache_.emplace(key, std::array<double, 4>{f[0], f[1], f[2], f[3]});
  }
  std::vector<std::uint32_t> mark_stamp_, old_stamp_;  // build_fixed_sets' per-link marks
  std::vector<unsigned char> mark_, old_mark_;
  std::vector<std::size_t> touched_;
  std::uint32_t mark_gen_ = 0;

  double gap_at(std::size_t q) const { return q >= 2 && q - 1 < gap_by_size_.size() ? gap_by_size_[q - 1] : 0.0; }
  static double cost(const PathState& ps) { return 1.0 / ps.bw; }
  double member_c(std::size_t h) const { return cost(S_[h]) + cost(P_[h]); }

  void take(const PathState& ps) {
    for (auto l : ps.links)
      if (!net_.fatpipe(l)) {
        residual_[l] -= ps.bw;
        if (residual_[l] < full_[l] * 1e-12) residual_[l] = 0.0;  // rounding, not bandwidth
      }
  }
  void give_back(const PathState& ps) {
    for (auto l : ps.links)
      if (!net_.fatpipe(l)) residual_[l] = std::min(full_[l], residual_[l] + ps.bw);
  }

  // Shared sets (table by mask over `n` paths) and caps of paths given by link lists; `extra(l)`
  // is added to the residual capacity of link l (re-injection).
  template <class List, class Extra>
  void build_sets(int n, const List* const* lists, const std::vector<double>& capacity,
                  Extra extra, double* cap, double* set_cap) const {
    for (int m = 0; m < (1 << n); ++m) set_cap[m] = kInfinity;
    for (int p = 0; p < n; ++p) cap[p] = kInfinity;
    for (int p = 0; p < n; ++p)
      for (auto l : *lists[p]) {
        if (net_.fatpipe(l)) {
          cap[p] = std::min(cap[p], full_[l]);
          continue;
        }
        bool seen = false;  // one set per link: handled by the first path crossing it
        for (int o = 0; o < p && !seen; ++o)
          seen = std::find(lists[o]->begin(), lists[o]->end(), l) != lists[o]->end();
        if (seen) continue;
        int mask = 1 << p;
        for (int o = p + 1; o < n; ++o)
          if (std::find(lists[o]->begin(), lists[o]->end(), l) != lists[o]->end()) mask |= 1 << o;
        set_cap[mask] = std::min(set_cap[mask], std::min(full_[l], capacity[l] + extra(l)));
      }
  }

  // ---- twins (fixed routes) ------------------------------------------------------------------
  // A link is private to host h when every route crossing it starts or ends at h (a cluster
  // node's own link): no ring path uses it while h is out of the ring, so its residual is its
  // capacity. Its key is (capacity, FATPIPE, whether routes from h cross it, whether routes to h
  // do, its smallest distance from h along them); a host whose private links have distinct keys
  // names each by its key, so the private links
  // of two such hosts correspond one to one by key. Two hosts k and t with the same speed are
  // twins relative to a set M of hosts when, for every m in M, route(k, m) and route(t, m) (and
  // route(m, k), route(m, t)) list the same links position by position, except that where one
  // crosses a link private to k the other crosses the link private to t of the same key. Then
  // inserting k or t at a position between members i and j (both in M) gives the same four
  // routes up to that renaming: the same links shared by the same paths (Section 4.2's analytical
  // allocation sees the same shared sets, capacities and residuals), the same fractions, the same
  // T_step, bit for bit. Ties go to the lower host id, so only the lowest of a class of twins
  // needs evaluating: a pruning (without it every host is; the tests compare the two answers).
  //
  // The classes are fixed once (O(p^2) route reads), not per step: k joins the class of r0 (its
  // lowest member) when k and r0 are twins relative to every other host, and, unless k is the
  // second member r1, k and r1 are too. Any two members c, d not yet in the ring are then twins
  // relative to every ring member m: through r0 when m is not r0, through r1 when m = r0 (c and d
  // are then above r1 or one of them is r1). Renamings compose because they go by key. The members
  // enter the ring lowest first (only the lowest one out of the ring is ever a candidate).
  void find_private_links() {
    const std::size_t p = net_.host_count();
    // Per link, the hosts that are an endpoint of every route crossing it so far (at most two),
    // for each whether it was the source (bit 0) or the destination (bit 1) of those routes, and
    // the link's smallest distance from that host along them.
    const std::size_t L = net_.link_count();
    std::vector<std::size_t> x(L, kNone), y(L, kNone);
    std::vector<unsigned char> xr(L, 0), yr(L, 0);
    std::vector<std::uint32_t> xd(L, 0), yd(L, 0);
    std::vector<char> seen(L, 0);
    for (std::size_t a = 0; a < p; ++a)
      for (std::size_t b = 0; b < p; ++b) {
        if (a == b) continue;
        const RouteView route = net_.route(a, b);
        const auto len = static_cast<std::uint32_t>(route.size());
        for (std::uint32_t n = 0; n < len; ++n) {
          const std::size_t l = route.begin()[n];
          if (!seen[l]) {
            seen[l] = 1;
            x[l] = a;
            y[l] = b;
            xr[l] = 1;
            yr[l] = 2;
            xd[l] = n;
            yd[l] = len - 1 - n;
            continue;
          }
          for (auto [h, r, d] : {std::tie(x[l], xr[l], xd[l]), std::tie(y[l], yr[l], yd[l])}) {
            if (h == kNone) continue;
            if (h != a && h != b) {
              h = kNone;
              continue;
            }
            r = static_cast<unsigned char>(r | (h == a ? 1 : 2));
            d = std::min(d, h == a ? n : len - 1 - n);
          }
        }
      }
    owner_.assign(L, kNone);
    key_.assign(L, 0);
    for (std::size_t l = 0; l < L; ++l)  // one common endpoint: private to it
      if ((x[l] == kNone) != (y[l] == kNone)) {
        const bool byx = x[l] != kNone;
        owner_[l] = byx ? x[l] : y[l];
        const std::uint64_t role = byx ? xr[l] : yr[l], dist = byx ? xd[l] : yd[l];
        key_[l] = mix(mix(mix(bits(full_[l]) ^ (net_.fatpipe(l) ? 0x9e3779b97f4a7c15ull : 0)) ^ role) ^ dist);
      }
  }

  static std::uint64_t bits(double v) {
    std::uint64_t u;
    std::memcpy(&u, &v, sizeof u);
    return u;
  }
  static std::uint64_t mix(std::uint64_t z) {  // splitmix64's finalizer
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Whether two private links correspond by key (the key hashes capacity, FATPIPE and role: the
  // three are compared themselves, the hash only sorts).
  bool same_key(std::size_t a, std::size_t b) const {
    return key_[a] == key_[b] && full_[a] == full_[b] && net_.fatpipe(a) == net_.fatpipe(b);
  }
  // route(k, m) against route(t, m) (or route(m, k) against route(m, t)), as the twin relation
  // compares them.
  bool same_shape(RouteView a, std::size_t k, RouteView b, std::size_t t) const {
    if (a.size() != b.size()) return false;
    for (std::size_t n = 0; n < a.size(); ++n) {
      const std::size_t la = a.begin()[n], lb = b.begin()[n];
      const bool pa = owner_[la] == k, pb = owner_[lb] == t;
      if (pa != pb || (pa ? !same_key(la, lb) : la != lb)) return false;
    }
    return true;
  }
  // Twins relative to every host but k and t.
  bool twins(std::size_t k, std::size_t t) const {
    if (speed_[k] != speed_[t]) return false;
    for (std::size_t m = 0; m < net_.host_count(); ++m) {
      if (m == k || m == t) continue;
      if (!same_shape(net_.route(k, m), k, net_.route(t, m), t) || !same_shape(net_.route(m, k), k, net_.route(m, t), t))
        return false;
    }
    return true;
  }

  // The classes (see above). Hosts are bucketed by a hash that twins share when the routes
  // between them are alike (each route hashed with both ends' private links by key, summed over
  // the other hosts); the classes are then checked exactly, with at most a few tries per host.
  void find_twin_classes() {
    const std::size_t p = net_.host_count();
    std::vector<char> unique_keys(p, 1);  // hosts whose private links have distinct keys
    {
      std::vector<std::vector<std::uint64_t>> keys(p);
      for (std::size_t l = 0; l < owner_.size(); ++l)
        if (owner_[l] != kNone) keys[owner_[l]].push_back(key_[l]);
      for (std::size_t h = 0; h < p; ++h) {
        auto& v = keys[h];
        std::sort(v.begin(), v.end());
        unique_keys[h] = std::adjacent_find(v.begin(), v.end()) == v.end();
      }
    }
    auto token = [&](std::size_t l) { return owner_[l] == kNone ? mix(l + 1) : key_[l]; };
    std::vector<std::uint64_t> sig(p, 0);
    for (std::size_t a = 0; a < p; ++a)
      for (std::size_t b = 0; b < p; ++b) {
        if (a == b) continue;
        std::uint64_t h = 1469598103934665603ull;
        for (auto l : net_.route(a, b)) h = (h ^ token(l)) * 1099511628211ull;
        sig[a] += mix(h);
        sig[b] += mix(h ^ 0x5851f42d4c957f2dull);
      }
    std::unordered_map<std::uint64_t, std::vector<std::size_t>> buckets;  // hash -> class ids
    class_of_.assign(p, kNone);
    classes_.clear();
    constexpr int kTries = 4;
    for (std::size_t k = 0; k < p; ++k) {
      if (unique_keys[k]) {
        auto& ids = buckets[mix(sig[k] ^ bits(speed_[k]))];
        int tries = 0;
        for (std::size_t c : ids) {
          if (tries++ == kTries) break;
          auto& members = classes_[c];
          if (twins(k, members[0]) && (members.size() < 2 || twins(k, members[1]))) {
            members.push_back(k);
            class_of_[k] = c;
            break;
          }
        }
        if (class_of_[k] == kNone) ids.push_back(classes_.size());
      }
      if (class_of_[k] == kNone) {
        class_of_[k] = classes_.size();
        classes_.push_back({k});
      }
    }
    class_next_.assign(classes_.size(), 0);
  }

  // Whether k is its class's candidate: the lowest member out of the ring.
  bool class_candidate(std::size_t k) {
    const std::size_t c = class_of_[k];
    auto& next = class_next_[c];
    const auto& members = classes_[c];
    while (next < members.size() && pos_of_[members[next]] != kNone) ++next;
    return next < members.size() && members[next] == k;
  }
  // A host whose candidates a step bounds without the memo: out of the ring and, with pruning on
  // fixed routes, its class's candidate (twins are a pruning: --no-prune evaluates all).
  bool open_host(std::size_t k) {
    return pos_of_[k] == kNone && !(opt_.prune && net_.fixed_routes() && !class_candidate(k));
  }
  std::size_t class_rep(std::size_t c) {
    auto& next = class_next_[c];
    const auto& members = classes_[c];
    while (next < members.size() && pos_of_[members[next]] != kNone) ++next;
    return next < members.size() ? members[next] : kNone;
  }

  // ---- what an insertion changes (fixed routes, see memo_) ------------------------------------
  // The fractions of inserting k between i and j are a function of the four routes, the residual
  // capacities of their links and the two paths i -> j, j -> i that give theirs back (Section 4.2);
  // T_step then follows from them and the ring's sums (candidate_tstep, recomputed every time, so
  // bit for bit what an evaluation gives). An insertion changes the residual of the links of the
  // six paths it removes and adds, and nothing else (no refinement). The class's entry for edge
  // i -> j stays valid while its representative's routes to and from i and j cross none of them;
  // a link private to a member changes only when that member's paths do (it is then one of the
  // three hosts of the insertion), and a representative's private links never change. Twins
  // (same class) have the same fractions: an entry computed for one holds for the next.
  //
  // Which entries a changed link invalidates is read from an index (index_crossings) instead of
  // the routes of every class and ring member at every step: that scan was cubic in p over the run
  // and, on a fat tree (no twins), most of the greedy's time. The entries invalidated are the same.
  // The entry of class c on the edge that starts at ring member `row` is no longer valid.
  void drop_entry(std::size_t row, std::size_t c) {
    const std::size_t at = row * classes_.size() + c;
    memo_[at].f[0] = NAN;
    if (!listed_[at]) {
      listed_[at] = 1;
      pending_[row].push_back(static_cast<std::uint32_t>(c));
    }
  }
  // Every entry of the two edges at ring member m.
  void drop_edges(std::size_t m) {
    for (std::size_t row : {m, pred_of(pos_of_[m])}) {
      row_[row] = RowSummary{};
      for (std::size_t c = 0; c < classes_.size(); ++c)
        if (class_rep(c) != kNone) drop_entry(row, c);
    }
  }

  void invalidate_memo() {
    if (!memo_on_) return;
    if (last_k_ == kNone) {  // the first pair's step: nothing is known yet (its two edges)
      drop_edges(ring_[0]);
      return;
    }
    const std::size_t p = net_.host_count();
    auto dirty = [&](std::size_t c, std::size_t m) {  // m in the ring: its two edges
      drop_entry(m, c);
      drop_entry(pred_of(pos_of_[m]), c);
    };
    // The insertion's members' edges, whose paths and sums changed: pred(i) -> i and i -> k at i,
    // k -> j and j -> succ(j) at j (k's two edges are among them).
    for (std::size_t m : {last_i_, last_j_}) drop_edges(m);
    if (++chg_gen_ == 0) {
      std::fill(chg_stamp_.begin(), chg_stamp_.end(), 0);
      chg_gen_ = 1;
    }
    for (auto l : changed_) {
      if (owner_[l] != kNone || chg_stamp_[l] == chg_gen_) continue;
      chg_stamp_[l] = chg_gen_;
      for (std::uint64_t e = cross_start_[l]; e < cross_start_[l + 1]; ++e) {
        const std::size_t c = cross_[e] / p, m = cross_[e] % p;
        if (pos_of_[m] != kNone && class_rep(c) != kNone) dirty(c, m);
      }
    }
  }

  // The index of invalidate_memo. The shared links (those private to no host) of the routes
  // between a class's candidate and a host m, both ways, are those of the routes between the
  // class's lowest member r0 and m when m is not r0, and of those between r0 and the second member
  // r1 when m is r0: twins' routes differ only by their own private links (find_twin_classes), and
  // the candidate is r0, or a twin of r0 relative to every host but r0 (and of r1 relative to r0).
  // Memory: one 32-bit entry per (class, host, shared link crossed), e.g. 4 million for a
  // 1024-host fat tree.
  void index_crossings() {
    const std::size_t p = net_.host_count(), L = net_.link_count();
    std::vector<std::uint32_t> seen(L, 0);
    std::uint32_t gen = 0;
    cross_start_.assign(L + 1, 0);
    // Calls f(l, c p + m) once per shared link l of the routes between class c's candidate and m.
    auto each = [&](auto&& f) {
      for (std::size_t c = 0; c < classes_.size(); ++c) {
        const auto& members = classes_[c];
        for (std::size_t m = 0; m < p; ++m) {
          const std::size_t a = m != members[0] ? members[0] : members.size() > 1 ? members[1] : kNone;
          if (a == kNone) continue;
          ++gen;
          for (const RouteView route : {net_.route(a, m), net_.route(m, a)})
            for (auto l : route)
              if (owner_[l] == kNone && seen[l] != gen) {
                seen[l] = gen;
                f(l, static_cast<std::uint32_t>(c * p + m));
              }
        }
      }
    };
    each([&](std::size_t l, std::uint32_t) { ++cross_start_[l + 1]; });
    for (std::size_t l = 0; l < L; ++l) cross_start_[l + 1] += cross_start_[l];
    cross_.resize(cross_start_[L]);
    std::vector<std::uint64_t> at(cross_start_.begin(), cross_start_.end() - 1);
    std::fill(seen.begin(), seen.end(), 0);
    gen = 0;
    each([&](std::size_t l, std::uint32_t e) { cross_[at[l]++] = e; });
  }

  // build_sets for the fixed routes of one candidate, with S_i and P_j re-injected, by marking
  // links (the per-candidate cost of a greedy step on a large Full platform): the same sets and
  // caps, without searching one route in another.
  void build_fixed_sets(const RouteView* const* lists, const PathState& old_si,
                        const PathState& old_pj, double* cap, double* set_cap) {
    if (mark_stamp_.size() != full_.size()) {
      mark_stamp_.assign(full_.size(), 0);
      mark_.assign(full_.size(), 0);
      old_stamp_.assign(full_.size(), 0);
      old_mark_.assign(full_.size(), 0);
    }
    ++mark_gen_;
    // Room for every link of the four routes, written by index: push_back's growth check is an
    // out-of-line call on the greedy's innermost loop.
    std::size_t most = 0, used = 0;
    for (int p = 0; p < 4; ++p) most += lists[p]->size();
    if (touched_.size() < most) touched_.resize(2 * most);
    for (int m = 0; m < 16; ++m) set_cap[m] = kInfinity;
    for (int p = 0; p < 4; ++p) {
      cap[p] = kInfinity;
      for (auto l : *lists[p]) {
        if (net_.fatpipe(l)) {
          cap[p] = std::min(cap[p], full_[l]);
          continue;
        }
        if (mark_stamp_[l] != mark_gen_) {
          mark_stamp_[l] = mark_gen_;
          mark_[l] = 0;
          touched_[used++] = l;
        }
        mark_[l] = static_cast<unsigned char>(mark_[l] | (1u << p));
      }
    }
    for (int which = 0; which < 2; ++which)
      for (auto l : (which == 0 ? old_si : old_pj).links) {
        if (old_stamp_[l] != mark_gen_) {
          old_stamp_[l] = mark_gen_;
          old_mark_[l] = 0;
        }
        old_mark_[l] = static_cast<unsigned char>(old_mark_[l] | (1u << which));
      }
    for (std::size_t t = 0; t < used; ++t) {
      const std::size_t l = touched_[t];
      double x = 0.0;
      if (old_stamp_[l] == mark_gen_) {
        if (old_mark_[l] & 1u) x += old_si.bw;
        if (old_mark_[l] & 2u) x += old_pj.bw;
      }
      set_cap[mark_[l]] = std::min(set_cap[mark_[l]], std::min(full_[l], residual_[l] + x));
    }
  }

  // ---- the best pair -------------------------------------------------------------------------
  // Ring (a, b): S_a = P_a = a -> b and S_b = P_b = b -> a: four paths (on graph zones the widest
  // path and its reverse: the same links).
  double pair_tstep(std::size_t a, std::size_t b, const double* f) const {
    const double ca = load_.comm * (1 / f[0] + 1 / f[1]), cb = load_.comm * (1 / f[2] + 1 / f[3]);
    const double wa = load_.work / speed_[a], wb = load_.work / speed_[b];
    // Two members: Equation 4, and the exact T_step = max(Equation 4, largest communication time).
    const double t4 = (1 + ca / wa + cb / wb) / (1 / wa + 1 / wb);
    return opt_.criterion == GreedyCriterion::eq4 ? t4 : std::max({t4, ca, cb});
  }

  bool choose_pair() {
    const std::size_t p = net_.host_count();
    double best_t = kInfinity;
    std::size_t ba = kNone, bb = kNone;
    double f[4], cap[4], set_cap[16];
    std::vector<std::size_t> targets;
    for (std::size_t a = 0; a < p; ++a) {
      if (!net_.fixed_routes()) {
        targets.clear();
        for (std::size_t b = a + 1; b < p; ++b) targets.push_back(net_.host_node(b));
        if (targets.empty()) break;
        search_.run(net_.host_node(a), full_, targets);
      }
      for (std::size_t b = a + 1; b < p; ++b) {
        const double w[4] = {speed_[a], speed_[a], speed_[b], speed_[b]};
        if (net_.fixed_routes()) {
          const RouteView there = net_.route(a, b), back = net_.route(b, a);
          const RouteView* lists[4] = {&there, &there, &back, &back};
          // Nothing is taken yet (residual_ == full_) and nothing is given back: the sets and caps
          // of build_sets on the full network, by marking links instead of searching routes.
          build_fixed_sets(lists, PathState{}, PathState{}, cap, set_cap);
        } else {
          if (!search_.reached(net_.host_node(b))) continue;
          for (int m = 0; m < 16; ++m) set_cap[m] = kInfinity;
          double fat = kInfinity;
          search_.for_each_link_back(net_.host_node(b), [&](std::size_t l) {
            if (net_.fatpipe(l))
              fat = std::min(fat, full_[l]);
            else
              set_cap[15] = std::min(set_cap[15], full_[l]);
          });
          for (double& c : cap) c = fat;
        }
        min_weighted_cost_allocation_small(4, w, cap, set_cap, f);
        const double t = pair_tstep(a, b, f);
        if (t < best_t) {
          best_t = t;
          ba = a;
          bb = b;
        }
      }
    }
    if (!std::isfinite(best_t)) return false;
    const HostPath ab = net_.pair_path(ba, bb), back = net_.pair_path(bb, ba);
    const std::vector<std::size_t>* lists[4] = {&ab.links, &ab.links, &back.links, &back.links};
    build_sets(4, lists, full_, [](std::size_t) { return 0.0; }, cap, set_cap);
    const double w[4] = {speed_[ba], speed_[ba], speed_[bb], speed_[bb]};
    min_weighted_cost_allocation_small(4, w, cap, set_cap, f);
    ring_ = {ba, bb};
    count_below(ba);
    count_below(bb);
    pos_of_[ba] = 0;
    pos_of_[bb] = 1;
    S_[ba] = {ab.links, f[0]};
    P_[ba] = {ab.links, f[1]};
    S_[bb] = {back.links, f[2]};
    P_[bb] = {back.links, f[3]};
    for (auto h : ring_) {
      take(S_[h]);
      take(P_[h]);
    }
    return true;
  }

  GreedyProgress progress() const { return {ring_.size(), net_.host_count(), candidates_, evaluations_}; }

  // ---- insertion -------------------------------------------------------------------------------
  std::size_t succ_of(std::size_t pos) const { return ring_[pos + 1 < ring_.size() ? pos + 1 : 0]; }
  std::size_t pred_of(std::size_t pos) const { return ring_[(pos + ring_.size() - 1) % ring_.size()]; }

  void prepare_step() {
    csum_ = 0.0;
    speed_sum_ = 0.0;
    for (auto& t : top_) t = {-1.0, kNone};
    if (memo_on_) weight_.resize(net_.host_count());
    for (auto h : ring_) {
      const double c = member_c(h);
      csum_ += speed_[h] * c;
      if (memo_on_) weight_[h] = speed_[h] * c;
      speed_sum_ += speed_[h];
      Top cur{c, h};
      for (auto& t : top_)
        if (cur.value > t.value) std::swap(cur, t);
    }
  }

  // The criterion's value (Equation 4 or the exact T_step) after inserting k between i and j.
  double candidate_tstep(std::size_t k, std::size_t i, std::size_t j, double c_pk, double c_si, double c_sk,
                         double c_pj) const {
    const double ci = cost(P_[i]) + c_si, cj = cost(S_[j]) + c_pj, ck = c_pk + c_sk;
    const double sum = csum_ - speed_[i] * member_c(i) - speed_[j] * member_c(j) + speed_[i] * ci + speed_[j] * cj +
                       speed_[k] * ck;
    const double t4 = (load_.work + load_.comm * sum) / (speed_sum_ + speed_[k]);
    double cmax = std::max({ci, cj, ck});
    for (const auto& t : top_)
      if (t.host != kNone && t.host != i && t.host != j) {
        cmax = std::max(cmax, t.value);
        break;
      }
    // T_step = max(Equation 4, the largest communication time) (tstep.hpp).
    if (opt_.criterion == GreedyCriterion::eq4) return t4;
    return std::max(t4, load_.comm * cmax);
  }

  struct PosInfo {
    std::size_t i, j;
    double base;              // Equation 4's sum without the terms of S_i and P_j (which leave)
    double avail_i, avail_j;  // bound on the new pair's bandwidth sum at i, at j
    double rest_comm;         // H C_m of the member with the largest C_m other than i and j
    double s_i, r_i, s_j, r_j, c_pi, c_sj;  // speeds, their roots, c(P_i), c(S_j)
    std::uint32_t top_i = 0, top_j = 0;     // graph zones: BridgeTree::top of i's and j's components
    double chain_i = kInfinity, chain_j = kInfinity;  // graph zones: side_capacity at i and j
    double meet_chain = kInfinity;  // graph zones: the bridges above meet(i, j), all of them
  };
  // Equation 4's three new terms (s_i c_i, s_j c_j, s_k c_k) of a feasible entry of the edge
  // i -> j for host k, as candidate_tstep computes them.
  void entry_terms(const Memo& m, std::size_t i, std::size_t j, std::size_t k, double* a) const {
    const double ci = cost(P_[i]) + 1 / m.f[1], cj = cost(S_[j]) + 1 / m.f[3], ck = 1 / m.f[0] + 1 / m.f[2];
    a[0] = speed_[i] * ci;
    a[1] = speed_[j] * cj;
    a[2] = speed_[k] * ck;
  }
  void fold(RowSummary& row, const double* a, std::size_t k) const {
    for (int n = 0; n < 3; ++n) row.a[n] = std::min(row.a[n], a[n]);
    row.speed = std::max(row.speed, speed_[k]);
    row.k = std::min(row.k, k);
    row.any = true;
  }
  // At most the criterion's value of every valid entry of the row at pi (RowSummary), bit for
  // bit: candidate_tstep's operations in its order on the row's smallest terms and largest speed
  // (the exact criterion is also at least the largest communication time of the other members).
  // -inf when no bound holds (a numerator that is not positive).
  double row_bound(const RowSummary& row, const PosInfo& pi) const {
    const double sum = csum_ - weight_[pi.i] - weight_[pi.j] + row.a[0] + row.a[1] + row.a[2];
    const double numerator = load_.work + load_.comm * sum;
    if (!(numerator > 0)) return -kInfinity;
    const double t4 = numerator / (speed_sum_ + row.speed);
    return opt_.criterion == GreedyCriterion::eq4 ? t4 : std::max(t4, pi.rest_comm);
  }
  // The entry of class c at pos, if valid and feasible, against the best: its value is
  // candidate_tstep's on the kept fractions, what evaluate(k, pos) returns. Folds it into `row`.
  void consider_entry(std::size_t pos, std::size_t c, std::size_t k, RowSummary& row, Insertion& best) {
    const std::size_t i = ring_[pos], j = succ_of(pos);
    const Memo& m = memo_[i * classes_.size() + c];
    if (std::isnan(m.f[0])) return;
    ++candidates_;
    if (!(m.f[0] > 0)) return;  // no insertion possible
    double a[3];
    entry_terms(m, i, j, k, a);
    fold(row, a, k);
    const double t = candidate_tstep(k, i, j, 1 / m.f[0], 1 / m.f[1], 1 / m.f[2], 1 / m.f[3]);
    if (better(t, k, pos, best)) {
      best = Insertion{};
      best.tstep = t;
      best.k = k;
      best.pos = pos;
      best.cached = true;  // its paths are filled in once it has won (finish)
    }
  }
  // The best of the valid entries, row by row: a row is read only when its bound could beat the
  // best so far, or tie it with a lower host; reading it renews its summary. `lowest` is the
  // lowest candidate host: no entry has a lower k, however old the summary.
  void best_from_rows(const std::vector<PosInfo>& pos_info, Insertion& best) {
    std::size_t lowest = kNone;
    for (std::size_t c = 0; c < classes_.size(); ++c) lowest = std::min(lowest, class_rep(c));
    for (std::size_t pos = 0; pos < ring_.size(); ++pos) {
      RowSummary& row = row_[ring_[pos]];
      if (!row.any) continue;
      const double bound = row_bound(row, pos_info[pos]);
      if (bound > best.tstep) continue;
      // Every entry's value >= the best's: at most a tie, which only a lower host would win (the
      // rows are read in position order: the best is at a lower position).
      if (bound == best.tstep && std::max(row.k, lowest) >= best.k) continue;
      RowSummary fresh;
      for (std::size_t c = 0; c < classes_.size(); ++c) {
        const std::size_t k = class_rep(c);
        if (k != kNone) consider_entry(pos, c, k, fresh, best);
      }
      row = fresh;
    }
  }
  // A best taken from the memo gets its paths (evaluate gives the same value, bit for bit).
  Insertion finish(Insertion best) {
    if (!best.cached) return best;
    const double t = best.tstep;
    best = evaluate(best.k, best.pos);
    if (best.tstep != t) throw std::logic_error("ring greedy: a kept insertion's value differs from its evaluation");
    return best;
  }

  // Inserting k at position pos (between ring_[pos] and its successor): the four paths, their
  // fractions, T_step (+inf when impossible).
  Insertion evaluate(std::size_t k, std::size_t pos) {
    ++evaluations_;
    const std::size_t i = ring_[pos], j = succ_of(pos);
    Insertion out;
    out.k = k;
    out.pos = pos;
    const PathState& old_si = S_[i];
    const PathState& old_pj = P_[j];
    double f[4], cap[4], set_cap[16];
    const double w[4] = {speed_[k], speed_[i], speed_[k], speed_[j]};
    if (net_.fixed_routes()) {
      // Paths 0: P_k = k -> i, 1: S_i = i -> k, 2: S_k = k -> j, 3: P_j = j -> k.
      const RouteView ki = net_.route(k, i), ik = net_.route(i, k), kj = net_.route(k, j), jk = net_.route(j, k);
      const RouteView* lists[4] = {&ki, &ik, &kj, &jk};
      build_fixed_sets(lists, old_si, old_pj, cap, set_cap);
      const double root[4] = {root_[k], root_[i], root_[k], root_[j]};
      allocate4(w, root, cap, set_cap, f);
      bool feasible = true;
      for (double x : f) feasible = feasible && x > 0 && std::isfinite(x);
      if (memo_on_) {
        Memo& memo = memo_[i * classes_.size() + class_of_[k]];
        std::copy(f, f + 4, memo.f);
        if (!feasible) {
          memo.f[0] = 0.0;
        } else {
          double a[3];
          entry_terms(memo, i, j, k, a);
          fold(row_[i], a, k);
        }
      }
      if (!feasible) return out;
      out.tstep = candidate_tstep(k, i, j, 1 / f[0], 1 / f[1], 1 / f[2], 1 / f[3]);
      // Fixed routes: the links are the routes, copied only if this candidate is applied.
      out.pk.bw = f[0];
      out.si.bw = f[1];
      out.sk.bw = f[2];
      out.pj.bw = f[3];
      return out;
    }
    // Graph zone: re-inject S_i and P_j (saved and restored exactly), one widest search from k.
    saved_.clear();
    for (const PathState* ps : {&old_si, &old_pj})
      for (auto l : ps->links)
        if (!net_.fatpipe(l)) {
          saved_.push_back({l, residual_[l]});
          residual_[l] = std::min(full_[l], residual_[l] + ps->bw);
        }
    search_.run(net_.host_node(k), residual_, {net_.host_node(i), net_.host_node(j)});
    bool ok = search_.reached(net_.host_node(i)) && search_.reached(net_.host_node(j));
    std::vector<std::size_t> ki, ik, kj, jk;
    if (ok) {
      ki = search_.links_to(net_.host_node(i));
      kj = search_.links_to(net_.host_node(j));
      ik.assign(ki.rbegin(), ki.rend());
      jk.assign(kj.rbegin(), kj.rend());
      const std::vector<std::size_t>* lists[4] = {&ki, &ik, &kj, &jk};
      build_sets(4, lists, residual_, [](std::size_t) { return 0.0; }, cap, set_cap);
      min_weighted_cost_allocation_small(4, w, cap, set_cap, f);
      for (double x : f) ok = ok && x > 0 && std::isfinite(x);
    }
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) residual_[it->first] = it->second;
    if (!ok) return out;
    out.tstep = candidate_tstep(k, i, j, 1 / f[0], 1 / f[1], 1 / f[2], 1 / f[3]);
    out.pk = {std::move(ki), f[0]};
    out.si = {std::move(ik), f[1]};
    out.sk = {std::move(kj), f[2]};
    out.pj = {std::move(jk), f[3]};
    return out;
  }

  struct HostInfo {
    std::size_t k;
    double s, r, denom, pool;
    const double *from, *to, *pair;  // full_bandwidth(k, .), full_bandwidth(., k), pair_shared(k, .)
    double chain = kInfinity;        // graph zones: pool and every link above k (four_path_capacity)
    std::uint32_t top = BridgeTree::kNone;  // graph zones: BridgeTree::top of k's component
  };
  // `bound` orders the candidates; `soft` (Equation 4 and the new members' communication times
  // with optimistic costs) is a bound up to rounding, `floor` (an unchanged member's
  // communication time) is computed exactly as T_step will be, so it prunes without a margin.
  struct Candidate {
    double bound, soft, floor;
    std::size_t k, pos;
  };
  struct Bound {
    double soft, floor;
  };

  // Graph zones: capacity a new path could find at a link, whatever the position: the residual
  // plus the largest re-injection of one position (its S_i and P_j), and the maximum spanning tree
  // of that (FATPIPE links unlimited: it bounds sums of fractions).
  void prepare_residual_plus() {
    residual_plus_ = residual_;
    std::vector<double> add(net_.link_count(), 0.0);
    std::vector<std::size_t> touched;
    for (std::size_t pos = 0; pos < ring_.size(); ++pos) {
      for (const PathState* ps : {&S_[ring_[pos]], &P_[succ_of(pos)]})
        for (auto l : ps->links)
          if (!net_.fatpipe(l)) {
            if (add[l] == 0.0) touched.push_back(l);
            add[l] += ps->bw;
          }
      for (auto l : touched) {
        residual_plus_[l] = std::max(residual_plus_[l], std::min(full_[l], residual_[l] + add[l]));
        add[l] = 0.0;
      }
      touched.clear();
    }
    tree_.build(residual_plus_, kInfinity);
  }

  // Graph zones: ring members below each component of the bridge tree, kept as hosts join.
  void count_below(std::size_t h) {
    if (net_.fixed_routes()) return;
    if (below_.empty()) below_.assign(bt().size(), 0);
    for (auto c = comp_of(h); c != BridgeTree::kNone; c = bt().parent(c)) ++below_[c];
  }
  const BridgeTree& bt() const { return net_.bridges(); }
  std::uint32_t comp_of(std::size_t h) const { return bt().component(net_.host_node(h)); }
  double pool_of(std::size_t k) const { return net_.fixed_routes() ? net_.pool_capacity(k) : pool_[k]; }

  // Graph zones: bounds from the bridges (bridge_tree.hpp), which every path between the two
  // sides of one crosses, whatever the widest search picks. A SHARED bridge carries the paths
  // crossing it within its capacity in the residual network where evaluate() places them.
  //
  // The smallest residual capacity of the SHARED bridges from component c upward while keep(c).
  template <class Keep>
  double bridges_up(std::uint32_t c, Keep keep) const {
    double cap = kInfinity;
    for (; bt().parent(c) != BridgeTree::kNone && keep(c); c = bt().parent(c)) {
      const std::size_t l = bt().link(c);
      if (!net_.fatpipe(l)) cap = std::min(cap, residual_[l]);
    }
    return cap;
  }
  // The lowest component at or above both a and b (kNone in different connected parts).
  std::uint32_t meet(std::uint32_t a, std::uint32_t b) const {
    for (; a != BridgeTree::kNone; a = bt().parent(a))
      if (bt().above_or_at(a, b)) return a;
    return BridgeTree::kNone;
  }
  // The four new paths' bandwidth sum when k goes between i and j: the paths join k to i and j,
  // so they all cross the bridges between k's component and the one where the ways to i and j
  // part -- those above k below which lie neither i nor j, and those above meet(i, j) below
  // which k does not lie. S_i and P_j, which give their bandwidth back, join i and j and so cross
  // none of these: the residual is the capacity. k's incident links bound the same sum (pool).
  double four_path_capacity(std::size_t k, std::size_t i, std::size_t j) const {
    const std::uint32_t ck = comp_of(k), ci = comp_of(i), cj = comp_of(j);
    double cap = std::min(net_.pool_capacity(k), bridges_up(ck, [&](std::uint32_t c) {
                            return !bt().above_or_at(c, ci) && !bt().above_or_at(c, cj);
                          }));
    const std::uint32_t m = meet(ci, cj);
    if (m != BridgeTree::kNone)
      cap = std::min(cap, bridges_up(m, [&](std::uint32_t c) { return !bt().above_or_at(c, ck); }));
    return cap;
  }
  // Host k's part of it for every position at once: the bridges above k below which lies no
  // ring member (pool_), and all the bridges above k (chain_, for positions whose i and j lie
  // below another child of the root than k: see pool_at).
  double members_free_capacity(std::size_t k) const {
    return std::min(net_.pool_capacity(k), bridges_up(comp_of(k), [&](std::uint32_t c) { return below_[c] == 0; }));
  }
  double chain_capacity(std::size_t k) const {
    return std::min(net_.pool_capacity(k), bridges_up(comp_of(k), [](std::uint32_t) { return true; }));
  }
  // The two new paths' bandwidth sum at member m (i or j) of a position, for a host k below
  // another child of the root than m: both paths between k and m cross every bridge above m,
  // within its capacity once S_i and P_j (`a`, `b`) gave theirs back, computed as evaluate()
  // re-injects them, bit for bit.
  double side_capacity(std::size_t m, const PathState& a, const PathState& b) const {
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
  // The pair bound at i (at j) for host h: the chain's when h lies below another child of the
  // root than i (or in a root component itself).
  static double pair_at(const HostInfo& h, std::uint32_t top, double chain, double pair) {
    return h.top == BridgeTree::kNone || h.top != top ? std::min(pair, chain) : pair;
  }

  // Lower bound of the criterion after inserting h.k at pi's position: `pair_i` bounds
  // f(k->i) + f(i->k), `pair_j` the same at j, `pool` the four new paths together. T_step >= Equation
  // 4 and T_step >= every member's communication time (tstep.hpp).
  Bound bound(const HostInfo& h, const PosInfo& pi, double pair_i, double pair_j, double pool) const {
    const double ri_sum = std::min(pi.avail_i, pair_i), rj_sum = std::min(pi.avail_j, pair_j);
    const double u_pk = std::min(h.from[pi.i], ri_sum), u_si = std::min(h.to[pi.i], ri_sum);
    const double u_sk = std::min(h.from[pi.j], rj_sum), u_pj = std::min(h.to[pi.j], rj_sum);
    const double side_i = two_path_bound(h.s, h.r, u_pk, pi.s_i, pi.r_i, u_si, ri_sum);
    const double side_j = two_path_bound(h.s, h.r, u_sk, pi.s_j, pi.r_j, u_pj, rj_sum);
    const double roots = 2 * h.r + pi.r_i + pi.r_j;
    const double fresh = std::max(side_i + side_j, roots * roots / pool);
    const double t4 = (load_.work + load_.comm * (pi.base + fresh)) / h.denom;
    if (opt_.criterion == GreedyCriterion::eq4) return {t4, 0.0};
    const double ck = std::max(1 / u_pk + 1 / u_sk, 4 / pool);
    const double ci = pi.c_pi + 1 / u_si, cj = pi.c_sj + 1 / u_pj;
    return {std::max(t4, load_.comm * std::max(ck, std::max(ci, cj))), pi.rest_comm};
  }
  HostInfo host_info(std::size_t k, double pool) const {
    HostInfo h{k, speed_[k], root_[k], speed_sum_ + speed_[k], pool, net_.from_row(k), net_.to_row(k), net_.pair_row(k)};
    h.chain = pool;
    if (!net_.fixed_routes()) {
      h.chain = std::min(pool, chain_[k]);
      h.top = bt().top(comp_of(k));
    }
    return h;
  }
  // Whether i or j lies below the same child of the root as host h (graph zones).
  static bool touches(const HostInfo& h, const PosInfo& pi) {
    return h.top != BridgeTree::kNone && (pi.top_i == h.top || pi.top_j == h.top);
  }
  // The four new paths' sum at k for the position pi (four_path_capacity): when k lies below
  // another child of the root than i and j, every bridge above k and every one above meet(i, j).
  double pool_at(const HostInfo& h, const PosInfo& pi) const {
    if (!touches(h, pi)) return std::min(h.chain, pi.meet_chain);
    return std::min(h.pool, four_path_capacity(h.k, pi.i, pi.j));
  }

  // A lower bound of bound()'s soft value at a set of positions, for host h: Equation 4 with the
  // smallest base of those positions and, of the fresh term, only the share of a `pool` at least
  // that of each position (pool_at) with the smallest root of their members (bound() computes the
  // same expressions from values at least as large, and rounding to nearest is monotone, so this
  // is at most its t4 bit for bit).
  double host_floor(const HostInfo& h, double pool, double min_base, double min_root) const {
    const double roots = 2 * h.r + min_root + min_root;
    const double fresh = roots * roots / pool;
    return (load_.work + load_.comm * (min_base + fresh)) / h.denom;
  }
  // The open hosts (open_host: those for_each_open visits without the memo) with their floors, by floor
  // then host; a floor that is not a number sorts first. On graph zones pool_at takes k's whole
  // chain except at the positions touching k's child of the root (BridgeTree::top): the floor is
  // the smaller of the two sets' floors.
  std::vector<std::pair<double, std::size_t>> hosts_by_floor(const std::vector<PosInfo>& pos_info) {
    struct Least {
      double base = kInfinity, root = kInfinity;
      void add(const PosInfo& pi) {
        base = std::min(base, pi.base);
        root = std::min({root, pi.r_i, pi.r_j});
      }
    };
    Least all;
    std::vector<Least> touching(net_.fixed_routes() ? 0 : bt().size());
    for (const auto& pi : pos_info) {
      all.add(pi);
      if (touching.empty()) continue;
      if (pi.top_i != BridgeTree::kNone) touching[pi.top_i].add(pi);
      if (pi.top_j != BridgeTree::kNone && pi.top_j != pi.top_i) touching[pi.top_j].add(pi);
    }
    std::vector<std::pair<double, std::size_t>> order;
    for (std::size_t k = 0; k < net_.host_count(); ++k) {
      if (!open_host(k)) continue;
      const HostInfo h = host_info(k, pool_of(k));
      double floor = host_floor(h, h.pool, all.base, all.root);
      if (!touching.empty()) {
        floor = host_floor(h, h.chain, all.base, all.root);
        if (h.top != BridgeTree::kNone) {
          const Least& near = touching[h.top];
          floor = std::min(floor, host_floor(h, h.pool, near.base, near.root));
        }
      }
      order.push_back({std::isnan(floor) ? -kInfinity : floor, k});
    }
    std::sort(order.begin(), order.end());
    return order;
  }

  // RingOptions::audit_floors: the inequalities the scans of choose_best stop on, checked at
  // every candidate of the step -- a host's floor and its group's floor at the candidate's base
  // are at most the candidate's first bound.
  template <class Bound1>
  void audit_floors(const std::vector<std::pair<double, std::size_t>>& host_order, const std::vector<PosInfo>& based,
                    double least_root, Bound1&& l1) const {
    for (const auto& [floor, k] : host_order) {
      const HostInfo h = host_info(k, pool_of(k));
      for (const PosInfo& pi : based) {
        const double group = host_floor(h, !net_.fixed_routes() && touches(h, pi) ? h.pool : h.chain, pi.base, least_root);
        const double soft = l1(h, pi, 0).soft;
        if (floor > soft || group > soft)
          throw std::logic_error("ring greedy: a floor above a candidate's bound (host " + std::to_string(k) + ")");
      }
    }
  }

  // Whether candidate c can be skipped given the best insertion found so far (see Candidate).
  static bool prunable(const Candidate& c, const Insertion& best) {
    constexpr double margin = 1 + 1e-12;
    if (c.soft > best.tstep * margin || c.floor > best.tstep) return true;
    // T_step(c) >= floor == best: at best a tie, which the lower (k, pos) wins.
    return c.floor == best.tstep && (c.k > best.k || (c.k == best.k && c.pos > best.pos));
  }

  Insertion choose_insertion() {
    const std::size_t evaluated_before = evaluations_;
    const bool bounded = unbounded_steps_ == 0;
    open_count_ = 0;
    Insertion best = choose_best();
    // Whether the bounds spared at least a tenth of the open entries (see choose_best).
    if (memo_on_ && bounded && open_count_ > 0)
      unbounded_steps_ = (evaluations_ - evaluated_before) * 10 >= open_count_ * 9 ? kBoundCheck : 0;
    return finish(std::move(best));
  }

  // Calls f(h, pos) for every candidate (host k = h.k, position pos) whose value is not known:
  // without the memo every pair (only each class's candidate with pruning on fixed routes); with
  // it, the entries listed as not valid (those that became valid are struck off the lists), and
  // when they are all to be evaluated (`evaluating`), the routes of those a few places on are
  // asked into the cache first.
  template <class F>
  void for_each_open(F&& f, bool evaluating = false) {
    const std::size_t r = ring_.size();
    if (!memo_on_) {
      for (std::size_t k = 0; k < net_.host_count(); ++k) {
        if (!open_host(k)) continue;
        const HostInfo h = host_info(k, pool_of(k));
        for (std::size_t pos = 0; pos < r; ++pos) f(h, pos);
      }
      return;
    }
    const std::size_t C = classes_.size();
    for (std::size_t pos = 0; pos < r; ++pos) {
      const std::size_t i = ring_[pos];
      auto& list = pending_[i];
      const std::size_t j = succ_of(pos);
      auto prefetch = [&](std::size_t n, int stage) {  // the four routes evaluate() reads for list[n]
        const std::size_t k = n < list.size() ? class_rep(list[n]) : kNone;
        if (k == kNone) return;
        for (const auto& [a, b] : {std::pair{k, i}, {i, k}, {k, j}, {j, k}}) net_.prefetch_route(a, b, stage);
      };
      std::size_t keep = 0;
      for (std::size_t n = 0; n < list.size(); ++n) {
        const std::uint32_t c = list[n];
        if (evaluating && net_.fixed_routes()) {
          prefetch(n + 16, 0);
          prefetch(n + 8, 1);
        }
        const std::size_t at = i * C + c, k = class_rep(c);
        if (k == kNone || !std::isnan(memo_[at].f[0])) {
          listed_[at] = 0;
          continue;
        }
        list[keep++] = c;
        f(host_info(k, net_.pool_capacity(k)), pos);
      }
      list.resize(keep);
    }
  }

  Insertion choose_best() {
    prepare_step();
    invalidate_memo();
    const std::size_t p = net_.host_count(), r = ring_.size();
    if (!net_.fixed_routes()) {
      pool_.assign(p, kInfinity);
      chain_.assign(p, kInfinity);
      for (std::size_t k = 0; k < p; ++k)
        if (pos_of_[k] == kNone) {
          pool_[k] = members_free_capacity(k);
          chain_[k] = chain_capacity(k);
        }
    }
    std::vector<PosInfo> pos_info(r);
    for (std::size_t pos = 0; pos < r; ++pos) {
      const std::size_t i = ring_[pos], j = succ_of(pos);
      PosInfo& pi = pos_info[pos];
      pi.i = i;
      pi.j = j;
      pi.base = csum_ - (speed_[i] * cost(S_[i]) + speed_[j] * cost(P_[j]));
      pi.s_i = speed_[i];
      pi.r_i = root_[i];
      pi.s_j = speed_[j];
      pi.r_j = root_[j];
      pi.c_pi = cost(P_[i]);
      pi.c_sj = cost(S_[j]);
      if (!net_.fixed_routes()) {
        pi.top_i = bt().top(comp_of(i));
        pi.top_j = bt().top(comp_of(j));
        const std::uint32_t m = meet(comp_of(i), comp_of(j));
        if (m != BridgeTree::kNone) pi.meet_chain = bridges_up(m, [](std::uint32_t) { return true; });
        pi.chain_i = side_capacity(i, S_[i], P_[j]);
        pi.chain_j = side_capacity(j, S_[i], P_[j]);
      }
      if (net_.fixed_routes()) {
        // i keeps P_i and S_pred(i), j keeps S_j and P_succ(j): all cross the pool link.
        pi.avail_i = std::max(0.0, net_.pool_capacity(i) - P_[i].bw - S_[pred_of(pos)].bw);
        pi.avail_j = std::max(0.0, net_.pool_capacity(j) - S_[j].bw - P_[succ_of((pos + 1) % r)].bw);
      } else {
        // Each new path at i crosses one incident link of i; S_i and P_j give back one each.
        pi.avail_i = pi.avail_j = kInfinity;
        if (std::isfinite(net_.pool_capacity(i))) {
          pi.avail_i = S_[i].bw + P_[j].bw;
          for (auto l : incident_[i]) pi.avail_i += residual_[l];
        }
        if (std::isfinite(net_.pool_capacity(j))) {
          pi.avail_j = S_[i].bw + P_[j].bw;
          for (auto l : incident_[j]) pi.avail_j += residual_[l];
        }
      }
    }
    for (std::size_t pos = 0; pos < r; ++pos) {
      pos_info[pos].rest_comm = 0.0;
      for (const auto& t : top_)
        if (t.host != kNone && t.host != pos_info[pos].i && t.host != pos_info[pos].j) {
          pos_info[pos].rest_comm = load_.comm * t.value;  // bitwise what candidate_tstep compares
          break;
        }
    }
    auto l1 = [&](const HostInfo& h, const PosInfo& pi, std::size_t pos) {
      const Bound b = bound(h, pi, pair_at(h, pi.top_i, pi.chain_i, h.pair[pi.i]),
                            pair_at(h, pi.top_j, pi.chain_j, h.pair[pi.j]), pool_at(h, pi));
      return Candidate{std::max(b.soft, b.floor), b.soft, b.floor, h.k, pos};
    };
    auto by_bound = [](const Candidate& x, const Candidate& y) {
      return x.bound < y.bound || (x.bound == y.bound && (x.k < y.k || (x.k == y.k && x.pos < y.pos)));
    };
    Insertion best;
    // Pass 0, with the memo: the best of the insertions whose value is kept, exactly.
    if (memo_on_) best_from_rows(pos_info, best);
    // With the memo, when the bounds have been ruling out almost nothing (every insertion of a
    // step tied, as on SimGrid's fat trees), the open entries are evaluated in row order without
    // bounding and sorting them first: the same minimum (ties by value, host, position whatever
    // the order), the same evaluations, and the routes read row by row. The bounds are tried again
    // every kBoundCheck steps.
    if (memo_on_ && unbounded_steps_ > 0) {
      --unbounded_steps_;
      for_each_open([&](const HostInfo& h, std::size_t pos) {
        ++candidates_;
        consider(h.k, pos, best);
      }, true);
      return best;
    }
    // Pass 1: every other candidate's first bound; the smallest per host k, and the kTop smallest
    // overall (a max-heap in (bound, k, pos) order). On graph zones, where an evaluation is a
    // search, a longer list evaluated best first (after tightening) pays: on generated Tiers
    // graphs of 1000 and 2000 hosts 1024 took 3.5 s and 20.6 s, 256 3.7 s and 32.4 s, 4096 5.6 s
    // and 30.3 s (bench ring, one run each).
    const std::size_t kTop = opt_.first_candidates > 0 ? opt_.first_candidates : net_.fixed_routes() ? 256 : 1024;
    std::vector<double> kmin(p, kInfinity);
    std::vector<Candidate> top, all;  // `all` only without pruning
    auto bound_first = [&](const HostInfo& h, const PosInfo& pi, std::size_t pos) {
      ++open_count_;
      const Candidate c = l1(h, pi, pos);
      if (!std::isfinite(c.soft)) return;
      ++candidates_;
      kmin[h.k] = std::min(kmin[h.k], c.bound);
      if (!opt_.prune) {
        all.push_back(c);
      } else if (top.size() < kTop) {
        top.push_back(c);
        std::push_heap(top.begin(), top.end(), by_bound);
      } else if (by_bound(c, top.front())) {
        std::pop_heap(top.begin(), top.end(), by_bound);
        top.back() = c;
        std::push_heap(top.begin(), top.end(), by_bound);
      }
    };
    // Without the memo, hosts by a bound of all their positions (host_floor), until that bound
    // is above the kTop-th smallest candidate bound: no candidate of the hosts left could enter
    // `top` (bound >= floor, by_bound is a strict order), so `top` is the one of a full scan, and
    // their floors stand for their smallest bounds in pass 2 (a shortcut there only: each
    // candidate is still checked by its own bound).
    // A host's positions go by increasing base in two groups: on graph zones those whose i and j
    // lie below other children of the root than the host's (pool_at takes its whole chain there,
    // h.chain), then those touching its own (h.pool; every position on Full zones). Each group
    // stops once its floor (host_floor with that pool, the position's base and the smallest member
    // root) is above `limit`: bases only grow after it, so no later candidate of the group could
    // enter `top` (pass 1) or beat the best (pass 2). Returns the smaller stopping floor.
    const bool by_host = opt_.prune && !memo_on_;
    std::vector<std::pair<double, std::size_t>> host_order;
    std::vector<std::size_t> by_base;
    std::vector<PosInfo> based;  // pos_info in by_base order: read in turn for every host
    std::vector<std::vector<std::uint32_t>> touching;  // per child of a root: its positions in `based`
    double least_root = kInfinity;
    auto scan = [&](const HostInfo& h, auto&& limit, auto&& visit) {
      const bool own = h.top != BridgeTree::kNone && !touching.empty();
      double stop = kInfinity;
      for (std::size_t q = 0; q < r; ++q) {
        const PosInfo& pi = based[q];
        if (own && touches(h, pi)) continue;
        const double f = host_floor(h, h.chain, pi.base, least_root);
        if (f > limit()) {
          stop = f;
          break;
        }
        visit(h, pi, by_base[q]);
      }
      if (own)
        for (const std::uint32_t q : touching[h.top]) {
          const double f = host_floor(h, h.pool, based[q].base, least_root);
          if (f > limit()) {
            stop = std::min(stop, f);
            break;
          }
          visit(h, based[q], by_base[q]);
        }
      return stop;
    };
    if (by_host) {
      host_order = hosts_by_floor(pos_info);
      by_base.resize(r);
      for (std::size_t pos = 0; pos < r; ++pos) {
        by_base[pos] = pos;
        least_root = std::min({least_root, pos_info[pos].r_i, pos_info[pos].r_j});
      }
      std::sort(by_base.begin(), by_base.end(), [&](std::size_t x, std::size_t y) {
        return pos_info[x].base < pos_info[y].base || (pos_info[x].base == pos_info[y].base && x < y);
      });
      based.reserve(r);
      for (const std::size_t pos : by_base) based.push_back(pos_info[pos]);
      if (!net_.fixed_routes()) {
        touching.resize(bt().size());
        for (std::size_t q = 0; q < r; ++q) {
          const auto ti = based[q].top_i, tj = based[q].top_j;
          if (ti != BridgeTree::kNone) touching[ti].push_back(static_cast<std::uint32_t>(q));
          if (tj != BridgeTree::kNone && tj != ti) touching[tj].push_back(static_cast<std::uint32_t>(q));
        }
      }
      std::size_t n = 0;
      for (; n < host_order.size(); ++n) {
        const auto [floor, k] = host_order[n];
        if (top.size() == kTop && floor > top.front().bound) break;
        const HostInfo h = host_info(k, pool_of(k));
        const double stop = scan(h, [&] { return top.size() == kTop ? top.front().bound : kInfinity; }, bound_first);
        kmin[k] = std::min(kmin[k], stop);
      }
      for (; n < host_order.size(); ++n) kmin[host_order[n].second] = host_order[n].first;
      if (opt_.audit_floors) audit_floors(host_order, based, least_root, l1);
    } else {
      for_each_open([&](const HostInfo& h, std::size_t pos) { bound_first(h, pos_info[pos], pos); });
    }
    if (!opt_.prune) {
      for (const auto& c : all) consider(c.k, c.pos, best);
      return best;
    }
    if (top.empty()) return best;
    // Second bound, on the residual network (graph zones). A path from k to i either avoids the
    // links of S_i and P_j (the only ones whose capacity grows) or first reaches one of their nodes
    // x without them: its bottleneck is at most max over x of min(residual widest k ~ x, widest
    // x ~ i with any position's re-injection). Set up lazily, per step and per host k.
    bool second = false;
    std::vector<std::vector<std::uint32_t>> xs;
    std::vector<std::vector<double>> to_i, to_j, from_k;
    std::vector<double> pool_plus;
    std::vector<char> xs_ready;  // per position: xs, to_i and to_j computed (when first needed)
    auto tighten = [&](Candidate& c) {
      if (net_.fixed_routes()) return;
      if (!second) {
        second = true;
        prepare_residual_plus();
        res_tree_.build(residual_, kInfinity);
        xs.assign(r, {});
        to_i.assign(r, {});
        to_j.assign(r, {});
        xs_ready.assign(r, 0);
        from_k.assign(p, {});
        pool_plus.assign(p, kInfinity);
      }
      if (from_k[c.k].empty()) {
        res_tree_.from_source(net_.host_node(c.k), from_k[c.k]);
        pool_plus[c.k] = pool_of(c.k);
        if (std::isfinite(net_.pool_capacity(c.k))) {
          double incident = 0.0;
          for (auto l : incident_[c.k]) incident += residual_plus_[l];
          pool_plus[c.k] = std::min(pool_plus[c.k], incident);
        }
      }
      if (!xs_ready[c.pos]) {
        xs_ready[c.pos] = 1;
        const std::size_t q = c.pos, i = ring_[q], j = succ_of(q);
        path_nodes(i, S_[i].links, xs[q]);
        path_nodes(j, P_[j].links, xs[q]);
        std::sort(xs[q].begin(), xs[q].end());
        xs[q].erase(std::unique(xs[q].begin(), xs[q].end()), xs[q].end());
        for (auto x : xs[q]) {
          to_i[q].push_back(tree_.query(x, net_.host_node(i)));
          to_j[q].push_back(tree_.query(x, net_.host_node(j)));
        }
      }
      const auto& fk = from_k[c.k];
      double pair_i = 0.0, pair_j = 0.0;
      for (std::size_t x = 0; x < xs[c.pos].size(); ++x) {
        const double f = fk[xs[c.pos][x]];
        pair_i = std::max(pair_i, std::min(f, to_i[c.pos][x]));
        pair_j = std::max(pair_j, std::min(f, to_j[c.pos][x]));
      }
      const HostInfo h = host_info(c.k, pool_plus[c.k]);
      const PosInfo& pi = pos_info[c.pos];
      const Bound b = bound(h, pi, pair_at(h, pi.top_i, pi.chain_i, pair_i), pair_at(h, pi.top_j, pi.chain_j, pair_j),
                            pool_at(h, pi));
      c.soft = std::max(c.soft, b.soft);
      c.bound = std::max(c.soft, c.floor);
    };
    const double margin = 1 + 1e-12;
    // Best first by bound, until the bound exceeds the best value found.
    auto run = [&](std::vector<Candidate>& list) {
      std::sort(list.begin(), list.end(), by_bound);
      for (const auto& c : list) {
        if (c.bound > best.tstep * margin) break;
        if (!prunable(c, best)) consider(c.k, c.pos, best);
      }
    };
    // The most promising candidates first: usually one of them wins and nothing else can.
    std::sort_heap(top.begin(), top.end(), by_bound);
    const bool complete = top.size() < kTop;  // then `top` holds every candidate
    const Candidate last = top.back();
    for (auto& c : top) tighten(c);
    run(top);
    if (complete || last.bound > best.tstep * margin) return best;
    // Pass 2: the other candidates of the hosts whose smallest bound does not rule them out.
    std::vector<Candidate> open;
    auto bound_again = [&](const HostInfo& h, const PosInfo& pi, std::size_t pos) {  // entries evaluated in `top` are struck off
      if (kmin[h.k] > best.tstep * margin) return;
      Candidate c = l1(h, pi, pos);
      if (!std::isfinite(c.soft) || !by_bound(last, c) || prunable(c, best)) return;  // in `top`, or out
      tighten(c);
      if (!prunable(c, best)) open.push_back(c);
    };
    if (by_host) {
      for (const auto& [floor, k] : host_order) {
        if (floor > best.tstep * margin) break;  // and every host after it
        scan(host_info(k, pool_of(k)), [&] { return best.tstep * margin; }, bound_again);
      }
    } else {
      for_each_open([&](const HostInfo& h, std::size_t pos) { bound_again(h, pos_info[pos], pos); });
    }
    run(open);
    return best;
  }

  void consider(std::size_t k, std::size_t pos, Insertion& best) {
    Insertion ins = evaluate(k, pos);
    if (std::isfinite(ins.tstep) && better(ins.tstep, k, pos, best)) best = std::move(ins);
  }

  void apply(const Insertion& ins) {
    const std::size_t pos = ins.pos, i = ring_[pos], j = succ_of(pos), k = ins.k;
    give_back(S_[i]);
    give_back(P_[j]);
    std::vector<std::size_t> old_si_links, old_pj_links;
    if (memo_on_) {
      old_si_links = S_[i].links;
      old_pj_links = P_[j].links;
    }
    S_[i] = ins.si;
    P_[j] = ins.pj;
    P_[k] = ins.pk;
    S_[k] = ins.sk;
    if (net_.fixed_routes()) {
      S_[i].links = net_.route(i, k).to_vector();
      P_[j].links = net_.route(j, k).to_vector();
      P_[k].links = net_.route(k, i).to_vector();
      S_[k].links = net_.route(k, j).to_vector();
    }
    take(S_[i]);
    take(P_[j]);
    take(P_[k]);
    take(S_[k]);
    if (memo_on_) {
      changed_.clear();
      for (const auto* links : {&old_si_links, &old_pj_links, &S_[i].links, &P_[j].links, &P_[k].links, &S_[k].links})
        changed_.insert(changed_.end(), links->begin(), links->end());
      last_i_ = i;
      last_j_ = j;
      last_k_ = k;
    }
    ring_.insert(ring_.begin() + static_cast<std::ptrdiff_t>(pos + 1), k);
    count_below(k);
    for (std::size_t m = 0; m < ring_.size(); ++m) pos_of_[ring_[m]] = m;
  }

  // Appends the nodes of a path that starts at host `from`.
  void path_nodes(std::size_t from, const std::vector<std::size_t>& links, std::vector<std::uint32_t>& out) const {
    std::size_t at = net_.host_node(from);
    out.push_back(static_cast<std::uint32_t>(at));
    for (auto l : links) {
      for (const auto* a = net_.arcs_begin(at); a != net_.arcs_end(at); ++a)
        if (a->link == l) {
          at = a->node;
          break;
        }
      out.push_back(static_cast<std::uint32_t>(at));
    }
  }

  // ---- refinements -----------------------------------------------------------------------------
  void refine() {
    if (refinement_ == Refinement::none) return;
    RingPlan plan;
    snapshot(plan);
    if (refinement_ == Refinement::maxmin) {
      allocate_maxmin(net_, plan);
    } else {
      const auto rep = allocate_optimal(net_, load_, plan, opt_.global_gap);
      gap_by_size_.resize(std::max(gap_by_size_.size(), ring_.size()), 0.0);
      gap_by_size_[ring_.size() - 1] = rep.gap;
      solver_trouble_ = solver_trouble_ || rep.solver_trouble;
    }
    for (std::size_t m = 0; m < ring_.size(); ++m) {
      S_[ring_[m]].bw = plan.succ_bw[m];
      P_[ring_[m]].bw = plan.pred_bw[m];
    }
    residual_ = full_;
    for (auto h : ring_) {
      take(S_[h]);
      take(P_[h]);
    }
  }

  double current_tstep() const {
    std::vector<double> compute, comm;
    for (auto h : ring_) {
      compute.push_back(load_.work / speed_[h]);
      comm.push_back(load_.comm * member_c(h));
    }
    return exact_tstep(compute, comm);
  }

  void snapshot(RingPlan& plan) const {
    plan.ring = ring_;
    plan.succ.clear();
    plan.pred.clear();
    plan.succ_bw.clear();
    plan.pred_bw.clear();
    const std::size_t q = ring_.size();
    for (std::size_t m = 0; m < q; ++m) {
      const std::size_t h = ring_[m];
      plan.succ.push_back({h, ring_[(m + 1) % q], S_[h].links});
      plan.pred.push_back({h, ring_[(m + q - 1) % q], P_[h].links});
      plan.succ_bw.push_back(S_[h].bw);
      plan.pred_bw.push_back(P_[h].bw);
    }
  }
};

}  // namespace

RingPlan plan_greedy(const RingNetwork& net, const Workload& load, Refinement refinement, const RingOptions& opt) {
  Greedy g(net, load, refinement, opt);
  RingPlan plan = g.run();
  plan.method = refinement == Refinement::none     ? "greedy"
                : refinement == Refinement::maxmin ? "greedy-maxmin"
                                                   : "greedy-global";
  evaluate_plan(net, load, plan);
  return plan;
}

}  // namespace ringsim::ring
