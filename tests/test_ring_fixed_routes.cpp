// The ring planners in "platform" routing mode (Full zones: the paths are the platform's routes),
// on seeded random platforms routed as SimGrid routes real hierarchical platforms:
//  - clusters: each host a private SHARED link (one link for both directions) or split-duplex
//    links (a -> b crosses up_a then down_b), an optional SHARED or FATPIPE backbone;
//  - two or three clusters joined by WAN links through their gateways (a -> b: a's private link,
//    a's backbone, the WAN link(s), b's backbone, b's private link), the WAN links one per
//    direction or shared by both, as a mesh, a star around a core router or a chain;
//  - Vivaldi-like zones mixed with clusters: SimGrid routes them through no link (latency only);
//    the model lists no route without a link, so, as the simulation layer builds it
//    (platform/ring_platform.cpp), each such route crosses one FATPIPE link kLatencyOnlyLink of
//    kLatencyOnlyBandwidth (1e20 B/s), added once and shared by every latency-only route;
//  - asymmetric routes (a -> b and b -> a through different links) and arbitrary Full zones.
// Every expected value is computed here from the Platform's routes, never from RingNetwork.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "model/errors.hpp"
#include "model/platform_graph.hpp"
#include "oracles/ring_bruteforce.hpp"
#include "oracles/ring_platforms.hpp"
#include "planners/ring/ring_planner.hpp"
#include "repo_files.hpp"

using namespace ringsim;
using namespace ringsim::ring;

namespace {

using ringsim::testing::host_speeds;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kRel = 1e-9;
constexpr std::size_t kNoLink = static_cast<std::size_t>(-1);

// ---- instances ------------------------------------------------------------------------------------

struct Instance {
  int id = 0;
  std::string kind;
  Platform platform;
  Workload load;
  bool all_fatpipe = false;             // nothing is shared
  std::size_t latency_only = kNoLink;   // the kLatencyOnlyLink link, if some route crosses no real link
  bool has_latency_only() const { return latency_only != kNoLink; }
};

// One zone of the hierarchy: a cluster (private links, optional backbone) or a Vivaldi-like zone
// (no link inside: latency-only routes, given the kLatencyOnlyLink link in make_instance).
struct Zone {
  std::vector<std::size_t> hosts;     // platform nodes
  std::vector<std::size_t> up, down;  // per host of the zone (up == down: one SHARED link for both ways)
  std::size_t backbone = kNoLink;
};

class Builder {
 public:
  Builder(std::mt19937_64& rng, Platform& p, bool all_fat) : rng_(rng), p_(p), all_fat_(all_fat) {}

  double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng_); }
  bool coin(double prob) { return uniform(0, 1) < prob; }
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

  // 10 Mb/s .. 10 Gb/s, a few discrete values (ties) among continuous ones.
  double bandwidth() {
    static const double values[] = {1.25e6, 12.5e6, 125e6, 1.25e9};
    if (coin(0.3)) return values[pick(4)];
    return std::pow(10.0, uniform(6.0, 9.1));
  }
  double speed() {
    static const double values[] = {50e6, 100e6, 200e6};
    if (coin(0.3)) return values[pick(3)];
    return uniform(20e6, 500e6);
  }
  SharingPolicy sharing(double fat_probability) {
    return all_fat_ || coin(fat_probability) ? SharingPolicy::fatpipe : SharingPolicy::shared;
  }
  std::size_t link(const std::string& prefix, SharingPolicy s) {
    return p_.add_link(prefix + "_" + std::to_string(p_.links.size()), bandwidth(), uniform(1e-6, 1e-2),
                       all_fat_ ? SharingPolicy::fatpipe : s);
  }
  std::size_t host() { return p_.add_host("h" + std::to_string(p_.nodes.size()), speed()); }

  // style: 0 private SHARED link per host, 1 split-duplex, 2 Vivaldi-like (no link).
  Zone zone(std::size_t hosts, int style, const std::string& name) {
    Zone z;
    for (std::size_t h = 0; h < hosts; ++h) {
      const auto node = host();
      z.hosts.push_back(node);
      const std::string hn = p_.nodes[node].name;
      if (style == 0) {
        const auto l = link(name + "_" + hn, SharingPolicy::shared);
        z.up.push_back(l);
        z.down.push_back(l);
      } else if (style == 1) {
        z.up.push_back(link(name + "_" + hn + "_up", SharingPolicy::shared));
        z.down.push_back(link(name + "_" + hn + "_down", SharingPolicy::shared));
      } else {
        z.up.push_back(kNoLink);
        z.down.push_back(kNoLink);
      }
    }
    if (style != 2) {
      const double r = uniform(0, 1);
      if (r < 0.35)
        z.backbone = link(name + "_bb", SharingPolicy::shared);
      else if (r < 0.7)
        z.backbone = link(name + "_bb", SharingPolicy::fatpipe);
    }
    return z;
  }

 private:
  std::mt19937_64& rng_;
  Platform& p_;
  bool all_fat_;
};

void push(std::vector<std::size_t>& v, std::size_t l) {
  if (l != kNoLink) v.push_back(l);
}

std::vector<std::size_t> split_sizes(Builder& b, std::size_t n, std::size_t zones) {
  std::vector<std::size_t> sizes(zones, 1);
  for (std::size_t h = zones; h < n; ++h) ++sizes[b.pick(zones)];
  return sizes;
}

// Hierarchical platform: 1 to 3 zones, routes as SimGrid composes them.
void build_hierarchy(Builder& b, Platform& p, std::size_t n, std::size_t nzones, bool with_vivaldi,
                     std::string& kind, std::vector<std::vector<std::vector<std::size_t>>>& route) {
  const auto sizes = split_sizes(b, n, nzones);
  std::vector<Zone> zones;
  std::ostringstream k;
  k << nzones << (nzones == 1 ? " zone:" : " zones:");
  for (std::size_t z = 0; z < nzones; ++z) {
    int style = static_cast<int>(b.pick(2));
    if (with_vivaldi && z == 0) style = 2;
    zones.push_back(b.zone(sizes[z], style, "c" + std::to_string(z)));
    k << (style == 0 ? " shared" : style == 1 ? " split" : " vivaldi")
      << (zones.back().backbone == kNoLink ? ""
          : p.links[zones.back().backbone].sharing == SharingPolicy::fatpipe ? "+fatbb"
                                                                               : "+bb");
  }
  // Inter-zone links: inter[c][d] = the links from zone c's gateway to zone d's.
  std::vector<std::vector<std::vector<std::size_t>>> inter(nzones, std::vector<std::vector<std::size_t>>(nzones));
  if (nzones >= 2) {
    const int topology = nzones == 2 ? 0 : static_cast<int>(b.pick(3));  // mesh, star, chain
    k << (topology == 0 ? ", mesh" : topology == 1 ? ", star" : ", chain");
    // One link for both ways, or one per direction.
    auto wan = [&](const std::string& name, std::vector<std::size_t>& fwd, std::vector<std::size_t>& bwd) {
      const auto s = b.sharing(0.3);
      if (b.coin(0.4)) {
        fwd.push_back(b.link(name + "_fwd", s));
        bwd.insert(bwd.begin(), b.link(name + "_bwd", s));
        k << " " << name << ":split";
      } else {
        const auto l = b.link(name, s);
        fwd.push_back(l);
        bwd.insert(bwd.begin(), l);
        k << " " << name;
      }
    };
    if (topology == 0) {
      for (std::size_t c = 0; c < nzones; ++c)
        for (std::size_t d = c + 1; d < nzones; ++d) wan("wan" + std::to_string(c) + std::to_string(d), inter[c][d], inter[d][c]);
    } else if (topology == 1) {
      std::vector<std::vector<std::size_t>> to_core(nzones), from_core(nzones);
      for (std::size_t c = 0; c < nzones; ++c) wan("uplink" + std::to_string(c), to_core[c], from_core[c]);
      std::size_t core = kNoLink;
      if (b.coin(0.5)) core = b.link("core", b.sharing(0.5));
      for (std::size_t c = 0; c < nzones; ++c)
        for (std::size_t d = 0; d < nzones; ++d)
          if (c != d) {
            inter[c][d] = to_core[c];
            push(inter[c][d], core);
            inter[c][d].insert(inter[c][d].end(), from_core[d].begin(), from_core[d].end());
          }
    } else {
      wan("wan01", inter[0][1], inter[1][0]);
      wan("wan12", inter[1][2], inter[2][1]);
      inter[0][2] = inter[0][1];
      inter[0][2].insert(inter[0][2].end(), inter[1][2].begin(), inter[1][2].end());
      inter[2][0] = inter[2][1];
      inter[2][0].insert(inter[2][0].end(), inter[1][0].begin(), inter[1][0].end());
    }
    // Asymmetric: one direction between two zones takes another way (a second provider).
    if (b.coin(0.3)) {
      const std::size_t c = b.pick(nzones), d = (c + 1 + b.pick(nzones - 1)) % nzones;
      inter[c][d] = {b.link("detour" + std::to_string(c) + std::to_string(d), b.sharing(0.3))};
      k << ", detour " << c << "->" << d;
    }
  }
  std::vector<std::size_t> zone_of(p.nodes.size()), index_in(p.nodes.size());
  for (std::size_t z = 0; z < nzones; ++z)
    for (std::size_t i = 0; i < zones[z].hosts.size(); ++i) {
      zone_of[zones[z].hosts[i]] = z;
      index_in[zones[z].hosts[i]] = i;
    }
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t c = 0; c < n; ++c) {
      if (a == c) continue;
      const Zone &za = zones[zone_of[a]], &zc = zones[zone_of[c]];
      auto& r = route[a][c];
      push(r, za.up[index_in[a]]);
      push(r, za.backbone);
      if (zone_of[a] != zone_of[c]) {
        const auto& w = inter[zone_of[a]][zone_of[c]];
        r.insert(r.end(), w.begin(), w.end());
        push(r, zc.backbone);
      }
      push(r, zc.down[index_in[c]]);
    }
  kind = k.str();
}

// An arbitrary Full zone: each ordered pair crosses 0 to 3 links of a small pool, in any order.
void build_arbitrary(Builder& b, std::size_t n, std::string& kind,
                     std::vector<std::vector<std::vector<std::size_t>>>& route) {
  for (std::size_t h = 0; h < n; ++h) b.host();
  const std::size_t m = n + b.pick(5);
  std::vector<std::size_t> pool;
  for (std::size_t l = 0; l < m; ++l) pool.push_back(b.link("l", b.sharing(0.25)));
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t c = 0; c < n; ++c) {
      if (a == c) continue;
      const std::size_t len = b.coin(0.1) ? 0 : 1 + b.pick(3);
      std::vector<std::size_t> shuffled = pool;
      for (std::size_t x = 0; x < len; ++x) std::swap(shuffled[x], shuffled[x + b.pick(shuffled.size() - x)]);
      route[a][c].assign(shuffled.begin(), shuffled.begin() + static_cast<std::ptrdiff_t>(len));
    }
  kind = "arbitrary Full zone, " + std::to_string(m) + " links";
}

Instance make_instance(std::mt19937_64& rng, int id) {
  Instance inst;
  inst.id = id;
  inst.all_fatpipe = id % 4 == 3;
  Platform& p = inst.platform;
  p.routing = ZoneRouting::full;
  Builder b(rng, p, inst.all_fatpipe);
  const std::size_t n = 3 + static_cast<std::size_t>(id / 4) % 5;  // 3..7
  std::vector<std::vector<std::vector<std::size_t>>> route(n, std::vector<std::vector<std::size_t>>(n));
  switch (id % 9) {
    case 0: case 1: build_hierarchy(b, p, n, 1, false, inst.kind, route); break;
    case 2: case 3: build_hierarchy(b, p, n, 2, false, inst.kind, route); break;
    case 4: case 5: build_hierarchy(b, p, n, 3, false, inst.kind, route); break;
    case 6: build_hierarchy(b, p, n, 2 + b.pick(2), true, inst.kind, route); break;
    case 7: build_hierarchy(b, p, n, 1, true, inst.kind, route); break;  // every route latency-only
    default: build_arbitrary(b, n, inst.kind, route); break;
  }
  // A few latency-only routes mixed in (one direction only: routes are not symmetrical).
  if (id % 9 != 7 && b.coin(0.2)) {
    const std::size_t a = b.pick(n), c = (a + 1 + b.pick(n - 1)) % n;
    route[a][c].clear();
    inst.kind += ", latency-only " + std::to_string(a) + "->" + std::to_string(c);
  }
  // As platform/ring_platform.cpp builds the model: a route that crosses no link crosses the one
  // FATPIPE latency-only link instead, added once (at its first use) and used by every such route.
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t c = 0; c < n; ++c)
      if (a != c) {
        if (route[a][c].empty()) {
          if (inst.latency_only == kNoLink)
            inst.latency_only = p.add_link(kLatencyOnlyLink, kLatencyOnlyBandwidth, 0.0, SharingPolicy::fatpipe);
          route[a][c].push_back(inst.latency_only);
        }
        p.routes.push_back({a, c, route[a][c], false});
      }
  std::shuffle(p.routes.begin(), p.routes.end(), rng);  // the planners must not rely on the order
  if (inst.all_fatpipe) inst.kind += ", all FATPIPE";
  // W = 1 Gflop, H/W from 1e-5 to 0.1 byte per flop: from "everyone" to "the fastest alone".
  inst.load = {1e9, std::pow(10.0, b.uniform(-5.0, -1.0)) * 1e9};
  validate(p);
  return inst;
}

const std::vector<Instance>& instances() {
  static const std::vector<Instance> all = [] {
    std::mt19937_64 rng(0x51B6'2005'F011ULL);
    std::vector<Instance> v;
    for (int id = 0; id < 540; ++id) v.push_back(make_instance(rng, id));
    return v;
  }();
  return all;
}

std::string describe(const Instance& inst) {
  const Platform& p = inst.platform;
  std::ostringstream out;
  out.precision(10);
  out << "instance #" << inst.id << " (" << inst.kind << "), W = " << inst.load.work << ", H = " << inst.load.comm
      << "\n  hosts:";
  for (const auto& n : p.nodes) out << " " << n.name << "=" << n.speed;
  out << "\n  links:";
  for (const auto& l : p.links)
    out << " " << l.name << "=" << l.bandwidth << (l.sharing == SharingPolicy::fatpipe ? "(F)" : "(S)");
  out << "\n  routes:";
  std::vector<ExplicitRoute> sorted = p.routes;
  std::sort(sorted.begin(), sorted.end(),
            [](const ExplicitRoute& x, const ExplicitRoute& y) { return std::make_pair(x.src, x.dst) < std::make_pair(y.src, y.dst); });
  for (const auto& r : sorted) {
    out << " " << p.nodes[r.src].name << "->" << p.nodes[r.dst].name << "[";
    for (std::size_t x = 0; x < r.links.size(); ++x) out << (x ? "," : "") << p.links[r.links[x]].name;
    out << "]";
  }
  return out.str();
}

// ---- oracles read from the Platform ---------------------------------------------------------------

// The links of the route from host i to host j (host ids = node indices here), from p.routes.
std::vector<std::vector<std::vector<std::size_t>>> routes_of(const Platform& p) {
  const auto hosts = p.host_indices();
  std::vector<std::size_t> id(p.nodes.size(), kNoLink);
  for (std::size_t h = 0; h < hosts.size(); ++h) id[hosts[h]] = h;
  std::vector<std::vector<std::vector<std::size_t>>> r(hosts.size(), std::vector<std::vector<std::size_t>>(hosts.size()));
  for (const auto& route : p.routes) {
    if (id[route.src] == kNoLink || id[route.dst] == kNoLink) continue;
    r[id[route.src]][id[route.dst]] = route.links;
    if (route.symmetrical) r[id[route.dst]][id[route.src]].assign(route.links.rbegin(), route.links.rend());
  }
  return r;
}

// Route bottlenecks and the complete-graph costs 1/bottleneck. Every route crosses a link (a
// latency-only route the FATPIPE kLatencyOnlyLink: bottleneck kLatencyOnlyBandwidth = 1e20).
std::vector<std::vector<double>> route_bandwidths(const Platform& p) {
  const auto r = routes_of(p);
  std::vector<std::vector<double>> bw(r.size(), std::vector<double>(r.size(), kInf));
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

// T_step of a given ring with the complete-graph costs (sharing ignored).
double ring_tstep_no_sharing(const std::vector<double>& speed, const std::vector<std::vector<double>>& cost,
                             const Workload& load, const std::vector<std::size_t>& ring) {
  const std::size_t q = ring.size();
  std::vector<double> a(q), b(q, 0.0);
  for (std::size_t m = 0; m < q; ++m) {
    a[m] = load.work / speed[ring[m]];
    if (q > 1) b[m] = load.comm * (cost[ring[m]][ring[(m + 1) % q]] + cost[ring[m]][ring[(m + q - 1) % q]]);
  }
  return oracles::ring_tstep_bisection(a, b);
}

// The same check as oracles::check_ring_answer, written here from the Platform's routes for Full
// zones (the latency-only link is checked as any FATPIPE link: at most 1e20 per path). Used on
// every answer, next to check_ring_answer.
std::string check_full_zone_answer(const Platform& p, const Workload& load, const oracles::RingAnswer& ans) {
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
          if (bw > p.links[l].bandwidth * (1 + kRel)) return what + ": FATPIPE link " + p.links[l].name + " exceeded";
        } else {
          used[l] += bw;
        }
      }
      b[m] += load.comm / bw;
    }
  }
  for (std::size_t l = 0; l < used.size(); ++l)
    if (used[l] > p.links[l].bandwidth * (1 + kRel)) {
      std::ostringstream msg;
      msg << "SHARED link " << p.links[l].name << " carries " << used[l] << " > " << p.links[l].bandwidth;
      return msg.str();
    }
  const double t = oracles::ring_tstep_bisection(a, b);
  if (!(std::abs(t - ans.tstep) <= kRel * t)) {
    std::ostringstream msg;
    msg.precision(17);
    msg << "T_step recomputes to " << t << ", reported " << ans.tstep;
    return msg.str();
  }
  return "";
}

// Both checkers; "" when the answer is consistent. Every path crosses a link now (a latency-only
// route the kLatencyOnlyLink link), so both apply to every answer.
std::string check_answer(const Platform& p, const Workload& load, const oracles::RingAnswer& ans) {
  auto err = check_full_zone_answer(p, load, ans);
  if (!err.empty()) return "(full-zone check) " + err;
  err = oracles::check_ring_answer(p, load.work, load.comm, ans);
  if (!err.empty()) return "(oracles::check_ring_answer) " + err;
  return "";
}

std::string ring_string(const Platform& p, const std::vector<std::size_t>& ring) {
  std::string s;
  for (auto h : ring) s += (s.empty() ? "" : " ") + p.nodes[p.host_indices()[h]].name;
  return "[" + s + "]";
}

// Failures are counted per kind; the first few are reported in full (with the instance).
class Failures {
 public:
  void add(const std::string& category, const Instance& inst, const std::string& detail) {
    ++count_[category];
    ++total_;
    if (count_[category] <= 3) {
      std::ostringstream msg;
      msg.precision(17);
      msg << category << ": " << detail << "\n" << describe(inst);
      FAIL_CHECK(msg.str());
    }
  }
  void finish(const std::string& what, std::size_t checked) {
    std::ostringstream summary;
    for (const auto& [c, n] : count_) summary << "\n  " << n << " x " << c;
    MESSAGE(what << ": " << checked << " instances checked, " << total_ << " failures" << summary.str());
    CHECK_MESSAGE(total_ == 0, what << ": " << total_ << " failures (the first three of each kind are reported above)");
  }

 private:
  std::map<std::string, std::size_t> count_;
  std::size_t total_ = 0;
};

// Brute-force optimum (every subset, every order, route bottlenecks, sharing ignored), cached.
double brute_force(const Instance& inst) {
  static std::map<int, double> cache;
  const auto it = cache.find(inst.id);
  if (it != cache.end()) return it->second;
  const double v = oracles::brute_force_complete_graph(host_speeds(inst.platform), route_costs(inst.platform),
                                                       inst.load.work, inst.load.comm);
  cache[inst.id] = v;
  return v;
}


// ---- running planners in a child process -------------------------------------------------------
// The runs are made in a forked child, so that a planner that crashes (SIGSEGV, abort) or hangs
// (killed after 120 s) is reported as a failure of that method on that instance instead of ending
// the whole test program. One child makes a whole batch of runs, in order, and sends each outcome
// as it ends: a crash loses only the run in progress, and a new child goes on with the next one
// (a fork per run would cost more than the runs under AddressSanitizer, whose shadow memory makes
// each fork copy large page tables). RINGSIM_TEST_NO_FORK=1 runs them in this process (for a
// debugger).

struct Outcome {
  std::string error;  // "" when the planner returned a plan; else "threw: ...", "crashed: ..."
  RingPlan plan;
};

class Bytes {
 public:
  std::string data;
  std::size_t at = 0;
  void put_raw(const void* p, std::size_t n) { data.append(static_cast<const char*>(p), n); }
  void put(double x) { put_raw(&x, sizeof x); }
  void put(std::size_t x) { put_raw(&x, sizeof x); }
  void put(const std::string& s) {
    put(s.size());
    data += s;
  }
  void put(const std::vector<std::size_t>& v) {
    put(v.size());
    for (auto x : v) put(x);
  }
  void put(const std::vector<double>& v) {
    put(v.size());
    for (auto x : v) put(x);
  }
  bool get_raw(void* p, std::size_t n) {
    if (at + n > data.size()) return false;
    std::memcpy(p, data.data() + at, n);
    at += n;
    return true;
  }
  bool get(double& x) { return get_raw(&x, sizeof x); }
  bool get(std::size_t& x) { return get_raw(&x, sizeof x); }
  bool get(std::string& s) {
    std::size_t n = 0;
    if (!get(n) || at + n > data.size()) return false;
    s.assign(data, at, n);
    at += n;
    return true;
  }
  template <class T>
  bool get(std::vector<T>& v) {
    std::size_t n = 0;
    if (!get(n) || n > data.size()) return false;
    v.resize(n);
    for (auto& x : v)
      if (!get(x)) return false;
    return true;
  }
};

void put_plan(Bytes& b, const RingPlan& plan) {
  b.put(plan.method);
  b.put(plan.ring);
  for (const auto* paths : {&plan.succ, &plan.pred}) {
    b.put(paths->size());
    for (const auto& path : *paths) {
      b.put(path.from);
      b.put(path.to);
      b.put(path.links);
    }
  }
  b.put(plan.succ_bw);
  b.put(plan.pred_bw);
  b.put(plan.tstep);
  b.put(plan.objective);
  b.put(std::size_t{plan.optimal ? (*plan.optimal ? 2u : 1u) : 0u});
}

bool get_plan(Bytes& b, RingPlan& plan) {
  bool ok = b.get(plan.method) && b.get(plan.ring);
  for (auto* paths : {&plan.succ, &plan.pred}) {
    std::size_t n = 0;
    ok = ok && b.get(n) && n <= b.data.size();
    if (!ok) return false;
    paths->resize(n);
    for (auto& path : *paths) ok = ok && b.get(path.from) && b.get(path.to) && b.get(path.links);
  }
  std::size_t optimal = 0;
  ok = ok && b.get(plan.succ_bw) && b.get(plan.pred_bw) && b.get(plan.tstep) && b.get(plan.objective) && b.get(optimal);
  if (optimal) plan.optimal = optimal == 2;
  return ok;
}

// One outcome as the child sends it: its length, then 'P' and the plan, or 'E' and the message.
Bytes outcome_frame(const std::function<RingPlan(std::size_t)>& run, std::size_t item) {
  Bytes b;
  try {
    const RingPlan plan = run(item);
    b.data = "P";
    put_plan(b, plan);
  } catch (const std::exception& e) {
    b.data = std::string("E") + e.what();
  } catch (...) {
    b.data = "Ean exception that is not a std::exception";
  }
  Bytes frame;
  frame.put(b.data.size());
  frame.data += b.data;
  return frame;
}

bool write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const auto w = write(fd, data.data() + done, data.size() - done);
    if (w <= 0) return false;
    done += static_cast<std::size_t>(w);
  }
  return true;
}

// The child: items first, first + 1, ... count - 1, each outcome written as soon as it is known.
[[noreturn]] void run_batch_in_child(int fd, const std::function<RingPlan(std::size_t)>& run, std::size_t first,
                                     std::size_t count) {
  // doctest's crash handlers would report the crash from the child: the default action instead.
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGALRM}) std::signal(sig, SIG_DFL);
  for (std::size_t item = first; item < count; ++item) {
    alarm(120);  // a planner that never returns is reported as killed by SIGALRM
    if (!write_all(fd, outcome_frame(run, item).data)) _exit(3);
  }
  close(fd);
  _exit(0);
}

// Outcome `out` from one frame of `b` (at b.at); false when the frame is cut short.
bool read_frame(Bytes& b, Outcome& out) {
  std::size_t length = 0;
  if (!b.get(length) || b.at + length > b.data.size() || length == 0) return false;
  Bytes one;
  one.data = b.data.substr(b.at, length);
  b.at += length;
  if (one.data[0] == 'E') {
    out.error = "threw: " + one.data.substr(1);
  } else {
    one.at = 1;
    if (!get_plan(one, out.plan)) out.error = "crashed: unreadable plan from the child process";
  }
  return true;
}

std::string crash_message(int status) {
  if (WIFSIGNALED(status))
    return "crashed: signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  return "crashed: the child process exited with status " + std::to_string(WEXITSTATUS(status));
}

// Runs items first.. in one child and files their outcomes in `out`; returns the first item not
// done (after the one that crashed, whose outcome says how).
std::size_t run_batch(std::vector<Outcome>& out, const std::function<RingPlan(std::size_t)>& run, std::size_t first) {
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error("pipe() failed");
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork() failed");
  if (pid == 0) {
    close(fd[0]);
    run_batch_in_child(fd[1], run, first, out.size());
  }
  close(fd[1]);
  Bytes b;
  char buf[65536];
  for (;;) {
    const auto r = read(fd[0], buf, sizeof buf);
    if (r <= 0) break;
    b.data.append(buf, static_cast<std::size_t>(r));
  }
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  std::size_t item = first;
  while (item < out.size() && read_frame(b, out[item])) ++item;
  const bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (item == out.size() && clean) return item;
  if (item == out.size()) item = out.size() - 1;  // every frame came, then the child failed
  out[item] = Outcome{};
  out[item].error = clean ? "crashed: the child process ended before its answer" : crash_message(status);
  return item + 1;
}

// `run(i)` for i in [0, count), each run's plan or its failure.
std::vector<Outcome> isolated_runs(std::size_t count, const std::function<RingPlan(std::size_t)>& run) {
  std::vector<Outcome> out(count);
  if (std::getenv("RINGSIM_TEST_NO_FORK")) {
    for (std::size_t i = 0; i < count; ++i) {
      try {
        out[i].plan = run(i);
      } catch (const std::exception& e) {
        out[i].error = std::string("threw: ") + e.what();
      }
    }
    return out;
  }
  for (std::size_t next = 0; next < count;) next = run_batch(out, run, next);
  return out;
}

// A method's outcomes on every instance, computed once, in one batch (the test cases share them).
const Outcome& outcome(const Instance& inst, const std::string& method) {
  static std::map<std::string, std::vector<Outcome>> cache;
  auto it = cache.find(method);
  if (it == cache.end()) {
    const auto& all = instances();
    it = cache.emplace(method, isolated_runs(all.size(), [&](std::size_t i) {
                         const RingNetwork net(all[i].platform);
                         return plan_ring(net, all[i].load, method);
                       })).first;
  }
  return it->second.at(static_cast<std::size_t>(inst.id));
}

// "greedy threw (latency-only routes)": the failure's kind, for the summary.
std::string failure_kind(const std::string& method, const Instance& inst, const std::string& error) {
  return method + (error.rfind("crashed", 0) == 0 ? " crashed" : " threw") +
         (inst.has_latency_only() ? " (instance with latency-only routes)" : "");
}

// The method's plan on the instance, or nullptr once its failure is recorded.
const RingPlan* answer(const Instance& inst, const std::string& method, Failures& failures) {
  const Outcome& out = outcome(inst, method);
  if (out.error.empty()) return &out.plan;
  failures.add(failure_kind(method, inst, out.error), inst, out.error);
  return nullptr;
}

const char* const kFixedRouteMethods[] = {"greedy", "greedy-maxmin", "greedy-global", "exhaustive", "tsp-local", "ignore-sharing"};

bool close(double x, double y) { return std::abs(x - y) <= kRel * std::max(std::abs(x), std::abs(y)); }

}  // namespace

TEST_CASE("fixed routes: full_bandwidth is the route's bottleneck and route() lists the route's links") {
  Failures failures;
  std::size_t pairs = 0, latency_only_pairs = 0;
  for (const auto& inst : instances()) {
    const Platform& p = inst.platform;
    const RingNetwork net(p);
    if (!net.fixed_routes()) failures.add("not fixed routes", inst, "fixed_routes() is false");
    const auto r = routes_of(p);
    const auto bw = route_bandwidths(p);
    // The latency-only link, as platform/ring_platform.cpp adds it: one FATPIPE link of 1e20 B/s.
    std::size_t named_latency_only = 0;
    for (const auto& l : p.links) named_latency_only += l.name == kLatencyOnlyLink ? 1 : 0;
    if (named_latency_only != (inst.has_latency_only() ? 1u : 0u))
      failures.add("latency-only link", inst, std::to_string(named_latency_only) + " links named kLatencyOnlyLink");
    if (inst.has_latency_only()) {
      const auto& l = p.links[inst.latency_only];
      if (l.name != kLatencyOnlyLink || l.sharing != SharingPolicy::fatpipe || l.bandwidth != kLatencyOnlyBandwidth)
        failures.add("latency-only link", inst, "not the FATPIPE kLatencyOnlyLink of kLatencyOnlyBandwidth");
    }
    for (std::size_t a = 0; a < r.size(); ++a)
      for (std::size_t b = 0; b < r.size(); ++b) {
        if (a == b) continue;
        ++pairs;
        std::ostringstream pair;
        pair.precision(17);
        pair << net.host_name(a) << " -> " << net.host_name(b);
        if (r[a][b].empty()) failures.add("route without link", inst, pair.str() + ": the instance lists no link");
        if (inst.has_latency_only() && r[a][b] == std::vector<std::size_t>{inst.latency_only}) {
          ++latency_only_pairs;
          if (!(net.full_bandwidth(a, b) == kLatencyOnlyBandwidth))
            failures.add("latency-only full_bandwidth", inst,
                         pair.str() + ": full_bandwidth " + std::to_string(net.full_bandwidth(a, b)) + ", expected 1e20");
        }
        if (net.host_name(a) != p.nodes[a].name) failures.add("host ids", inst, pair.str() + ": host ids are not node order");
        if (!(net.full_bandwidth(a, b) == bw[a][b]))
          failures.add("full_bandwidth", inst,
                       pair.str() + ": full_bandwidth " + std::to_string(net.full_bandwidth(a, b)) + ", route bottleneck " +
                           std::to_string(bw[a][b]));
        if (!(net.from_row(a)[b] == bw[a][b]) || !(net.to_row(b)[a] == bw[a][b]))
          failures.add("from_row/to_row", inst, pair.str() + ": rows disagree with the route bottleneck");
        if (r[a][b] != net.route(a, b)) failures.add("route", inst, pair.str() + ": route() is not the platform's route");
        if (!(net.pair_path(a, b).links == r[a][b])) failures.add("pair_path", inst, pair.str() + ": pair_path is not the route");
      }
  }
  std::size_t latency_only = 0, fat = 0, shared_links = 0;
  std::map<std::string, std::size_t> kinds;
  for (const auto& inst : instances()) {
    latency_only += inst.has_latency_only() ? 1 : 0;
    fat += inst.all_fatpipe ? 1 : 0;
    ++kinds[inst.kind.substr(0, inst.kind.find_first_of(":,"))];
    for (const auto& l : inst.platform.links) shared_links += l.sharing == SharingPolicy::shared ? 1 : 0;
  }
  std::ostringstream overview;
  for (const auto& [k, count] : kinds) overview << " " << count << " x " << k << ";";
  MESSAGE("instances:" << overview.str() << " " << latency_only << " with latency-only routes ("
                       << latency_only_pairs << " ordered pairs through the latency-only link), " << fat
                       << " all FATPIPE, " << shared_links << " SHARED links in all");
  CHECK(latency_only_pairs > 0);
  failures.finish("routes and bottlenecks (" + std::to_string(pairs) + " ordered pairs)", instances().size());
}

TEST_CASE("fixed routes: exhaustive reaches the brute force over every subset and every order") {
  Failures failures;
  for (const auto& inst : instances()) {
    const Platform& p = inst.platform;
    const double oracle = brute_force(inst);
    const RingPlan* answered = answer(inst, "exhaustive", failures);
    if (!answered) continue;
    const RingPlan& plan = *answered;
    std::ostringstream d;
    d.precision(17);
    d << "objective " << plan.objective << ", brute force " << oracle << ", ring " << ring_string(p, plan.ring);
    if (!close(plan.objective, oracle)) failures.add("objective != brute force", inst, d.str());
    if (!plan.optimal.value_or(false)) failures.add("not marked optimal", inst, d.str());
    // Its ring reaches the objective with the route costs.
    const double own = ring_tstep_no_sharing(host_speeds(p), route_costs(p), inst.load, plan.ring);
    if (!close(own, oracle)) failures.add("ring's no-sharing T_step != brute force", inst, d.str() + ", ring's " + std::to_string(own));
  }
  failures.finish("exhaustive vs brute force", instances().size());
}

TEST_CASE("fixed routes (every link FATPIPE): exhaustive's T_step is the brute-force optimum and no method beats it") {
  Failures failures;
  std::size_t checked = 0;
  for (const auto& inst : instances()) {
    if (!inst.all_fatpipe) continue;
    ++checked;
    const Platform& p = inst.platform;
    const double oracle = brute_force(inst);
    const auto cost = route_costs(p);
    for (const char* m : kFixedRouteMethods) {
      const RingPlan* answered = answer(inst, m, failures);
      if (!answered) continue;
      const RingPlan& plan = *answered;
      std::ostringstream d;
      d.precision(17);
      d << m << ": T_step " << plan.tstep << ", brute force " << oracle << ", ring " << ring_string(p, plan.ring);
      if (std::string(m) == "exhaustive" && !close(plan.tstep, oracle)) failures.add("exhaustive T_step != brute force", inst, d.str());
      if (plan.tstep < oracle * (1 - kRel)) failures.add(std::string(m) + " below the optimum", inst, d.str());
      // Nothing is shared: every path can have its route's bottleneck, and every method's
      // allocation gives it (T_step = the ring's complete-graph T_step).
      const double own = ring_tstep_no_sharing(host_speeds(p), cost, inst.load, plan.ring);
      if (!close(plan.tstep, own))
        failures.add(std::string(m) + " T_step != its ring's no-sharing T_step", inst, d.str() + ", ring's " + std::to_string(own));
    }
  }
  CHECK(checked >= 100);
  failures.finish("all-FATPIPE instances", checked);
}

TEST_CASE("fixed routes: every method's answer uses the routes, fits the links, and never beats the no-sharing optimum") {
  Failures failures;
  std::size_t answers = 0, slower = 0;
  std::map<std::size_t, std::size_t> sizes;
  for (const auto& inst : instances()) {
    const Platform& p = inst.platform;
    const RingNetwork net(p);
    const double oracle = brute_force(inst);
    for (const char* m : kFixedRouteMethods) {
      const RingPlan* answered = answer(inst, m, failures);
      if (!answered) continue;
      const RingPlan& plan = *answered;
      ++answers;
      std::ostringstream d;
      d.precision(17);
      d << m << ": T_step " << plan.tstep << ", no-sharing optimum " << oracle << ", ring " << ring_string(p, plan.ring);
      const auto err = check_answer(p, inst.load, testing::to_answer(net, plan));
      if (!err.empty()) failures.add(std::string(m) + " inconsistent answer", inst, d.str() + ": " + err);
      if (!(plan.tstep >= oracle * (1 - kRel))) failures.add(std::string(m) + " below the no-sharing optimum", inst, d.str());
      if (plan.tstep > oracle * (1 + 1e-6)) ++slower;
      if (std::string(m) == "exhaustive") ++sizes[plan.ring.size()];
    }
  }
  std::ostringstream stats;
  stats << "exhaustive's ring sizes:";
  for (const auto& [q, count] : sizes) stats << " " << count << " x " << q;
  MESSAGE(stats.str() << "; " << slower << " of " << answers << " answers slower than the no-sharing optimum");
  failures.finish("every method on every instance (" + std::to_string(answers) + " answers)", instances().size());
}

TEST_CASE("fixed routes: a planner run that crashes is reported as such, and the other runs of its batch are kept") {
  if (std::getenv("RINGSIM_TEST_NO_FORK")) return;  // crashes are caught only in a child
  RingPlan plan;
  plan.ring = {0, 1};
  const std::vector<Outcome> runs = isolated_runs(6, [&](std::size_t i) {
    if (i == 2 || i == 5) std::abort();
    if (i == 3) throw std::invalid_argument("no ring");
    RingPlan p = plan;
    p.tstep = static_cast<double>(i);
    return p;
  });
  REQUIRE(runs.size() == 6);
  for (std::size_t i : {0, 1, 4}) {
    CHECK(runs[i].error.empty());
    CHECK(runs[i].plan.tstep == static_cast<double>(i));
    CHECK(runs[i].plan.ring == plan.ring);
  }
  CHECK(runs[2].error.rfind("crashed: signal 6", 0) == 0);
  CHECK(runs[3].error == "threw: no ring");
  CHECK(runs[5].error.rfind("crashed: signal 6", 0) == 0);
}

TEST_CASE("fixed routes: greedy's branch and bound picks what evaluating every candidate picks") {
  // The bounds that prune (pool_capacity, pair_shared_bandwidth) must hold on asymmetric routes.
  Failures failures;
  std::size_t checked = 0, both_failed = 0;
  const auto& all = instances();
  const GreedyCriterion criteria[] = {GreedyCriterion::eq4, GreedyCriterion::exact};
  // Run 4 k + 2 c + f: instance k, criteria[c], pruned (f = 0) or evaluating every candidate (f = 1).
  const std::vector<Outcome> runs = isolated_runs(4 * all.size(), [&](std::size_t run) {
    const Instance& inst = all[run / 4];
    const RingNetwork net(inst.platform);
    RingOptions options;
    options.criterion = criteria[(run / 2) % 2];
    options.prune = run % 2 == 0;
    return plan_greedy(net, inst.load, Refinement::none, options);
  });
  for (std::size_t k = 0; k < all.size(); ++k) {
    const Instance& inst = all[k];
    ++checked;
    for (std::size_t c = 0; c < 2; ++c) {
      const GreedyCriterion criterion = criteria[c];
      const Outcome& a = runs[4 * k + 2 * c];
      const Outcome& b = runs[4 * k + 2 * c + 1];
      if (!a.error.empty() || !b.error.empty()) {
        if (a.error != b.error)
          failures.add("pruned and full fail differently", inst, "pruned: " + a.error + "; full: " + b.error);
        // Otherwise both failed alike: the test case on every method's answer reports it.
        ++both_failed;
        continue;
      }
      std::ostringstream d;
      d.precision(17);
      d << (criterion == GreedyCriterion::eq4 ? "eq4" : "exact") << ": pruned " << ring_string(inst.platform, a.plan.ring)
        << " T_step " << a.plan.tstep << ", full " << ring_string(inst.platform, b.plan.ring) << " T_step " << b.plan.tstep;
      if (a.plan.ring != b.plan.ring || !(a.plan.tstep == b.plan.tstep)) failures.add("pruned != full", inst, d.str());
    }
  }
  MESSAGE(both_failed << " runs failed alike with and without pruning (reported by the test case on every method)");
  failures.finish("greedy, pruned vs full evaluation", checked);
}

TEST_CASE("fixed routes: on a Vivaldi zone (every route latency-only) every method uses every host") {
  // Every route crosses only the FATPIPE latency-only link of 1e20 B/s: a host's communication
  // time (2 H / 1e20 <= 2e-12 s) is ~1e-14 of its compute time (W / speed >= 2 s), so the best
  // ring is every host, T_step = W / sum of speeds to a relative 1e-9 (kRel), and the greedy
  // reaches it too (each insertion lowers Equation 4).
  Failures failures;
  std::size_t checked = 0;
  for (const auto& inst : instances()) {
    if (!inst.has_latency_only()) continue;
    bool vivaldi = true;
    for (const auto& r : inst.platform.routes) vivaldi = vivaldi && r.links == std::vector<std::size_t>{inst.latency_only};
    if (!vivaldi) continue;
    ++checked;
    double speed_sum = 0.0;
    for (double s : host_speeds(inst.platform)) speed_sum += s;
    const double expected = inst.load.work / speed_sum;
    if (!close(brute_force(inst), expected))
      failures.add("brute force != W / sum of speeds", inst, std::to_string(brute_force(inst)));
    for (const char* m : kFixedRouteMethods) {
      const RingPlan* plan = answer(inst, m, failures);
      if (!plan) continue;
      std::ostringstream d;
      d.precision(17);
      d << m << ": T_step " << plan->tstep << ", W / sum of speeds " << expected << ", ring "
        << ring_string(inst.platform, plan->ring);
      if (!close(plan->tstep, expected)) failures.add(std::string(m) + " T_step != W / sum of speeds", inst, d.str());
      if (plan->ring.size() != inst.platform.host_count())
        failures.add(std::string(m) + " does not use every host", inst, d.str());
    }
  }
  CHECK(checked >= 50);
  failures.finish("Vivaldi zones", checked);
}

TEST_CASE("fixed routes: the oracles of this file catch what they must") {
  // Three hosts; a -> b and b -> a through different links; c reached from a latency-only (as
  // platform/ring_platform.cpp builds it: through the FATPIPE kLatencyOnlyLink of 1e20 B/s).
  Platform p;
  p.routing = ZoneRouting::full;
  const auto a = p.add_host("a", 100e6), b = p.add_host("b", 100e6), c = p.add_host("c", 50e6);
  const auto ab = p.add_link("ab", 10e6, 1e-4), ba = p.add_link("ba", 20e6, 1e-4);
  const auto fat = p.add_link("fat", 5e6, 1e-4, SharingPolicy::fatpipe);
  const auto lo = p.add_link(kLatencyOnlyLink, kLatencyOnlyBandwidth, 0.0, SharingPolicy::fatpipe);
  p.routes = {{a, b, {ab}, false}, {b, a, {ba, fat}, false}, {a, c, {lo}, false},
              {c, a, {ab}, false}, {b, c, {ba}, false},      {c, b, {fat, ab}, false}};
  validate(p);
  const auto bw = route_bandwidths(p);
  CHECK(bw[0][1] == 10e6);
  CHECK(bw[1][0] == 5e6);
  CHECK(bw[0][2] == kLatencyOnlyBandwidth);
  CHECK(route_costs(p)[0][2] == 1.0 / kLatencyOnlyBandwidth);
  const Workload load{1e9, 1e6};
  // Brute force on a hand-computable case: a and b only, T = max(b_i) or the balanced value.
  const double t_ab = ring_tstep_no_sharing(host_speeds(p), route_costs(p), load, {0, 1});
  // a: H (1/10e6 + 1/10e6) = 0.2 s, b: H (2/5e6) = 0.4 s; a_i = 10 s: (2T - 0.6) / 10 = 1 -> T = 5.3.
  CHECK(t_ab == doctest::Approx(5.3).epsilon(1e-12));
  // An answer for ring (a, b): paths a -> b (ab) twice, b -> a (ba, fat) twice.
  oracles::RingAnswer ans;
  ans.ring = {"a", "b"};
  ans.succ_links = {{"ab"}, {"ba", "fat"}};
  ans.pred_links = {{"ab"}, {"ba", "fat"}};
  ans.succ_bw = {5e6, 5e6};
  ans.pred_bw = {5e6, 5e6};
  // a: 2 H / 5e6 = 0.4, b: 0.4: T = (2T - 0.8) / 10 = 1 -> 5.4.
  ans.tstep = 5.4;
  CHECK(check_answer(p, load, ans) == "");
  auto bad = ans;
  bad.succ_bw[0] = 6e6;  // ab carries 11e6 > 10e6
  CHECK(check_answer(p, load, bad).find("SHARED link ab") != std::string::npos);
  bad = ans;
  bad.succ_bw[1] = bad.pred_bw[1] = 6e6;  // fat is 5e6 per path; ba carries 12e6 <= 20e6
  CHECK(check_answer(p, load, bad).find("FATPIPE link fat") != std::string::npos);
  bad = ans;
  bad.succ_links[1] = {"fat", "ba"};  // the links, but not in the route's order
  CHECK(check_answer(p, load, bad).find("route") != std::string::npos);
  bad = ans;
  bad.tstep = 5.3;
  CHECK(check_answer(p, load, bad).find("T_step") != std::string::npos);
  // A latency-only path crosses the latency-only link, a FATPIPE link of 1e20 B/s (by both checks).
  oracles::RingAnswer lat;
  lat.ring = {"a", "c"};
  lat.succ_links = {{kLatencyOnlyLink}, {"ab"}};
  lat.pred_links = {{kLatencyOnlyLink}, {"ab"}};
  lat.succ_bw = {kLatencyOnlyBandwidth, 5e6};
  lat.pred_bw = {kLatencyOnlyBandwidth, 5e6};
  // a: 2 H / 1e20 = 2e-14, c: 2 H / 5e6 = 0.4, a_a = 10, a_c = 20:
  // (T - 2e-14) / 10 + (T - 0.4) / 20 = 1 -> T = (20.4 + 4e-14) / 3.
  lat.tstep = (20.4 + 4e-14) / 3;
  CHECK(check_answer(p, load, lat) == "");
  CHECK(oracles::check_ring_answer(p, load.work, load.comm, lat) == "");
  bad = lat;
  bad.succ_links[0] = {"ab"};  // not a -> c's route
  CHECK(check_answer(p, load, bad) != "");
  bad = lat;
  bad.succ_links[0] = {};  // the route lists the latency-only link: an empty path is not it
  CHECK(check_answer(p, load, bad) != "");
  bad = lat;
  bad.succ_bw[0] = 2 * kLatencyOnlyBandwidth;  // more than the FATPIPE link's 1e20 per path
  CHECK(check_answer(p, load, bad).find(std::string("FATPIPE link ") + kLatencyOnlyLink) != std::string::npos);
}

TEST_CASE("fixed routes: validate() rejects a route that lists no link") {
  // SimGrid's latency-only routes reach the model through kLatencyOnlyLink, never as an empty list.
  auto platform = [](bool empty, bool symmetrical) {
    Platform p;
    p.routing = ZoneRouting::full;
    const auto a = p.add_host("a", 100e6), b = p.add_host("b", 100e6);
    const auto ab = p.add_link("ab", 10e6, 1e-4);
    const auto lo = p.add_link(kLatencyOnlyLink, kLatencyOnlyBandwidth, 0.0, SharingPolicy::fatpipe);
    if (symmetrical) {
      p.routes = {{a, b, empty ? std::vector<std::size_t>{} : std::vector<std::size_t>{lo}, true}};
    } else {
      p.routes = {{a, b, {ab}, false}, {b, a, empty ? std::vector<std::size_t>{} : std::vector<std::size_t>{lo}, false}};
    }
    return p;
  };
  auto error_of = [](const Platform& p) -> std::string {
    try {
      validate(p);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  // Through the latency-only link: accepted.
  CHECK(error_of(platform(false, false)) == "");
  CHECK(error_of(platform(false, true)) == "");
  // Without any link: rejected, the route named.
  const auto one_way = error_of(platform(true, false));
  CHECK_MESSAGE(one_way.find("lists no link") != std::string::npos, one_way);
  CHECK_MESSAGE(one_way.find("'b' -> 'a'") != std::string::npos, one_way);
  const auto both_ways = error_of(platform(true, true));
  CHECK_MESSAGE(both_ways.find("lists no link") != std::string::npos, both_ways);
  CHECK_THROWS_AS(validate(platform(true, false)), InputError);
}
