#include "oracles/fixed_route_platforms.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

namespace ringsim::testing {
namespace {

// One zone of the hierarchy: a cluster (private links, optional backbone) or a Vivaldi-like zone
// (no link inside: latency-only routes, given the kLatencyOnlyLink link in make_fixed_route_instance).
struct Zone {
  std::vector<std::size_t> hosts;     // platform nodes
  std::vector<std::size_t> up, down;  // per host of the zone (up == down: one SHARED link for both ways)
  std::size_t backbone = kNoRouteLink;
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
        z.up.push_back(kNoRouteLink);
        z.down.push_back(kNoRouteLink);
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

void push_link(std::vector<std::size_t>& v, std::size_t l) {
  if (l != kNoRouteLink) v.push_back(l);
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
      << (zones.back().backbone == kNoRouteLink ? ""
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
      std::size_t core = kNoRouteLink;
      if (b.coin(0.5)) core = b.link("core", b.sharing(0.5));
      for (std::size_t c = 0; c < nzones; ++c)
        for (std::size_t d = 0; d < nzones; ++d)
          if (c != d) {
            inter[c][d] = to_core[c];
            push_link(inter[c][d], core);
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
      push_link(r, za.up[index_in[a]]);
      push_link(r, za.backbone);
      if (zone_of[a] != zone_of[c]) {
        const auto& w = inter[zone_of[a]][zone_of[c]];
        r.insert(r.end(), w.begin(), w.end());
        push_link(r, zc.backbone);
      }
      push_link(r, zc.down[index_in[c]]);
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

}  // namespace

FixedRouteInstance make_fixed_route_instance(std::mt19937_64& rng, int id) {
  FixedRouteInstance inst;
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
          if (inst.latency_only == kNoRouteLink)
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

const std::vector<FixedRouteInstance>& fixed_route_instances() {
  static const std::vector<FixedRouteInstance> all = [] {
    std::mt19937_64 rng(0x51B6'2005'F011ULL);
    std::vector<FixedRouteInstance> v;
    for (int id = 0; id < 540; ++id) v.push_back(make_fixed_route_instance(rng, id));
    return v;
  }();
  return all;
}

std::string describe(const FixedRouteInstance& inst) {
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

}  // namespace ringsim::testing
