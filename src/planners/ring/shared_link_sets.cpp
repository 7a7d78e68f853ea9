#include "planners/ring/shared_link_sets.hpp"

#include <algorithm>

namespace ringsim::ring {

void FixedRouteSets::build(const RingNetwork& net, const std::vector<double>& full,
                           const std::vector<double>& residual, const RouteView* const* lists,
                           const PathState& old_si, const PathState& old_pj, double* cap, double* set_cap) {
  if (mark_stamp_.size() != full.size()) {
    mark_stamp_.assign(full.size(), 0);
    mark_.assign(full.size(), 0);
    old_stamp_.assign(full.size(), 0);
    old_mark_.assign(full.size(), 0);
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
      if (net.fatpipe(l)) {
        cap[p] = std::min(cap[p], full[l]);
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
    set_cap[mark_[l]] = std::min(set_cap[mark_[l]], std::min(full[l], residual[l] + x));
  }
}

}  // namespace ringsim::ring
