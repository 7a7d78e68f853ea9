// The memo of insertions (fixed routes, pruning, no refinement): the fractions of each class's
// insertion on each ring edge, kept from step to step while they stay valid.
//
// Why it gives the same answer. The fractions of inserting k between i and j are a function of
// the four routes, the residual capacities of their links and the two paths i -> j, j -> i that
// give theirs back (Section 4.2); T_step then follows from them and the ring's sums
// (candidate_tstep, recomputed every time, so bit for bit what an evaluation gives). Without
// refinement an insertion changes the residual of the links of the six paths it removes and adds,
// and nothing else. The class's entry for edge i -> j stays valid while its representative's
// routes to and from i and j cross none of them; a link private to a member changes only when that
// member's paths do (it is then one of the three hosts of the insertion), and a representative's
// private links never change. Twins (same class) have the same fractions: an entry computed for
// one holds for the next (twin_classes.hpp).
//
// Which entries a changed link invalidates is read from an index (index_crossings) rather than
// from the routes of every class and ring member at every step, which is cubic in p over the run.
// The entries invalidated are the same.
#include <algorithm>

#include "planners/ring/greedy.hpp"

namespace ringsim::ring::greedy {

// One entry per host and class (33 bytes): beyond 32M entries (1 GB) the memo is left out.
void Greedy::start_memo() {
  const std::size_t p = net_.host_count(), classes = twins_.count();
  memo_on_ = refinement_ == Refinement::none && classes * p <= (std::size_t{1} << 25);
  if (!memo_on_) return;
  reserve_huge(memo_, classes * p);
  memo_.assign(classes * p, Memo{});
  listed_.assign(classes * p, 0);
  pending_.assign(p, {});
  row_.assign(p, RowSummary{});
  chg_stamp_.assign(net_.link_count(), 0);
  index_crossings();
}

// The entry of class c on the edge that starts at ring member `row` is no longer valid.
void Greedy::drop_entry(std::size_t row, std::size_t c) {
  const std::size_t at = row * twins_.count() + c;
  memo_[at].f[0] = NAN;
  if (!listed_[at]) {
    listed_[at] = 1;
    pending_[row].push_back(static_cast<std::uint32_t>(c));
  }
}

// Every entry of the two edges at ring member m.
void Greedy::drop_edges(std::size_t m) {
  for (std::size_t row : {m, pred_of(pos_of_[m])}) {
    row_[row] = RowSummary{};
    for (std::size_t c = 0; c < twins_.count(); ++c)
      if (class_rep(c) != kNone) drop_entry(row, c);
  }
}

// Drops what the last insertion changed: the edges of its members, and the entries whose routes
// cross a link whose residual changed.
void Greedy::invalidate_memo() {
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
    if (twins_.owner(l) != kNone || chg_stamp_[l] == chg_gen_) continue;
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
// r1 when m is r0: twins' routes differ only by their own private links (twin_classes.hpp), and
// the candidate is r0, or a twin of r0 relative to every host but r0 (and of r1 relative to r0).
// Memory: one 32-bit entry per (class, host, shared link crossed).
void Greedy::index_crossings() {
  const std::size_t p = net_.host_count(), L = net_.link_count();
  std::vector<std::uint32_t> seen(L, 0);
  std::uint32_t gen = 0;
  cross_start_.assign(L + 1, 0);
  // Calls f(l, c p + m) once per shared link l of the routes between class c's candidate and m.
  auto each = [&](auto&& f) {
    for (std::size_t c = 0; c < twins_.count(); ++c) {
      const auto& members = twins_.members(c);
      for (std::size_t m = 0; m < p; ++m) {
        const std::size_t a = m != members[0] ? members[0] : members.size() > 1 ? members[1] : kNone;
        if (a == kNone) continue;
        ++gen;
        for (const RouteView route : {net_.route(a, m), net_.route(m, a)})
          for (auto l : route)
            if (twins_.owner(l) == kNone && seen[l] != gen) {
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

// Keeps an evaluated insertion's fractions under its class and edge, and folds its terms into
// the row's summary (row_summaries.cpp).
void Greedy::remember(std::size_t k, std::size_t i, std::size_t j, const double* f, bool feasible) {
  Memo& memo = memo_[i * twins_.count() + twins_.class_of(k)];
  std::copy(f, f + 4, memo.f);
  if (!feasible) {
    memo.f[0] = 0.0;
    return;
  }
  double a[3];
  entry_terms(memo, i, j, k, a);
  fold(row_[i], a, k);
}

// The links of the six paths an insertion of k between i and j removed and added.
void Greedy::note_changes(const std::vector<std::size_t>& old_si_links, const std::vector<std::size_t>& old_pj_links,
                          std::size_t i, std::size_t j, std::size_t k) {
  changed_.clear();
  const std::vector<std::size_t>* paths[] = {&old_si_links, &old_pj_links, &S_[i].links,
                                              &P_[j].links,   &P_[k].links,   &S_[k].links};
  for (const auto* links : paths)
    changed_.insert(changed_.end(), links->begin(), links->end());
  last_i_ = i;
  last_j_ = j;
  last_k_ = k;
}

}  // namespace ringsim::ring::greedy
