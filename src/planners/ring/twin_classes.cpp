#include "planners/ring/twin_classes.hpp"

#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "planners/ring/bit_hash.hpp"

namespace ringsim::ring {

void TwinClasses::build(const RingNetwork& net, const std::vector<double>& speed, const std::vector<double>& full) {
  net_ = &net;
  speed_ = &speed;
  full_ = &full;
  find_private_links();
  find_classes();
  net_ = nullptr;
  speed_ = full_ = nullptr;
}

void TwinClasses::find_private_links() {
  const RingNetwork& net = *net_;
  const std::size_t p = net.host_count();
  // Per link, the hosts that are an endpoint of every route crossing it so far (at most two),
  // for each whether it was the source (bit 0) or the destination (bit 1) of those routes, and
  // the link's smallest distance from that host along them.
  const std::size_t L = net.link_count();
  std::vector<std::size_t> x(L, kNone), y(L, kNone);
  std::vector<unsigned char> xr(L, 0), yr(L, 0);
  std::vector<std::uint32_t> xd(L, 0), yd(L, 0);
  std::vector<char> seen(L, 0);
  for (std::size_t a = 0; a < p; ++a)
    for (std::size_t b = 0; b < p; ++b) {
      if (a == b) continue;
      const RouteView route = net.route(a, b);
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
      key_[l] = mix(mix(mix(bits((*full_)[l]) ^ (net.fatpipe(l) ? 0x9e3779b97f4a7c15ull : 0)) ^ role) ^ dist);
    }
}

// Whether two private links correspond by key (the key hashes capacity, FATPIPE and role: the
// three are compared themselves, the hash only sorts).
bool TwinClasses::same_key(std::size_t a, std::size_t b) const {
  return key_[a] == key_[b] && (*full_)[a] == (*full_)[b] && net_->fatpipe(a) == net_->fatpipe(b);
}

// route(k, m) against route(t, m) (or route(m, k) against route(m, t)), as the twin relation
// compares them.
bool TwinClasses::same_shape(RouteView a, std::size_t k, RouteView b, std::size_t t) const {
  if (a.size() != b.size()) return false;
  for (std::size_t n = 0; n < a.size(); ++n) {
    const std::size_t la = a.begin()[n], lb = b.begin()[n];
    const bool pa = owner_[la] == k, pb = owner_[lb] == t;
    if (pa != pb || (pa ? !same_key(la, lb) : la != lb)) return false;
  }
  return true;
}

// Twins relative to every host but k and t.
bool TwinClasses::twins(std::size_t k, std::size_t t) const {
  const RingNetwork& net = *net_;
  if ((*speed_)[k] != (*speed_)[t]) return false;
  for (std::size_t m = 0; m < net.host_count(); ++m) {
    if (m == k || m == t) continue;
    if (!same_shape(net.route(k, m), k, net.route(t, m), t) || !same_shape(net.route(m, k), k, net.route(m, t), t))
      return false;
  }
  return true;
}

// Hosts are bucketed by a hash that twins share when the routes between them are alike (each
// route hashed with both ends' private links by key, summed over the other hosts); the classes
// are then checked exactly, with at most a few tries per host.
void TwinClasses::find_classes() {
  const RingNetwork& net = *net_;
  const std::size_t p = net.host_count();
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
      for (auto l : net.route(a, b)) h = (h ^ token(l)) * 1099511628211ull;
      sig[a] += mix(h);
      sig[b] += mix(h ^ 0x5851f42d4c957f2dull);
    }
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> buckets;  // hash -> class ids
  class_of_.assign(p, kNone);
  classes_.clear();
  constexpr int kTries = 4;
  for (std::size_t k = 0; k < p; ++k) {
    if (unique_keys[k]) {
      auto& ids = buckets[mix(sig[k] ^ bits((*speed_)[k]))];
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

}  // namespace ringsim::ring
