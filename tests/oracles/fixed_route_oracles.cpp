#include "oracles/fixed_route_oracles.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace ringsim::oracles {
namespace {

constexpr double kUnbounded = std::numeric_limits<double>::infinity();
constexpr double kRelative = 1e-9;
constexpr std::size_t kNoHost = static_cast<std::size_t>(-1);

}  // namespace

std::vector<std::vector<std::vector<std::size_t>>> routes_of(const Platform& p) {
  const auto hosts = p.host_indices();
  std::vector<std::size_t> id(p.nodes.size(), kNoHost);
  for (std::size_t h = 0; h < hosts.size(); ++h) id[hosts[h]] = h;
  std::vector<std::vector<std::vector<std::size_t>>> r(hosts.size(), std::vector<std::vector<std::size_t>>(hosts.size()));
  for (const auto& route : p.routes) {
    if (id[route.src] == kNoHost || id[route.dst] == kNoHost) continue;
    r[id[route.src]][id[route.dst]] = route.links;
    if (route.symmetrical) r[id[route.dst]][id[route.src]].assign(route.links.rbegin(), route.links.rend());
  }
  return r;
}

std::vector<std::vector<double>> route_bandwidths(const Platform& p) {
  const auto r = routes_of(p);
  std::vector<std::vector<double>> bw(r.size(), std::vector<double>(r.size(), kUnbounded));
  for (std::size_t i = 0; i < r.size(); ++i)
    for (std::size_t j = 0; j < r.size(); ++j)
      for (auto l : r[i][j]) bw[i][j] = std::min(bw[i][j], p.links[l].bandwidth);
  return bw;
}

std::vector<std::vector<double>> route_costs(const Platform& p) {
  auto c = route_bandwidths(p);
  for (std::size_t i = 0; i < c.size(); ++i)
    for (std::size_t j = 0; j < c.size(); ++j) c[i][j] = i == j ? 0.0 : 1.0 / c[i][j];
  return c;
}

double ring_tstep_no_sharing(const std::vector<double>& speed, const std::vector<std::vector<double>>& cost,
                             const ring::Workload& load, const std::vector<std::size_t>& ring) {
  const std::size_t q = ring.size();
  std::vector<double> a(q), b(q, 0.0);
  for (std::size_t m = 0; m < q; ++m) {
    a[m] = load.work / speed[ring[m]];
    if (q > 1) b[m] = load.comm * (cost[ring[m]][ring[(m + 1) % q]] + cost[ring[m]][ring[(m + q - 1) % q]]);
  }
  return ring_tstep_bisection(a, b);
}

std::string check_full_zone_answer(const Platform& p, const ring::Workload& load, const RingAnswer& ans) {
  const auto r = routes_of(p);
  const std::size_t q = ans.ring.size();
  if (q == 0) return "empty ring";
  std::vector<std::size_t> host(q);
  const auto hosts = p.host_indices();
  for (std::size_t m = 0; m < q; ++m) {
    const auto node = p.find_node(ans.ring[m]);
    if (!node || !p.nodes[*node].is_host) return "unknown host " + ans.ring[m];
    host[m] = static_cast<std::size_t>(std::find(hosts.begin(), hosts.end(), *node) - hosts.begin());
    for (std::size_t o = 0; o < m; ++o)
      if (host[o] == host[m]) return "host twice: " + ans.ring[m];
  }
  const std::size_t np = q == 1 ? 0 : q;
  if (ans.succ_links.size() != np || ans.pred_links.size() != np || ans.succ_bw.size() != np || ans.pred_bw.size() != np)
    return "wrong number of paths";
  std::vector<double> used(p.links.size(), 0.0), a(q), b(q, 0.0);
  for (std::size_t m = 0; m < q; ++m) {
    a[m] = load.work / p.nodes[hosts[host[m]]].speed;
    for (std::size_t dir = 0; dir < 2 && np; ++dir) {
      const std::size_t other = dir == 0 ? host[(m + 1) % q] : host[(m + q - 1) % q];
      const auto& names = dir == 0 ? ans.succ_links[m] : ans.pred_links[m];
      const double bw = dir == 0 ? ans.succ_bw[m] : ans.pred_bw[m];
      std::vector<std::size_t> links;
      for (const auto& name : names) {
        const auto l = p.find_link(name);
        if (!l) return "unknown link " + name;
        links.push_back(*l);
      }
      const std::string what = ans.ring[m] + (dir == 0 ? " succ" : " pred");
      if (links != r[host[m]][other]) return what + ": not the platform's route";
      if (!(bw > 0)) return what + ": non-positive bandwidth";
      for (auto l : links) {
        if (p.links[l].sharing == SharingPolicy::fatpipe) {
          if (bw > p.links[l].bandwidth * (1 + kRelative)) return what + ": FATPIPE link " + p.links[l].name + " exceeded";
        } else {
          used[l] += bw;
        }
      }
      b[m] += load.comm / bw;
    }
  }
  for (std::size_t l = 0; l < used.size(); ++l)
    if (used[l] > p.links[l].bandwidth * (1 + kRelative)) {
      std::ostringstream msg;
      msg << "SHARED link " << p.links[l].name << " carries " << used[l] << " > " << p.links[l].bandwidth;
      return msg.str();
    }
  const double t = ring_tstep_bisection(a, b);
  if (!(std::abs(t - ans.tstep) <= kRelative * t)) {
    std::ostringstream msg;
    msg.precision(17);
    msg << "T_step recomputes to " << t << ", reported " << ans.tstep;
    return msg.str();
  }
  return "";
}

std::string check_fixed_route_answer(const Platform& p, const ring::Workload& load, const RingAnswer& ans) {
  auto err = check_full_zone_answer(p, load, ans);
  if (!err.empty()) return "(full-zone check) " + err;
  err = check_ring_answer(p, load.work, load.comm, ans);
  if (!err.empty()) return "(oracles::check_ring_answer) " + err;
  return "";
}

}  // namespace ringsim::oracles
