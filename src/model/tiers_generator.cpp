#include "model/tiers_generator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include "model/errors.hpp"

namespace ringsim {

std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t n) {
  // Rejection keeps every residue equally likely: draws >= limit would favour small residues.
  const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % n;
  std::uint64_t r = rng();
  while (r >= limit) r = rng();
  return r % n;
}

double uniform_unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

std::size_t TiersParameters::node_count() const {
  const auto n = [](int v) { return static_cast<std::size_t>(std::max(v, 0)); };
  return n(nw) * (n(sw) + n(nm) * (n(sm) + n(nl) * n(sl)));
}

void validate(const TiersParameters& p) {
  const auto at_least = [](int v, int low, const char* name) {
    if (v < low) throw InputError(std::string(name) + " must be >= " + std::to_string(low) + ", got " + std::to_string(v));
  };
  if (p.nw != 1) throw InputError("NW must be 1: Tiers (and this generator) builds one WAN, got " + std::to_string(p.nw));
  at_least(p.nm, 1, "NM");
  at_least(p.nl, 1, "NL");
  at_least(p.sw, 1, "SW");
  at_least(p.sm, 1, "SM");
  at_least(p.sl, 1, "SL");
  at_least(p.rw, 1, "RW");
  at_least(p.rm, 1, "RM");
  at_least(p.rl, 1, "RL");
  at_least(p.rmw, 1, "RMW");
  at_least(p.rlm, 1, "RLM");
  at_least(p.grid, 1, "the grid size");
  at_least(p.wan_unit, 1, "the WAN grid unit");
  at_least(p.man_unit, 1, "the MAN grid unit");
  at_least(p.lan_unit, 1, "the LAN grid unit");
  if (p.rmw > p.sw) throw InputError("RMW (" + std::to_string(p.rmw) + ") exceeds the WAN's size SW (" + std::to_string(p.sw) + ")");
  if (p.rlm > p.sm) throw InputError("RLM (" + std::to_string(p.rlm) + ") exceeds a MAN's size SM (" + std::to_string(p.sm) + ")");
  const double cells = static_cast<double>(p.grid) * p.grid;
  for (const auto& [v, name] : {std::pair{p.sw, "SW"}, std::pair{p.sm, "SM"}, std::pair{p.sl, "SL"}})
    if (v > cells) throw InputError(std::string(name) + " exceeds the number of grid cells");
  const double total = static_cast<double>(p.sw) + static_cast<double>(p.nm) * (p.sm + static_cast<double>(p.nl) * p.sl);
  if (total > 1e6) throw InputError("the parameters ask for more than a million nodes");
}

namespace {

struct LevelMetrics {
  int bandwidth_class;
  long fixed_delay;
  long delay_per_unit;
};

// Tiers' edge metrics table, as printed in the headers of the reference files.
LevelMetrics metrics(TiersLevel a, TiersLevel b) {
  const int lo = std::min(static_cast<int>(a), static_cast<int>(b));
  const int hi = std::max(static_cast<int>(a), static_cast<int>(b));
  if (lo == 0 && hi == 0) return {10, 5, 1};
  if (lo == 0 && hi == 1) return {10, 50, 1};
  if (lo == 1 && hi == 1) return {100, 100, 10};
  if (lo == 1 && hi == 2) return {100, 1000, 1};
  if (lo == 2 && hi == 2) return {1000, 150, 100};
  return {0, 0, 1};  // WAN-LAN: never generated
}

class TiersBuilder {
 public:
  TiersBuilder(const TiersParameters& p, std::uint64_t seed) : p_(p), rng_(seed) { graph_.parameters = p; }

  TiersGraph build() {
    const auto wan = place(static_cast<std::size_t>(p_.sw), TiersLevel::wan, 0, 0, p_.wan_unit);
    spanning_tree(wan);
    add_redundancy(wan, p_.rw);

    std::vector<std::vector<std::size_t>> mans;
    for (int m = 0; m < p_.nm; ++m) {
      const std::size_t anchor = wan[uniform_below(rng_, wan.size())];
      auto man = place_around(anchor, static_cast<std::size_t>(p_.sm), TiersLevel::man, p_.man_unit);
      spanning_tree(man);
      add_redundancy(man, p_.rm);
      attach(nearest(anchor, man), anchor, wan, p_.rmw);
      mans.push_back(std::move(man));
    }
    for (const auto& man : mans)
      for (int l = 0; l < p_.nl; ++l) {
        const std::size_t anchor = man[uniform_below(rng_, man.size())];
        const auto lan = place_around(anchor, static_cast<std::size_t>(p_.sl), TiersLevel::lan, p_.lan_unit);
        star(lan);
        add_redundancy(lan, p_.rl);
        attach(lan.front(), anchor, man, p_.rlm);
      }
    return std::move(graph_);
  }

 private:
  // `count` nodes on distinct random cells of a grid whose corner is (x0, y0).
  std::vector<std::size_t> place(std::size_t count, TiersLevel level, long x0, long y0, int unit) {
    std::set<std::pair<long, long>> used;
    std::vector<std::size_t> ids;
    while (ids.size() < count) {
      const auto cx = static_cast<long>(uniform_below(rng_, static_cast<std::uint64_t>(p_.grid)));
      const auto cy = static_cast<long>(uniform_below(rng_, static_cast<std::uint64_t>(p_.grid)));
      if (!used.insert({cx, cy}).second) continue;
      ids.push_back(graph_.nodes.size());
      graph_.nodes.push_back({x0 + cx * unit, y0 + cy * unit, level});
      adjacent_.emplace_back();
    }
    return ids;
  }

  // A lower-level network's grid is centred on the node it hangs from.
  std::vector<std::size_t> place_around(std::size_t anchor, std::size_t count, TiersLevel level, int unit) {
    const long half = static_cast<long>(p_.grid) * unit / 2;
    return place(count, level, graph_.nodes[anchor].x - half, graph_.nodes[anchor].y - half, unit);
  }

  double distance(std::size_t a, std::size_t b) const {
    const double dx = static_cast<double>(graph_.nodes[a].x - graph_.nodes[b].x);
    const double dy = static_cast<double>(graph_.nodes[a].y - graph_.nodes[b].y);
    return std::sqrt(dx * dx + dy * dy);
  }

  bool adjacent(std::size_t a, std::size_t b) const { return adjacent_[a].count(b) > 0; }

  void add_edge(std::size_t a, std::size_t b, int state) {
    const auto la = graph_.nodes[a].level, lb = graph_.nodes[b].level;
    const auto m = metrics(la, lb);
    long delay = m.fixed_delay + m.delay_per_unit;  // internetwork edges: one distance unit
    if (la == lb) {
      const int unit = la == TiersLevel::wan ? p_.wan_unit : la == TiersLevel::man ? p_.man_unit : p_.lan_unit;
      const auto units = static_cast<long>(std::floor(distance(a, b) / unit));
      delay = m.fixed_delay + m.delay_per_unit * units * unit;
    }
    graph_.edges.push_back({a, b, delay, m.bandwidth_class, state});
    adjacent_[a].insert(b);
    adjacent_[b].insert(a);
  }

  // Prim's minimum spanning tree over Euclidean distances; ties go to lower node ids.
  void spanning_tree(const std::vector<std::size_t>& ids) {
    const std::size_t n = ids.size();
    std::vector<bool> in_tree(n, false);
    std::vector<double> best(n, std::numeric_limits<double>::infinity());
    std::vector<std::size_t> parent(n, 0);
    best[0] = 0;
    for (std::size_t step = 0; step < n; ++step) {
      std::size_t u = n;
      for (std::size_t i = 0; i < n; ++i)
        if (!in_tree[i] && (u == n || best[i] < best[u])) u = i;
      in_tree[u] = true;
      if (step > 0) add_edge(ids[parent[u]], ids[u], 1);
      for (std::size_t i = 0; i < n; ++i) {
        const double d = distance(ids[u], ids[i]);
        if (!in_tree[i] && d < best[i]) {
          best[i] = d;
          parent[i] = u;
        }
      }
    }
  }

  void star(const std::vector<std::size_t>& ids) {
    for (std::size_t i = 1; i < ids.size(); ++i) add_edge(ids.front(), ids[i], 1);
  }

  // The node of `candidates` nearest to `from` (not `from`, not yet adjacent to it), if any.
  std::optional<std::size_t> nearest_free(std::size_t from, const std::vector<std::size_t>& candidates) const {
    std::optional<std::size_t> best;
    for (auto c : candidates) {
      if (c == from || adjacent(from, c)) continue;
      if (!best || distance(from, c) < distance(from, *best)) best = c;
    }
    return best;
  }

  std::size_t nearest(std::size_t from, const std::vector<std::size_t>& candidates) const {
    std::size_t best = candidates.front();
    for (auto c : candidates)
      if (distance(from, c) < distance(from, best)) best = c;
    return best;
  }

  void add_redundancy(const std::vector<std::size_t>& ids, int redundancy) {
    for (auto v : ids)
      while (adjacent_[v].size() < static_cast<std::size_t>(redundancy)) {
        const auto c = nearest_free(v, ids);
        if (!c) break;
        add_edge(v, *c, 2);
      }
  }

  // `gateway` joins `anchor` (state 3) and its redundancy - 1 nearest other nodes of `upper` (state 4).
  void attach(std::size_t gateway, std::size_t anchor, const std::vector<std::size_t>& upper, int redundancy) {
    add_edge(gateway, anchor, 3);
    for (int k = 1; k < redundancy; ++k) {
      const auto c = nearest_free(gateway, upper);
      if (!c) break;
      add_edge(gateway, *c, 4);
    }
  }

  const TiersParameters& p_;
  std::mt19937_64 rng_;
  TiersGraph graph_;
  std::vector<std::set<std::size_t>> adjacent_;
};

// Conversion draws come from their own stream, so that a graph read back from a .tiers file
// converts exactly as the generated one with the same seed.
std::mt19937_64 conversion_rng(std::uint64_t seed) {
  std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32), 0x7469u, 0x6572u};
  return std::mt19937_64(seq);
}

std::vector<bool> choose_hosts(const TiersGraph& graph, const TiersConversion& conv, std::mt19937_64& rng) {
  std::vector<std::size_t> lan;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i)
    if (graph.nodes[i].level == TiersLevel::lan) lan.push_back(i);
  std::vector<bool> host(graph.nodes.size(), false);
  if (conv.host_count) {
    if (*conv.host_count > lan.size())
      throw InputError("cannot choose " + std::to_string(*conv.host_count) + " hosts among " +
                       std::to_string(lan.size()) + " LAN nodes");
    for (std::size_t k = 0; k < *conv.host_count; ++k) {  // partial Fisher-Yates
      const auto j = k + static_cast<std::size_t>(uniform_below(rng, lan.size() - k));
      std::swap(lan[k], lan[j]);
      host[lan[k]] = true;
    }
  } else {
    if (!(conv.host_probability > 0 && conv.host_probability <= 1))
      throw InputError("the host probability must be in (0, 1], got " + std::to_string(conv.host_probability));
    for (auto v : lan) host[v] = uniform_unit(rng) < conv.host_probability;
  }
  if (std::find(host.begin(), host.end(), true) == host.end())
    throw InputError("no LAN node was chosen as a host (" + std::to_string(lan.size()) + " LAN nodes)");
  return host;
}

}  // namespace

TiersGraph generate_tiers_graph(const TiersParameters& params, std::uint64_t seed) {
  validate(params);
  return TiersBuilder(params, seed).build();
}

const MeasuredValues& embedded_measured_values() {
  // Provenance: SimGrid repository history, tools/platform_generation/tiers_simgrid.pl (commits
  // a2aa100e52, 2005, and 62e3231a0c, 2006), as kept in platforms/measured_platform_values.json:
  // LINPACK-based MFlops of 12 machines (popc0, canaria, lancelot, sci0, pellinore, shaitan,
  // dinadan, darjeeling, moby, gauvain, caseb, sekhmet), and (bandwidth MB/s, latency ms) pairs
  // measured with pathchar between ENS Lyon and other sites, per Tiers bandwidth class.
  // tests/test_platform_tiers.cpp checks that these equal platforms/measured_platform_values.json.
  static const MeasuredValues values = [] {
    MeasuredValues v;
    v.machine_mflops = {22.151, 34.333, 42.917, 48.492, 68.667, 76.296,
                        85.833, 98.095, 114.444, 114.444, 137.333, 171.667};
    v.link_classes[10] = {{34.285625, 0.514433}, {41.279125, 0.059904}, {118.6825, 0.136931},
                          {132.977875, 0.131098}, {255.228625, 7.413073}};
    v.link_classes[100] = {{8.015125, 35.076518}, {8.158, 0.270544},    {8.42725, 0.156056},
                           {10.099625, 0.47978},  {10.314625, 6.932556}, {11.618875, 0.18998},
                           {11.845375, 0.370788}, {15.376875, 35.083019}, {21.41475, 295.890617},
                           {27.94625, 0.278066},  {34.285625, 0.514433}, {41.279125, 0.059904}};
    v.link_classes[1000] = {
        {0.117125, 53.930106}, {0.251625, 4.455826}, {0.25275, 5.70455},   {0.253125, 5.652577},
        {0.259125, 4.460898},  {0.272375, 5.922616}, {0.274375, 4.669142}, {0.290125, 4.522355},
        {0.290875, 4.47727},   {0.303375, 4.062241}, {0.317375, 4.583831}, {0.472125, 5.161451},
        {0.556, 3.101854},     {0.578625, 5.473705}, {0.605, 87.981858},   {0.721625, 0.006406},
        {0.76875, 8.76244},    {0.926625, 0.601375}, {0.979625, 0.424305}, {0.983375, 2.885584},
        {0.9905, 1.742977},    {1.04925, 9.647856},  {1.126875, 0.28784},  {1.2015, 0.46813},
        {1.23025, 1.502106},   {1.258625, 1.340162}, {1.281875, 6.104672}, {1.326125, 1.402769},
        {1.37675, 0.449267},   {1.4655, 0.863872},   {1.467625, 0.869727}, {1.469125, 1.114548},
        {1.5125, 1.200141},    {1.51525, 0.844683},  {1.564125, 0.788956}, {1.62775, 0.278175},
        {1.792625, 7.877863},  {1.858, 0.820952},    {1.8855, 0.950938},   {1.888875, 1.081287},
        {1.892625, 0.162735},  {1.931125, 0.95183},  {1.974625, 0.380044}, {1.9835, 0.848211},
        {2.179125, 0.320114},  {2.227375, 0.90712},  {2.23825, 1.043314},  {2.29775, 1.087968},
        {2.3485, 0.259761},    {2.368, 9.547561},    {2.583375, 0.410463}, {2.608, 0.637001},
        {2.81825, 0.247605},   {3.028375, 0.677908}, {3.068375, 0.0403},   {3.1755, 0.472524},
        {3.275625, 0.658142},  {3.29775, 0.595883},  {3.37125, 0.666676},  {3.430125, 0.536941},
        {3.552, 3.870785},     {3.71425, 3.866813},  {3.8775, 0.863123},   {3.9315, 1.913591},
        {3.9955, 0.678645},    {4.133375, 9.693542}, {4.17225, 0.728103},  {4.27025, 0.672289},
        {4.295375, 0.539},     {4.39725, 0.677601},  {4.416625, 0.019773}, {4.461125, 0.106949},
        {4.485125, 0.126045},  {4.65025, 0.705967},  {4.67975, 0.848712},  {4.817, 0.117352},
        {4.840375, 0.75181},   {4.97825, 7.164412},  {5.18975, 0.630529},  {5.228375, 0.039417},
        {5.299, 0.520693},     {5.466125, 0.272268}, {5.574625, 0.22743},  {5.722, 0.789218},
        {5.7585, 4.760145},    {5.816375, 0.164758}, {6.551, 0.522878},    {6.777, 0.53334},
        {7.20975, 1.461517},   {7.534, 0.125428}};
    return v;
  }();
  return values;
}

Platform tiers_to_platform(const TiersGraph& graph, const MeasuredValues& values, const TiersConversion& conv) {
  if (values.machine_mflops.empty()) throw InputError("the measured values list no machine");
  auto rng = conversion_rng(conv.seed);
  const auto host = choose_hosts(graph, conv, rng);

  Platform p;
  p.routing = conv.routing;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    if (host[i]) {
      const double mflops = values.machine_mflops[uniform_below(rng, values.machine_mflops.size())];
      p.add_host("h" + std::to_string(i), mflops * 1e6);
    } else {
      p.add_router("r" + std::to_string(i));
    }
  }
  for (const auto& e : graph.edges) {
    const auto it = values.link_classes.find(e.bandwidth_class);
    if (it == values.link_classes.end() || it->second.empty())
      throw InputError("no measured link values for Tiers bandwidth class " + std::to_string(e.bandwidth_class));
    const auto& m = it->second[uniform_below(rng, it->second.size())];
    const auto a = std::min(e.from, e.to), b = std::max(e.from, e.to);
    const auto link = p.add_link("l" + std::to_string(a) + "-" + std::to_string(b), m.bandwidth_MBps * 1e6,
                                 m.latency_ms * 1e-3);
    p.add_edge(e.from, e.to, link);
  }
  if (conv.prune_routers) prune_dead_end_routers(p);
  validate(p);
  return p;
}

Platform tiers_platform_with_hosts(std::size_t hosts, std::uint64_t seed, const TiersShape& shape) {
  TiersParameters tp;
  tp.nw = 1;
  tp.sw = shape.wan_nodes;
  tp.sm = shape.man_nodes;
  tp.nl = shape.lans_per_man;
  tp.sl = shape.lan_nodes;
  const std::size_t lan_nodes_per_man = static_cast<std::size_t>(shape.lans_per_man * shape.lan_nodes);
  tp.nm = static_cast<int>((hosts * 5 / 4 + lan_nodes_per_man - 1) / lan_nodes_per_man);
  tp.rw = 2;
  tp.rm = 2;
  tp.rl = 1;
  tp.rmw = 2;
  tp.rlm = 1;
  TiersConversion conv;
  conv.seed = seed;
  conv.host_count = hosts;
  conv.prune_routers = true;
  Platform p = tiers_to_platform(generate_tiers_graph(tp, seed), embedded_measured_values(), conv);
  validate(p);
  return p;
}

}  // namespace ringsim
