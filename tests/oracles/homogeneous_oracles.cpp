#include "oracles/homogeneous_oracles.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <unordered_set>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>

namespace ringsim::oracles {
namespace {

std::size_t next_of(std::size_t i, std::size_t n) { return i + 1 == n ? 0 : i + 1; }
std::size_t prev_of(std::size_t i, std::size_t n) { return i == 0 ? n - 1 : i - 1; }

// 6 bits per processor: at most 63 items in total, n <= 10.
constexpr int kBits = 6;

std::uint64_t encode(const std::vector<int>& held) {
  std::uint64_t code = 0;
  for (std::size_t i = 0; i < held.size(); ++i) code |= static_cast<std::uint64_t>(held[i]) << (kBits * i);
  return code;
}

std::vector<int> decode_held(std::uint64_t code, std::size_t n) {
  std::vector<int> held(n);
  for (std::size_t i = 0; i < n; ++i) held[i] = static_cast<int>((code >> (kBits * i)) & ((1u << kBits) - 1));
  return held;
}

// Every successor of `held` in one step: each processor holding an item sends it to P_(i+1), to
// P_(i-1), or not at all, and no processor receives twice.
void successors(const std::vector<int>& held, std::size_t i, std::vector<int>& after, std::vector<int>& received,
                std::vector<std::uint64_t>& out) {
  const std::size_t n = held.size();
  if (i == n) {
    out.push_back(encode(after));
    return;
  }
  successors(held, i + 1, after, received, out);
  if (held[i] < 1) return;
  for (std::size_t to : {next_of(i, n), prev_of(i, n)}) {
    if (received[to] != 0) continue;
    received[to] = 1;
    --after[i];
    ++after[to];
    successors(held, i + 1, after, received, out);
    received[to] = 0;
    ++after[i];
    --after[to];
    if (n == 2) break;  // both neighbours are the same processor
  }
}

using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
using Graph = boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS, boost::no_property,
    boost::property<boost::edge_capacity_t, long,
                    boost::property<boost::edge_residual_capacity_t, long,
                                    boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>;
using Edge = Traits::edge_descriptor;

Edge add_arc(Graph& g, std::size_t u, std::size_t v, long cap) {
  const Edge e = boost::add_edge(u, v, g).first;
  const Edge r = boost::add_edge(v, u, g).first;
  boost::put(boost::edge_capacity, g, e, cap);
  boost::put(boost::edge_capacity, g, r, 0);
  boost::put(boost::edge_reverse, g, e, r);
  boost::put(boost::edge_reverse, g, r, e);
  return e;
}

struct SendArc {
  Edge edge;
  std::size_t from;
  long step;  // 1-based
  Direction dir;
};

}  // namespace

std::optional<long> homogeneous_brute_force_steps(const RingInstance& inst, long max_steps, std::size_t max_states) {
  const std::size_t n = inst.size();
  const Count total = std::accumulate(inst.loads.begin(), inst.loads.end(), Count{0});
  if (n > 10 || total >= (1 << kBits)) throw std::invalid_argument("brute force: ring too large");
  std::vector<int> loads(inst.loads.begin(), inst.loads.end()), targets(inst.targets.begin(), inst.targets.end());
  const std::uint64_t goal = encode(targets);
  std::unordered_set<std::uint64_t> seen{encode(loads)};
  std::vector<std::uint64_t> frontier{encode(loads)};
  for (long steps = 0; steps <= max_steps; ++steps) {
    if (std::find(frontier.begin(), frontier.end(), goal) != frontier.end()) return steps;
    std::vector<std::uint64_t> next_frontier, out;
    for (std::uint64_t code : frontier) {
      const std::vector<int> held = decode_held(code, n);
      std::vector<int> after = held, received(n, 0);
      out.clear();
      successors(held, 0, after, received, out);
      for (std::uint64_t s : out)
        if (seen.insert(s).second) next_frontier.push_back(s);
      if (seen.size() > max_states) return std::nullopt;
    }
    if (next_frontier.empty()) return std::nullopt;
    frontier = std::move(next_frontier);
  }
  return std::nullopt;
}

bool time_expanded_feasible(const RingInstance& inst, long steps, RedistributionPlan* schedule) {
  const std::size_t n = inst.size();
  const auto T = static_cast<std::size_t>(steps);
  const long total = static_cast<long>(std::accumulate(inst.loads.begin(), inst.loads.end(), Count{0}));
  // Vertices: source, sink, holdings H(i,t) for t = 0..T, then send S(i,t) and receive R(i,t) for
  // t = 1..T.
  const std::size_t source = 0, sink = 1, h0 = 2, s0 = h0 + (T + 1) * n, r0 = s0 + T * n;
  auto H = [&](std::size_t i, std::size_t t) { return h0 + t * n + i; };
  auto S = [&](std::size_t i, std::size_t t) { return s0 + (t - 1) * n + i; };
  auto R = [&](std::size_t i, std::size_t t) { return r0 + (t - 1) * n + i; };
  Graph g(r0 + T * n);
  std::vector<SendArc> sends;
  for (std::size_t i = 0; i < n; ++i) {
    add_arc(g, source, H(i, 0), static_cast<long>(inst.loads[i]));
    add_arc(g, H(i, T), sink, static_cast<long>(inst.targets[i]));
  }
  for (std::size_t t = 1; t <= T; ++t) {
    for (std::size_t i = 0; i < n; ++i) {
      add_arc(g, H(i, t - 1), H(i, t), total);  // holdover
      add_arc(g, H(i, t - 1), S(i, t), 1);      // sends at most one item per step
      add_arc(g, R(i, t), H(i, t), 1);          // receives at most one item per step
      sends.push_back({add_arc(g, S(i, t), R(next_of(i, n), t), 1), i, static_cast<long>(t), Direction::next});
      sends.push_back({add_arc(g, S(i, t), R(prev_of(i, n), t), 1), i, static_cast<long>(t), Direction::prev});
    }
  }
  const long flow = boost::push_relabel_max_flow(g, source, sink);
  if (flow != total) return false;
  if (schedule == nullptr) return true;

  const double c = inst.cost_next.front();
  RedistributionPlan plan;
  plan.planner = "time-expanded max flow";
  plan.send_next.assign(n, 0);
  plan.send_prev.assign(n, 0);
  // sent[dir][i][t]: P_i sends in direction dir during step t.
  std::vector<std::vector<std::vector<char>>> sent(2, std::vector<std::vector<char>>(n, std::vector<char>(T + 2, 0)));
  for (const SendArc& a : sends) {
    const long used = boost::get(boost::edge_capacity, g, a.edge) - boost::get(boost::edge_residual_capacity, g, a.edge);
    if (used > 0) sent[a.dir == Direction::next ? 0 : 1][a.from][static_cast<std::size_t>(a.step)] = 1;
  }
  for (std::size_t d = 0; d < 2; ++d) {
    const Direction dir = d == 0 ? Direction::next : Direction::prev;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t t = 1; t <= T;) {
        if (!sent[d][i][t]) { ++t; continue; }
        std::size_t e = t;
        while (e <= T && sent[d][i][e]) ++e;
        const auto items = static_cast<Count>(e - t);
        plan.transfers.push_back({i, d == 0 ? next_of(i, n) : prev_of(i, n), dir, items,
                                  static_cast<double>(t - 1) * c, static_cast<double>(e - 1) * c});
        (d == 0 ? plan.send_next : plan.send_prev)[i] += items;
        plan.time = std::max(plan.time, static_cast<double>(e - 1) * c);
        t = e;
      }
    }
  }
  *schedule = std::move(plan);
  return true;
}

std::optional<TimeExpandedOptimum> time_expanded_optimum(const RingInstance& inst, long max_steps) {
  for (long steps = 0; steps <= max_steps; ++steps) {
    TimeExpandedOptimum best;
    if (time_expanded_feasible(inst, steps, &best.schedule)) {
      best.steps = steps;
      return best;
    }
  }
  return std::nullopt;
}

}  // namespace ringsim::oracles
