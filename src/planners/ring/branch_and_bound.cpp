// The greedy's insertion step (Section 4.1: the cheapest insertion of a host k between ring
// neighbours i -> j) by branch and bound, choosing what evaluating all (p - r) r candidates
// chooses.
//
// Every candidate gets a lower bound of its criterion (insertion_bounds.cpp). Hosts are bounded
// in the order of a floor valid at all their positions, positions in increasing base, each scan
// stopping once a floor exceeds what a candidate must beat. The candidates of smallest bound
// (RingOptions::first_candidates; 256 on Full zones, 1024 on graph zones, where an evaluation is
// a search) are evaluated first, in bound order, usually settling the step; otherwise the others
// follow, by bound, until the bound exceeds the best value found.
//
// Why it gives the same answer. A candidate is pruned only when its bound is above the best
// value by a relative 1e-12 (the soft bounds are bounds up to rounding), or, exact criterion,
// when an unchanged member's communication time -- computed bit for bit as the evaluation
// computes it -- exceeds the best value, or reaches it and the tie would go to the best. The tie
// rule (lowest value, then lowest host id k, then ring position) does not depend on the order of
// evaluation, so the choice is the one a full evaluation makes; RingOptions::prune = false
// evaluates every candidate (the tests check that both agree).
#include <algorithm>
#include <cmath>
#include <utility>

#include "planners/ring/greedy.hpp"
#include "planners/ring/residual_bound.hpp"

namespace ringsim::ring::greedy {
namespace {

constexpr double kMargin = 1 + 1e-12;

// Candidates in (bound, k, pos) order: a strict total order.
bool by_bound(const Candidate& x, const Candidate& y) {
  return x.bound < y.bound || (x.bound == y.bound && (x.k < y.k || (x.k == y.k && x.pos < y.pos)));
}

// Whether candidate c can be skipped given the best insertion found so far (see Candidate).
bool prunable(const Candidate& c, const Insertion& best) {
  if (c.soft > best.tstep * kMargin || c.floor > best.tstep) return true;
  // T_step(c) >= floor == best: at best a tie, which the lower (k, pos) wins.
  return c.floor == best.tstep && (c.k > best.k || (c.k == best.k && c.pos > best.pos));
}

}  // namespace

// Calls f(h, pos) for every candidate (host k = h.k, position pos) whose value is not known:
// without the memo every pair (only each class's candidate with pruning on fixed routes); with
// it, the entries listed as not valid (those that became valid are struck off the lists), and
// when they are all to be evaluated (`evaluating`), the routes of those a few places on are
// asked into the cache first.
template <class F>
void Greedy::for_each_open(F&& f, bool evaluating) {
  const std::size_t r = ring_.size();
  if (!memo_on_) {
    for (std::size_t k = 0; k < net_.host_count(); ++k) {
      if (!open_host(k)) continue;
      const HostInfo h = host_info(k, pool_of(k));
      for (std::size_t pos = 0; pos < r; ++pos) f(h, pos);
    }
    return;
  }
  const std::size_t C = twins_.count();
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

// One step's search over the candidates whose value the memo does not hold.
class StepSearch {
 public:
  StepSearch(Greedy& g, std::vector<PosInfo> pos_info)
      : g_(g), pos_info_(std::move(pos_info)), residual_(g) {
    kmin_.assign(g.net_.host_count(), kInfinity);
    k_top_ = g.opt_.first_candidates > 0 ? g.opt_.first_candidates : g.net_.fixed_routes() ? 256 : 1024;
    by_host_ = g.opt_.prune && !g.memo_on_;
  }

  Insertion run(Insertion best) {
    best_ = std::move(best);
    if (by_host_)
      bound_hosts_by_floor();
    else
      g_.for_each_open([&](const HostInfo& h, std::size_t pos) { bound_first(h, pos_info_[pos], pos); });
    if (!g_.opt_.prune) {
      for (const auto& c : all_) g_.consider(c.k, c.pos, best_);
      return best_;
    }
    if (top_.empty()) return best_;
    // The most promising candidates first: usually one of them wins and nothing else can.
    std::sort_heap(top_.begin(), top_.end(), by_bound);
    const bool complete = top_.size() < k_top_;  // then `top_` holds every candidate
    const Candidate last = top_.back();
    for (auto& c : top_) residual_.tighten(c, pos_info_);
    evaluate_best_first(top_);
    if (complete || last.bound > best_.tstep * kMargin) return best_;
    bound_the_rest(last);
    evaluate_best_first(open_);
    return best_;
  }

 private:
  // Pass 1: every candidate's first bound; the smallest per host k, and the k_top_ smallest
  // overall (a max-heap in by_bound order); without pruning, every candidate.
  void bound_first(const HostInfo& h, const PosInfo& pi, std::size_t pos) {
    ++g_.open_count_;
    const Candidate c = g_.first_bound(h, pi, pos);
    if (!std::isfinite(c.soft)) return;
    ++g_.candidates_;
    kmin_[h.k] = std::min(kmin_[h.k], c.bound);
    if (!g_.opt_.prune) {
      all_.push_back(c);
    } else if (top_.size() < k_top_) {
      top_.push_back(c);
      std::push_heap(top_.begin(), top_.end(), by_bound);
    } else if (by_bound(c, top_.front())) {
      std::pop_heap(top_.begin(), top_.end(), by_bound);
      top_.back() = c;
      std::push_heap(top_.begin(), top_.end(), by_bound);
    }
  }

  // A host's positions go by increasing base in two groups: on graph zones those whose i and j
  // lie below other children of the root than the host's (pool_at takes its whole chain there,
  // h.chain), then those touching its own (h.pool; every position on Full zones). Each group
  // stops once its floor (host_floor with that pool, the position's base and the smallest member
  // root) is above `limit`: bases only grow after it, so no later candidate of the group could
  // enter `top_` (pass 1) or beat the best (pass 2). Returns the smaller stopping floor.
  template <class Limit, class Visit>
  double scan(const HostInfo& h, Limit&& limit, Visit&& visit) {
    const bool own = h.top != BridgeTree::kNone && !touching_.empty();
    double stop = kInfinity;
    for (std::size_t q = 0; q < based_.size(); ++q) {
      const PosInfo& pi = based_[q];
      if (own && touches(h, pi)) continue;
      const double f = g_.host_floor(h, h.chain, pi.base, least_root_);
      if (f > limit()) {
        stop = f;
        break;
      }
      visit(h, pi, by_base_[q]);
    }
    if (own)
      for (const std::uint32_t q : touching_[h.top]) {
        const double f = g_.host_floor(h, h.pool, based_[q].base, least_root_);
        if (f > limit()) {
          stop = std::min(stop, f);
          break;
        }
        visit(h, based_[q], by_base_[q]);
      }
    return stop;
  }

  // The positions by increasing base (and, on graph zones, grouped by the children of the root
  // their members lie below), the order scan() reads them in.
  void order_positions_by_base() {
    const std::size_t r = pos_info_.size();
    by_base_.resize(r);
    for (std::size_t pos = 0; pos < r; ++pos) {
      by_base_[pos] = pos;
      least_root_ = std::min({least_root_, pos_info_[pos].r_i, pos_info_[pos].r_j});
    }
    std::sort(by_base_.begin(), by_base_.end(), [&](std::size_t x, std::size_t y) {
      return pos_info_[x].base < pos_info_[y].base || (pos_info_[x].base == pos_info_[y].base && x < y);
    });
    based_.reserve(r);
    for (const std::size_t pos : by_base_) based_.push_back(pos_info_[pos]);
    if (!g_.net_.fixed_routes()) {
      touching_.resize(g_.bt().size());
      for (std::size_t q = 0; q < r; ++q) {
        const auto ti = based_[q].top_i, tj = based_[q].top_j;
        if (ti != BridgeTree::kNone) touching_[ti].push_back(static_cast<std::uint32_t>(q));
        if (tj != BridgeTree::kNone && tj != ti) touching_[tj].push_back(static_cast<std::uint32_t>(q));
      }
    }
  }

  // Pass 1 without the memo: hosts by a bound of all their positions (host_floor), until that
  // bound is above the k_top_-th smallest candidate bound: no candidate of the hosts left could
  // enter `top_` (bound >= floor, by_bound is a strict order), so `top_` is the one of a full
  // scan, and their floors stand for their smallest bounds in pass 2 (a shortcut there only: each
  // candidate is still checked by its own bound).
  void bound_hosts_by_floor() {
    host_order_ = g_.hosts_by_floor(pos_info_);
    order_positions_by_base();
    auto limit = [&] { return top_.size() == k_top_ ? top_.front().bound : kInfinity; };
    auto visit = [&](const HostInfo& h, const PosInfo& pi, std::size_t pos) { bound_first(h, pi, pos); };
    std::size_t n = 0;
    for (; n < host_order_.size(); ++n) {
      const auto [floor, k] = host_order_[n];
      if (top_.size() == k_top_ && floor > top_.front().bound) break;
      const double stop = scan(g_.host_info(k, g_.pool_of(k)), limit, visit);
      kmin_[k] = std::min(kmin_[k], stop);
    }
    for (; n < host_order_.size(); ++n) kmin_[host_order_[n].second] = host_order_[n].first;
    if (g_.opt_.audit_floors) g_.audit_floors(host_order_, based_, least_root_);
  }

  // Best first by bound, until the bound exceeds the best value found.
  void evaluate_best_first(std::vector<Candidate>& list) {
    std::sort(list.begin(), list.end(), by_bound);
    for (const auto& c : list) {
      if (c.bound > best_.tstep * kMargin) break;
      if (!prunable(c, best_)) g_.consider(c.k, c.pos, best_);
    }
  }

  // Pass 2: the other candidates of the hosts whose smallest bound does not rule them out (those
  // not after `last` in by_bound order were in `top_`).
  void bound_the_rest(const Candidate& last) {
    auto bound_again = [&](const HostInfo& h, const PosInfo& pi, std::size_t pos) {
      if (kmin_[h.k] > best_.tstep * kMargin) return;
      Candidate c = g_.first_bound(h, pi, pos);
      if (!std::isfinite(c.soft) || !by_bound(last, c) || prunable(c, best_)) return;  // in `top_`, or out
      residual_.tighten(c, pos_info_);
      if (!prunable(c, best_)) open_.push_back(c);
    };
    if (by_host_) {
      for (const auto& [floor, k] : host_order_) {
        if (floor > best_.tstep * kMargin) break;  // and every host after it
        scan(g_.host_info(k, g_.pool_of(k)), [&] { return best_.tstep * kMargin; }, bound_again);
      }
    } else {
      g_.for_each_open([&](const HostInfo& h, std::size_t pos) { bound_again(h, pos_info_[pos], pos); });
    }
  }

  Greedy& g_;
  const std::vector<PosInfo> pos_info_;
  ResidualBound residual_;
  std::size_t k_top_ = 0;
  bool by_host_ = false;
  std::vector<double> kmin_;  // per host: a lower bound of its candidates' bounds
  std::vector<Candidate> top_, all_, open_;
  std::vector<std::pair<double, std::size_t>> host_order_;
  std::vector<std::size_t> by_base_;
  std::vector<PosInfo> based_;  // pos_info_ in by_base_ order: read in turn for every host
  std::vector<std::vector<std::uint32_t>> touching_;  // per child of a root: its positions in based_
  double least_root_ = kInfinity;
  Insertion best_;
};

Insertion Greedy::choose_insertion() {
  const std::size_t evaluated_before = evaluations_;
  const bool bounded = unbounded_steps_ == 0;
  open_count_ = 0;
  Insertion best = choose_best();
  // Whether the bounds spared at least a tenth of the open entries (see choose_best).
  if (memo_on_ && bounded && open_count_ > 0)
    unbounded_steps_ = (evaluations_ - evaluated_before) * 10 >= open_count_ * 9 ? kBoundCheck : 0;
  return finish(std::move(best));
}

Insertion Greedy::choose_best() {
  prepare_step();
  invalidate_memo();
  if (!net_.fixed_routes()) prepare_host_capacities();
  const std::vector<PosInfo> pos_info = position_info();
  Insertion best;
  // With the memo: first the best of the insertions whose value is kept, exactly.
  if (memo_on_) best_from_rows(pos_info, best);
  // With the memo, when the bounds have been ruling out almost nothing (every insertion of a step
  // tied, as on SimGrid's fat trees), the open entries are evaluated in row order without
  // bounding and sorting them first: the same minimum (ties by value, host, position whatever the
  // order), the same evaluations, and the routes read row by row. The bounds are tried again
  // every kBoundCheck steps.
  if (memo_on_ && unbounded_steps_ > 0) {
    --unbounded_steps_;
    for_each_open([&](const HostInfo& h, std::size_t pos) {
      ++candidates_;
      consider(h.k, pos, best);
    }, true);
    return best;
  }
  return StepSearch(*this, pos_info).run(std::move(best));
}

}  // namespace ringsim::ring::greedy
