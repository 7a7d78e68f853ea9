#include "oracles/heterogeneous_oracles.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <unordered_set>
#include <vector>

namespace ringsim::oracles {
namespace {

// 10 bits per processor (40 for n = 4): holdings (5 bits, at most 31 items), then the in-flight
// send (5 bits): 0 = none, otherwise 1 + direction * 15 + (time left - 1), time left in 1..15.
constexpr int kHoldBits = 5, kSendBits = 5, kProcBits = kHoldBits + kSendBits, kMaxCost = 15;

struct Proc {
  int held = 0;
  int dir = -1;   // -1: idle, 0: to P_(i+1), 1: to P_(i-1)
  int left = 0;   // time units until the in-flight item arrives
};

std::uint64_t encode(const std::vector<Proc>& s) {
  std::uint64_t code = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const std::uint64_t send = s[i].dir < 0 ? 0 : static_cast<std::uint64_t>(1 + s[i].dir * kMaxCost + (s[i].left - 1));
    code |= (static_cast<std::uint64_t>(s[i].held) | send << kHoldBits) << (kProcBits * i);
  }
  return code;
}

std::vector<Proc> decode(std::uint64_t code, std::size_t n) {
  std::vector<Proc> s(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t p = code >> (kProcBits * i);
    s[i].held = static_cast<int>(p & ((1u << kHoldBits) - 1));
    const int send = static_cast<int>((p >> kHoldBits) & ((1u << kSendBits) - 1));
    if (send != 0) {
      s[i].dir = (send - 1) / kMaxCost;
      s[i].left = (send - 1) % kMaxCost + 1;
    }
  }
  return s;
}

class Search {
 public:
  explicit Search(const RingInstance& inst) : inst_(inst), n_(inst.size()) {
    for (std::size_t i = 0; i < n_; ++i) {
      cost_[0].push_back(integer_cost(inst.cost_next[i]));
      cost_[1].push_back(inst.bidirectional ? integer_cost(inst.cost_prev[i]) : 0);
    }
  }

  std::optional<long> run(std::size_t max_states) {
    std::vector<Proc> start(n_);
    for (std::size_t i = 0; i < n_; ++i) start[i].held = static_cast<int>(inst_.loads[i]);
    std::unordered_set<std::uint64_t> seen{encode(start)};
    std::vector<std::uint64_t> level{encode(start)}, next_level;
    for (long t = 0; !level.empty(); ++t) {
      next_level.clear();
      for (std::uint64_t code : level) {
        const auto s = decode(code, n_);
        if (is_goal(s)) return t;
        expand(0, s, seen, next_level);
        if (seen.size() > max_states) return std::nullopt;
      }
      level.swap(next_level);
    }
    return std::nullopt;  // unreachable: the targets can always be reached
  }

 private:
  static int integer_cost(double c) {
    const double r = std::round(c);
    if (std::abs(c - r) > 1e-12 || r < 1 || r > kMaxCost)
      throw std::invalid_argument("brute force: costs must be integers in 1..15");
    return static_cast<int>(r);
  }

  std::size_t target_of(std::size_t i, int dir) const { return dir == 0 ? inst_.next(i) : inst_.prev(i); }

  bool is_goal(const std::vector<Proc>& s) const {
    for (std::size_t i = 0; i < n_; ++i)
      if (s[i].dir >= 0 || s[i].held != inst_.targets[i]) return false;
    return true;
  }

  bool receiving(const std::vector<Proc>& s, std::size_t j) const {
    for (std::size_t i = 0; i < n_; ++i)
      if (s[i].dir >= 0 && target_of(i, s[i].dir) == j) return true;
    return false;
  }

  // Chooses, processor by processor, to stay idle or start one item; then lets one unit elapse.
  void expand(std::size_t i, std::vector<Proc> cur,
              std::unordered_set<std::uint64_t>& seen, std::vector<std::uint64_t>& out) const {
    if (i == n_) {
      for (std::size_t p = 0; p < n_; ++p) {
        if (cur[p].dir < 0) continue;
        if (--cur[p].left == 0) {
          ++cur[target_of(p, cur[p].dir)].held;
          cur[p].dir = -1;
        }
      }
      const std::uint64_t code = encode(cur);
      if (seen.insert(code).second) out.push_back(code);
      return;
    }
    expand(i + 1, cur, seen, out);
    if (cur[i].dir >= 0 || cur[i].held == 0) return;
    for (int dir = 0; dir < (inst_.bidirectional ? 2 : 1); ++dir) {
      const std::size_t to = target_of(i, dir);
      if (receiving(cur, to)) continue;
      auto nxt = cur;
      --nxt[i].held;
      nxt[i].dir = dir;
      nxt[i].left = cost_[dir][i];
      expand(i + 1, nxt, seen, out);
    }
  }

  const RingInstance& inst_;
  std::size_t n_;
  std::vector<int> cost_[2];
};

}  // namespace

std::optional<long> brute_force_makespan(const RingInstance& inst, std::size_t max_states) {
  if (inst.size() > 4) throw std::invalid_argument("brute force: at most 4 processors");
  Count total = 0;
  for (Count l : inst.loads) total += l;
  if (total > 31) throw std::invalid_argument("brute force: at most 31 items");
  return Search(inst).run(max_states);
}

}  // namespace ringsim::oracles
