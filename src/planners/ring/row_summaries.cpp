// Row summaries of the memo of insertions: per ring edge (a row of the memo), bounds over every
// valid entry it held since it was last emptied or read, so that a row that cannot beat the best
// insertion found is passed over without reading its entries (on a SimGrid fat tree, where no two
// hosts are twins and every insertion of a step ties bit for bit, a step then reads a few rows
// instead of all (p - r) r entries).
//
// Why it gives the same answer. A summary holds the smallest of each of Equation 4's three new
// terms (s_i c_i, s_j c_j, s_k c_k, as candidate_tstep sums them), the largest speed s_k and the
// lowest host k of the entries folded in. Equation 4's sum only grows with each term and its
// quotient only shrinks with s_k, operation by operation in floating point (rounding to nearest
// is monotone), so Equation 4 computed from these is at most every entry's value bit for bit: no
// rounding margin is needed. A row whose bound is above the best is passed over; at equality only
// a lower host could win the tie, and no entry of the row has a host below the summary's lowest
// or below the lowest candidate host.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "planners/ring/greedy.hpp"

namespace ringsim::ring::greedy {

// Equation 4's three new terms (s_i c_i, s_j c_j, s_k c_k) of a feasible entry of the edge
// i -> j for host k, as candidate_tstep computes them.
void Greedy::entry_terms(const Memo& m, std::size_t i, std::size_t j, std::size_t k, double* a) const {
  const double ci = cost(P_[i]) + 1 / m.f[1], cj = cost(S_[j]) + 1 / m.f[3], ck = 1 / m.f[0] + 1 / m.f[2];
  a[0] = speed_[i] * ci;
  a[1] = speed_[j] * cj;
  a[2] = speed_[k] * ck;
}

void Greedy::fold(RowSummary& row, const double* a, std::size_t k) const {
  for (int n = 0; n < 3; ++n) row.a[n] = std::min(row.a[n], a[n]);
  row.speed = std::max(row.speed, speed_[k]);
  row.k = std::min(row.k, k);
  row.any = true;
}

// At most the criterion's value of every valid entry of the row at pi, bit for bit:
// candidate_tstep's operations in its order on the row's smallest terms and largest speed (the
// exact criterion is also at least the largest communication time of the other members). -inf
// when no bound holds (a numerator that is not positive).
double Greedy::row_bound(const RowSummary& row, const PosInfo& pi) const {
  const double sum = csum_ - weight_[pi.i] - weight_[pi.j] + row.a[0] + row.a[1] + row.a[2];
  const double numerator = load_.work + load_.comm * sum;
  if (!(numerator > 0)) return -kInfinity;
  const double t4 = numerator / (speed_sum_ + row.speed);
  return opt_.criterion == GreedyCriterion::eq4 ? t4 : std::max(t4, pi.rest_comm);
}

// The entry of class c at pos, if valid and feasible, against the best: its value is
// candidate_tstep's on the kept fractions, what evaluate(k, pos) returns. Folds it into `row`.
void Greedy::consider_entry(std::size_t pos, std::size_t c, std::size_t k, RowSummary& row, Insertion& best) {
  const std::size_t i = ring_[pos], j = succ_of(pos);
  const Memo& m = memo_[i * twins_.count() + c];
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
void Greedy::best_from_rows(const std::vector<PosInfo>& pos_info, Insertion& best) {
  std::size_t lowest = kNone;
  for (std::size_t c = 0; c < twins_.count(); ++c) lowest = std::min(lowest, class_rep(c));
  for (std::size_t pos = 0; pos < ring_.size(); ++pos) {
    RowSummary& row = row_[ring_[pos]];
    if (!row.any) continue;
    const double bound = row_bound(row, pos_info[pos]);
    if (bound > best.tstep) continue;
    // Every entry's value >= the best's: at most a tie, which only a lower host would win (the
    // rows are read in position order: the best is at a lower position).
    if (bound == best.tstep && std::max(row.k, lowest) >= best.k) continue;
    RowSummary fresh;
    for (std::size_t c = 0; c < twins_.count(); ++c) {
      const std::size_t k = class_rep(c);
      if (k != kNone) consider_entry(pos, c, k, fresh, best);
    }
    row = fresh;
  }
}

// A best taken from the memo gets its paths (evaluate gives the same value, bit for bit).
Insertion Greedy::finish(Insertion best) {
  if (!best.cached) return best;
  const double t = best.tstep;
  best = evaluate(best.k, best.pos);
  if (best.tstep != t) throw std::logic_error("ring greedy: a kept insertion's value differs from its evaluation");
  return best;
}

}  // namespace ringsim::ring::greedy
