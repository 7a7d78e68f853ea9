// The helpers of the run's state (sim/run_state.hpp): neighbour mailboxes, speeds, the predicted
// iteration time, the column-conservation check, and a ring's shape and fresh members.
#include "sim/run_state.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>


#include "model/errors.hpp"
#include "model/tiers_generator.hpp"
#include "planners/redistribution/load_balance.hpp"
#include "sim/app_phases.hpp"

namespace ringsim::sim {

int dummy_payload = 0;

// The least bandwidth (B/s) and speed (flop/s) a ring member's route and host may have.
constexpr double kLeastBandwidth = 1.0;
constexpr double kLeastSpeed = 1.0;

sg4::Mailbox* Mailboxes::get(const char* kind, std::size_t member, const char* side) {
  if (kind[0] == '\0' || kind[1] != '\0' || (side[0] != '\0' && side[1] != '\0'))
    throw std::logic_error("mailbox kinds and sides are one letter");
  const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<unsigned char>(kind[0])) << 56) |
                            (static_cast<std::uint64_t>(static_cast<unsigned char>(side[0])) << 48) | member;
  if (const auto it = found_.find(key); it != found_.end()) return it->second;
  // by_name is a simcall: other actors run meanwhile, so the entry is made only once it is known.
  sg4::Mailbox* box = sg4::Mailbox::by_name(std::string(kind) + std::to_string(member) + side);
  found_.emplace(key, box);
  return box;
}

// Placement iteration (HiPC 2004, Section 7: speeds change "at some iteration"): ringsim applies a
// trace given by iteration itself, at the start of each iteration, so that however iterations
// stretch a change written for iteration k slows iteration k. Other traces are SimGrid profiles.
bool placed_by_iteration(const RunSetup& s, const HostTrace& t) {
  return s.app.trace_placement == TracePlacement::iteration && iteration_indexed(t);
}

// Trace t's multiplier during iteration `it`: placed by iteration, its multiplier of that
// iteration; otherwise the profile's at time `clock` (its times counted from `origin`).
double multiplier_during(const RunSetup& s, const HostTrace& t, int it, double clock, double origin) {
  if (placed_by_iteration(s, t)) return multiplier_at_iteration(t, it);
  return multiplier_at_time(t, s.iteration_time0, clock, origin);
}

// The speed of a host (peak flop/s, trace t) during iteration `it`: for a profile, the speed the
// profile gives now.
double speed_at_iteration(const RunSetup& s, double peak, const HostTrace& t, int it) {
  return peak * multiplier_during(s, t, it, sg4::Engine::get_clock(), s.time_origin);
}

// Member i's true speed at a point after iteration `done` (oracle targets): the speed it computed
// iteration `done` at. A change placed at iteration done + 1 takes effect when that iteration
// starts, after the point, exactly as a profile's change at that moment would: nobody, the oracle
// included, sees it before (and a run replays alike from the times traces.csv gives).
double current_speed(const RunSetup& s, const RingShape& ring, std::size_t i, int done) {
  return speed_at_iteration(s, ring.peak[i], *ring.traces[i], done);
}

// Member i executes `flops` during iteration `it` (or at the point after it). A trace placed by
// iteration leaves the host at its peak speed: the member alone computes on its host, so flops /
// multiplier at the peak take exactly the time flops take at peak * multiplier.
void execute_in_iteration(const RunSetup& s, const RingShape& ring, std::size_t i, double flops, int it) {
  if (ring.traces.empty() || !placed_by_iteration(s, *ring.traces[i])) {
    sg4::this_actor::execute(flops);
    return;
  }
  const double m = multiplier_at_iteration(*ring.traces[i], it);
  trace_speed_multiplier(ring.hosts[i], m);
  sg4::this_actor::execute(flops / m);
}

// Predicted iteration time: the slowest member's computation plus the border exchange.
double predicted_tstep(const RunSetup& s, const RingShape& ring, const std::vector<Count>& loads,
                       const std::vector<double>& speeds) {
  double t = 0.0;
  for (std::size_t i = 0; i < ring.n; ++i)
    t = std::max(t, static_cast<double>(loads[i]) * s.flops_per_column / speeds[i]);
  return t + ring.border_time;
}

// Conservation (docs/design.md, invariants): every column once, each member one contiguous interval
// (cyclically: the application is periodic, P_(n-1)'s last column neighbours P_0's first), the
// intervals in ring order, every member at least one column.
void check_conservation(long columns, const std::vector<MemberState>& members, int after_iteration) {
  const long total = columns;
  const std::size_t n = members.size();
  long count = 0;
  auto fail = [&](const std::string& why) {
    throw std::logic_error("column conservation violated after iteration " + std::to_string(after_iteration) +
                           ": " + why);
  };
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t next = (i + 1) % n;
    const auto& c = members[i].columns;
    if (c.empty()) fail("member " + std::to_string(i) + " holds no column");
    for (std::size_t k = 1; k < c.size(); ++k)
      if (c[k] != (c[k - 1] + 1) % total) fail("member " + std::to_string(i) + " holds a non-contiguous interval");
    if ((c.back() + 1) % total != members[next].columns.front())
      fail("members " + std::to_string(i) + " and " + std::to_string(next) + " are not in ring order");
    count += static_cast<long>(c.size());
  }
  if (count != total) fail(std::to_string(count) + " columns held instead of " + std::to_string(total));
}

// The platform's route from a to b: its latency and its bottleneck bandwidth (infinite without links).
void route_latency_bandwidth(const sg4::Host* a, const sg4::Host* b, double& latency, double& bandwidth) {
  std::vector<sg4::Link*> links;
  latency = 0.0;
  a->route_to(b, links, &latency);
  bandwidth = INFINITY;
  for (const auto* l : links) bandwidth = std::min(bandwidth, l->get_bandwidth());
}

// Time for one column over the platform's route: latency plus bytes over the bottleneck. A link
// SimGrid cannot resolve (0 B/s, or so slow that a column takes forever) would stop the run with a
// deadlock: it is refused, naming the route.
static double column_cost(const sg4::Host* a, const sg4::Host* b, double bytes) {
  double latency = 0.0, bw = INFINITY;
  route_latency_bandwidth(a, b, latency, bw);
  const double cost = latency + (std::isfinite(bw) ? bytes / bw : 0.0);
  if (!(bw >= kLeastBandwidth) || !std::isfinite(cost))
    throw InputError("the route from '" + a->get_name() + "' to '" + b->get_name() + "' has a bottleneck of " +
                     std::to_string(bw) + " B/s: ring links must have a bandwidth of at least 1 B/s");
  return cost;
}

// A member's host computes at a speed SimGrid resolves (a 0 flop/s host never finishes).
static void check_resolvable_speed(const sg4::Host* h) {
  if (!(h->get_speed() >= kLeastSpeed && std::isfinite(h->get_speed())))
    throw InputError("host '" + h->get_name() + "' has a speed of " + std::to_string(h->get_speed()) +
                     " flop/s: ring members need a finite speed of at least 1 flop/s");
}

// Member i's speed as it measures it: its columns' work over its last computation time.
double measured_speed(const RunSetup& s, const MemberState& m) {
  return static_cast<double>(m.columns.size()) * s.flops_per_column / std::max(m.last_compute, 1e-300);
}

// The relative error of measured_speed: its compute time is a difference of two clock readings
// (planners/redistribution/load_balance.hpp).
double measured_speed_error(const MemberState& m) {
  return redistribution::measured_speed_error(m.last_compute, m.iter_start + m.last_compute);
}

const HostTrace* trace_of(const RunSetup& s, const std::string& host) {
  for (const auto& t : s.all_traces)
    if (t.host == host) return &t;
  throw std::logic_error("no speed trace for host " + host);
}

points::NeighbourRoutes neighbour_routes(const RunSetup& s, const RingShape& ring) {
  points::NeighbourRoutes b;
  if (ring.n < 2) return b;
  std::unordered_map<const sg4::Link*, std::size_t> index;
  std::vector<std::size_t> carried;
  std::vector<double> least, most;  // per link, the least and most sharing penalty of the routes it carries
  auto route = [&](std::size_t from, std::size_t to, std::vector<std::size_t>& links, double& latency) {
    std::vector<sg4::Link*> path;
    latency = 0.0;
    ring.hosts[from]->route_to(ring.hosts[to], path, &latency);
    const double penalty = points::sharing_penalty(latency);
    for (const sg4::Link* l : path) {
      auto [it, added] = index.emplace(l, b.capacity.size());
      if (added) {
        b.capacity.push_back(l->get_bandwidth());
        b.shared.push_back(l->get_sharing_policy() != sg4::Link::SharingPolicy::FATPIPE);
        carried.push_back(0);
        least.push_back(penalty);
        most.push_back(penalty);
      }
      const std::size_t k = it->second;
      links.push_back(k);
      ++carried[k];
      least[k] = std::min(least[k], penalty);
      most[k] = std::max(most[k], penalty);
    }
  };
  b.next_links.resize(ring.n);
  b.prev_links.resize(ring.n);
  b.next_latency.resize(ring.n);
  b.prev_latency.resize(ring.n);
  for (std::size_t i = 0; i < ring.n; ++i) {
    route(i, ring.succ(i), b.next_links[i], b.next_latency[i]);
    route(i, ring.pred(i), b.prev_links[i], b.prev_latency[i]);
  }
  b.next_rate = ring.rate_next.empty() ? std::vector<double>(ring.n, INFINITY) : ring.rate_next;
  b.prev_rate = ring.rate_prev.empty() ? std::vector<double>(ring.n, INFINITY) : ring.rate_prev;
  b.bytes = s.app.column_bytes;
  bool contended = false;
  for (std::size_t l = 0; l < carried.size(); ++l)
    contended = contended || (carried[l] > 1 && (b.shared[l] || least[l] != most[l]));
  return contended ? b : points::NeighbourRoutes{};
}

// The ring in `hosts` order from iteration `first` on: its speeds and traces, and its neighbour
// costs, refused when SimGrid could not resolve them.
RingShape ring_shape(const RunSetup& s, const std::vector<sg4::Host*>& hosts, int first) {
  RingShape ring;
  ring.first = first;
  ring.hosts = hosts;
  ring.n = hosts.size();
  for (auto* h : hosts) {
    ring.peak.push_back(h->get_speed());
    if (!s.all_traces.empty()) ring.traces.push_back(trace_of(s, h->get_name()));
  }
  ring.cost_next.assign(ring.n, 0.0);
  ring.cost_prev.assign(ring.n, 0.0);
  for (std::size_t i = 0; i < ring.n; ++i) check_resolvable_speed(hosts[i]);
  for (std::size_t i = 0; ring.n > 1 && i < ring.n; ++i) {
    ring.cost_next[i] = column_cost(ring.hosts[i], ring.hosts[ring.succ(i)], s.app.column_bytes);
    ring.cost_prev[i] = column_cost(ring.hosts[i], ring.hosts[ring.pred(i)], s.app.column_bytes);
    ring.border_time = std::max({ring.border_time, ring.cost_next[i], ring.cost_prev[i]});
  }
  ring.routes = neighbour_routes(s, ring);
  return ring;
}

void start_ring(const RingShape& ring, RingMembers& members, RingSync& sync) {
  members.states.clear();
  members.states.resize(ring.n);
  sync.barrier = sg4::Barrier::create(static_cast<unsigned>(ring.n));
}

}  // namespace ringsim::sim
