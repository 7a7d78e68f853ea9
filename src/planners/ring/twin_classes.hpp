// Classes of twins: hosts interchangeable for the greedy's criterion on fixed routes, so that
// each step evaluates one host per class (a pruning: without it every host is evaluated).
//
// Why it gives the same answer. A link is private to host h when every route crossing it starts
// or ends at h (a cluster node's own link): no ring path uses it while h is out of the ring, so
// its residual is its capacity. Its key is (capacity, FATPIPE, whether routes from h cross it,
// whether routes to h do, its smallest distance from h along them); a host whose private links
// have distinct keys names each by its key, so the private links of two such hosts correspond one
// to one by key. Two hosts k and t with the same speed are twins relative to a set M of hosts
// when, for every m in M, route(k, m) and route(t, m) (and route(m, k), route(m, t)) list the
// same links position by position, except that where one crosses a link private to k the other
// crosses the link private to t of the same key. Then inserting k or t between members i and j
// (both in M) gives the same four routes up to that renaming: the same links shared by the same
// paths (Section 4.2's allocation sees the same shared sets, capacities and residuals), the same
// fractions, the same T_step, bit for bit. Ties go to the lower host id, so only the lowest of a
// class out of the ring needs evaluating.
//
// The classes are fixed once (O(p^2) route reads), not per step: k joins the class of r0 (its
// lowest member) when k and r0 are twins relative to every other host, and, unless k is the
// second member r1, k and r1 are too. Any two members c, d not yet in the ring are then twins
// relative to every ring member m: through r0 when m is not r0, through r1 when m = r0 (c and d
// are then above r1 or one of them is r1). Renamings compose because they go by key. The members
// enter the ring lowest first (only the lowest one out of the ring is ever a candidate).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "planners/ring/ring_network.hpp"

namespace ringsim::ring {

class TwinClasses {
 public:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  // Finds the private links and the classes of the hosts of `net` (speeds and full capacities
  // as the greedy reads them).
  void build(const RingNetwork& net, const std::vector<double>& speed, const std::vector<double>& full);

  std::size_t count() const { return classes_.size(); }
  const std::vector<std::size_t>& members(std::size_t c) const { return classes_[c]; }
  std::size_t class_of(std::size_t k) const { return class_of_[k]; }
  // The host a link is private to (kNone: shared by routes of several hosts).
  std::size_t owner(std::size_t l) const { return owner_[l]; }

  // The class's candidate: its lowest member out of the ring (pos_of[h] == kNone), or kNone.
  std::size_t representative(std::size_t c, const std::vector<std::size_t>& pos_of) {
    auto& next = class_next_[c];
    const auto& members = classes_[c];
    while (next < members.size() && pos_of[members[next]] != kNone) ++next;
    return next < members.size() ? members[next] : kNone;
  }
  bool is_representative(std::size_t k, const std::vector<std::size_t>& pos_of) {
    return representative(class_of_[k], pos_of) == k;
  }

 private:
  void find_private_links();
  void find_classes();
  bool same_key(std::size_t a, std::size_t b) const;
  bool same_shape(RouteView a, std::size_t k, RouteView b, std::size_t t) const;
  bool twins(std::size_t k, std::size_t t) const;

  const RingNetwork* net_ = nullptr;  // what build() read, while it runs
  const std::vector<double>* speed_ = nullptr;
  const std::vector<double>* full_ = nullptr;
  std::vector<std::size_t> owner_;  // per link: the host it is private to (kNone: shared)
  std::vector<std::uint64_t> key_;  // per private link: its key
  std::vector<std::size_t> class_of_, class_next_;
  std::vector<std::vector<std::size_t>> classes_;  // members by increasing host id
};

}  // namespace ringsim::ring
