// Section 4.2's four-path allocation, with its iterative answers kept by their exact inputs.
//
// Why it gives the same answer: the allocation (bandwidth_allocation.hpp) is a pure function of
// the four weights, caps and shared-set capacities. When the sets are laminar it has a closed
// form, cheaper than a look-up, computed every time. Otherwise it runs an iterative solver that
// costs far more than an insertion's other work, and the same inputs recur (a class of hosts
// inserted between members of one cluster: the same routes up to renaming, the same
// capacities). Its answers are kept under the inputs' bits (compared bit for bit, not by ==), so
// a repeated input gets exactly the answer the solver gives it. The table is emptied when full:
// memory stays bounded and an emptied entry is only recomputed, to the same value.
#pragma once

#include <array>
#include <cstddef>
#include <cstring>
#include <unordered_map>

namespace ringsim::ring {

class AllocationMemo {
 public:
  // Writes the four fractions f for weights w (root: their square roots), caps `cap` and the 16
  // entries of `set_cap` (min_weighted_cost_allocation_small's arguments).
  void allocate4(const double* w, const double* root, const double* cap, const double* set_cap, double* f);

 private:
  struct Key {
    double v[24];
    bool operator==(const Key& o) const { return std::memcmp(v, o.v, sizeof v) == 0; }
  };
  struct Hash {
    std::size_t operator()(const Key& k) const;
  };
  std::unordered_map<Key, std::array<double, 4>, Hash> kept_;
};

}  // namespace ringsim::ring
