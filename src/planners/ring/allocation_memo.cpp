#include "planners/ring/allocation_memo.hpp"

#include <algorithm>
#include <cstdint>

#include "planners/ring/bandwidth_allocation.hpp"
#include "planners/ring/bit_hash.hpp"

namespace ringsim::ring {

std::size_t AllocationMemo::Hash::operator()(const Key& k) const {
  std::uint64_t h = 1469598103934665603ull;
  for (double x : k.v) h = (h ^ bits(x)) * 1099511628211ull;
  return static_cast<std::size_t>(mix(h));
}

void AllocationMemo::allocate4(const double* w, const double* root, const double* cap, const double* set_cap,
                               double* f) {
  if (laminar_allocation_small(4, w, cap, set_cap, f, root)) return;  // closed form: cheaper than a look-up
  Key key;
  std::copy(w, w + 4, key.v);
  std::copy(cap, cap + 4, key.v + 4);
  std::copy(set_cap, set_cap + 16, key.v + 8);
  const auto it = kept_.find(key);
  if (it != kept_.end()) {
    std::copy(it->second.begin(), it->second.end(), f);
    return;
  }
  min_weighted_cost_allocation_small(4, w, cap, set_cap, f);
  if (kept_.size() >= (std::size_t{1} << 16)) kept_.clear();  // bounded memory
  kept_.emplace(key, std::array<double, 4>{f[0], f[1], f[2], f[3]});
}

}  // namespace ringsim::ring
