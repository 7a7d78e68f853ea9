#include "oracles/ring_bruteforce.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>

namespace ringsim::oracles {

double ring_tstep_bisection(const std::vector<double>& a, const std::vector<double>& b) {
  double lo = *std::max_element(b.begin(), b.end());
  if (!std::isfinite(lo)) return lo;
  auto share = [&](double t) {
    double s = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) s += std::max(0.0, (t - b[i]) / a[i]);
    return s;
  };
  if (share(lo) >= 1.0) return lo;
  double hi = lo + *std::min_element(a.begin(), a.end());  // the fastest alone already does it all
  for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    (share(mid) >= 1.0 ? hi : lo) = mid;
  }
  return hi;
}

double brute_force_complete_graph(const std::vector<double>& speed, const std::vector<std::vector<double>>& cost,
                                  double work, double comm) {
  const std::size_t n = speed.size();
  double best = std::numeric_limits<double>::infinity();
  for (unsigned mask = 1; mask < (1u << n); ++mask) {
    std::vector<std::size_t> ring;
    for (std::size_t h = 0; h < n; ++h)
      if (mask >> h & 1) ring.push_back(h);
    do {
      const std::size_t q = ring.size();
      std::vector<double> a(q), b(q, 0.0);
      for (std::size_t m = 0; m < q; ++m) {
        a[m] = work / speed[ring[m]];
        if (q > 1) b[m] = comm * (cost[ring[m]][ring[(m + 1) % q]] + cost[ring[m]][ring[(m + q - 1) % q]]);
      }
      best = std::min(best, ring_tstep_bisection(a, b));
    } while (std::next_permutation(ring.begin(), ring.end()));
  }
  return best;
}

double bottleneck_bruteforce(const Platform& p, std::size_t a, std::size_t b) {
  std::vector<double> caps;
  for (const auto& e : p.edges) caps.push_back(p.links[e.link].bandwidth);
  std::sort(caps.rbegin(), caps.rend());
  for (double t : caps) {  // the largest threshold that connects a and b
    std::vector<std::size_t> parent(p.nodes.size());
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    std::function<std::size_t(std::size_t)> find = [&](std::size_t x) {
      return parent[x] == x ? x : parent[x] = find(parent[x]);
    };
    for (const auto& e : p.edges)
      if (p.links[e.link].bandwidth >= t) parent[find(e.a)] = find(e.b);
    if (find(a) == find(b)) return t;
  }
  return 0.0;
}

namespace {

std::string check_path(const Platform& p, std::size_t from, std::size_t to, const std::vector<std::string>& names,
                       std::vector<std::size_t>& links) {
  links.clear();
  for (const auto& n : names) {
    const auto l = p.find_link(n);
    if (!l) return "unknown link " + n;
    links.push_back(*l);
  }
  if (links.empty()) return "empty path";
  if (!p.graph_routed()) {
    for (const auto& r : p.routes) {
      if (r.src == from && r.dst == to) return r.links == links ? "" : "not the route";
      if (r.symmetrical && r.src == to && r.dst == from)
        return std::vector<std::size_t>(r.links.rbegin(), r.links.rend()) == links ? "" : "not the route";
    }
    return "no route";
  }
  std::size_t at = from;
  for (auto l : links) {
    bool moved = false;
    for (const auto& e : p.edges)
      if (e.link == l && (e.a == at || e.b == at)) {
        at = e.a == at ? e.b : e.a;
        moved = true;
        break;
      }
    if (!moved) return "link " + p.links[l].name + " does not leave " + p.nodes[at].name;
  }
  return at == to ? "" : "path ends at " + p.nodes[at].name;
}

}  // namespace

std::string check_ring_answer(const Platform& p, double work, double comm, const RingAnswer& ans) {
  const std::size_t q = ans.ring.size();
  if (q == 0) return "empty ring";
  std::vector<std::size_t> node(q);
  for (std::size_t m = 0; m < q; ++m) {
    const auto n = p.find_node(ans.ring[m]);
    if (!n || !p.nodes[*n].is_host) return "unknown host " + ans.ring[m];
    node[m] = *n;
    for (std::size_t o = 0; o < m; ++o)
      if (node[o] == node[m]) return "host twice: " + ans.ring[m];
  }
  const std::size_t np = q == 1 ? 0 : q;
  if (ans.succ_links.size() != np || ans.pred_links.size() != np || ans.succ_bw.size() != np || ans.pred_bw.size() != np)
    return "wrong number of paths";
  std::map<std::size_t, double> used;
  std::vector<double> a(q), b(q, 0.0);
  std::vector<std::size_t> links;
  for (std::size_t m = 0; m < q; ++m) {
    a[m] = work / p.nodes[node[m]].speed;
    if (!np) continue;
    for (int dir = 0; dir < 2; ++dir) {
      const std::size_t other = dir == 0 ? node[(m + 1) % q] : node[(m + q - 1) % q];
      const double bw = dir == 0 ? ans.succ_bw[m] : ans.pred_bw[m];
      const auto err = check_path(p, node[m], other, dir == 0 ? ans.succ_links[m] : ans.pred_links[m], links);
      if (!err.empty()) return ans.ring[m] + (dir == 0 ? " succ: " : " pred: ") + err;
      if (!(bw > 0)) return "non-positive bandwidth";
      for (auto l : links) {
        if (p.links[l].sharing == SharingPolicy::fatpipe) {
          if (bw > p.links[l].bandwidth * (1 + 1e-9)) return "FATPIPE link " + p.links[l].name + " exceeded";
        } else {
          used[l] += bw;
        }
      }
      b[m] += comm / bw;
    }
  }
  for (const auto& [l, u] : used)
    if (u > p.links[l].bandwidth * (1 + 1e-9)) {
      std::ostringstream msg;
      msg << "SHARED link " << p.links[l].name << " carries " << u << " > " << p.links[l].bandwidth;
      return msg.str();
    }
  const double t = ring_tstep_bisection(a, b);
  if (std::abs(t - ans.tstep) > 1e-9 * t) {
    std::ostringstream msg;
    msg.precision(17);
    msg << "T_step recomputes to " << t << ", reported " << ans.tstep;
    return msg.str();
  }
  return "";
}

}  // namespace ringsim::oracles
