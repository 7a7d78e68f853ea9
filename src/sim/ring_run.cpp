// The ring's shared state (sim/ring_run.hpp): neighbour mailboxes, speeds, the predicted iteration
// time, the column-conservation check, and setting up a ring's members and costs.
#include "sim/ring_run.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>


#include "model/errors.hpp"
#include "model/tiers_generator.hpp"
#include "planners/redistribution/load_balance.hpp"
#include "sim/app_phases.hpp"

namespace ringsim::sim {

int dummy_payload = 0;

// The least bandwidth (B/s) and speed (flop/s) a ring member's route and host may have.
constexpr double kLeastBandwidth = 1.0;
constexpr double kLeastSpeed = 1.0;

sg4::Mailbox* mailbox(RingRun& r, const char* kind, std::size_t member, const char* side) {
  if (kind[0] == '\0' || kind[1] != '\0' || (side[0] != '\0' && side[1] != '\0'))
    throw std::logic_error("mailbox kinds and sides are one letter");
  const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<unsigned char>(kind[0])) << 56) |
                            (static_cast<std::uint64_t>(static_cast<unsigned char>(side[0])) << 48) | member;
  if (const auto it = r.sync.mailboxes.find(key); it != r.sync.mailboxes.end()) return it->second;
  // by_name is a simcall: other actors run meanwhile, so the entry is made only once it is known.
  sg4::Mailbox* box = sg4::Mailbox::by_name(std::string(kind) + std::to_string(member) + side);
  r.sync.mailboxes.emplace(key, box);
  return box;
}

// Placement iteration (HiPC 2004, Section 7: speeds change "at some iteration"): ringsim applies a
// trace given by iteration itself, at the start of each iteration, so that however iterations
// stretch a change written for iteration k slows iteration k. Other traces are SimGrid profiles.
bool placed_by_iteration(const RingRun& r, const HostTrace& t) {
  return r.app.trace_placement == TracePlacement::iteration && iteration_indexed(t);
}

// Trace t's multiplier during iteration `it`: placed by iteration, its multiplier of that
// iteration; otherwise the profile's at time `clock` (its times counted from `origin`).
double multiplier_during(const RingRun& r, const HostTrace& t, int it, double clock, double origin) {
  if (placed_by_iteration(r, t)) return multiplier_at_iteration(t, it);
  return multiplier_at_time(t, r.iteration_time0, clock, origin);
}

// The speed of a host (peak flop/s, trace t) during iteration `it`: for a profile, the speed the
// profile gives now.
double speed_at_iteration(const RingRun& r, double peak, const HostTrace& t, int it) {
  return peak * multiplier_during(r, t, it, sg4::Engine::get_clock(), r.time_origin);
}

// Member i's true speed at a point after iteration `done` (oracle targets): the speed it computed
// iteration `done` at. A change placed at iteration done + 1 takes effect when that iteration
// starts, after the point, exactly as a profile's change at that moment would: nobody, the oracle
// included, sees it before (and a run replays alike from the times traces.csv gives).
double current_speed(const RingRun& r, std::size_t i, int done) {
  return speed_at_iteration(r, r.peak[i], *r.traces[i], done);
}

// Member i executes `flops` during iteration `it` (or at the point after it). A trace placed by
// iteration leaves the host at its peak speed: the member alone computes on its host, so flops /
// multiplier at the peak take exactly the time flops take at peak * multiplier.
void execute_in_iteration(RingRun& r, std::size_t i, double flops, int it) {
  if (r.traces.empty() || !placed_by_iteration(r, *r.traces[i])) {
    sg4::this_actor::execute(flops);
    return;
  }
  const double m = multiplier_at_iteration(*r.traces[i], it);
  trace_speed_multiplier(r.hosts[i], m);
  sg4::this_actor::execute(flops / m);
}

// Predicted iteration time: the slowest member's computation plus the border exchange.
double predicted_tstep(const RingRun& r, const std::vector<Count>& loads, const std::vector<double>& speeds) {
  double t = 0.0;
  for (std::size_t i = 0; i < r.n; ++i)
    t = std::max(t, static_cast<double>(loads[i]) * r.flops_per_column / speeds[i]);
  return t + r.border_time;
}

// Conservation (docs/design.md, invariants): every column once, each member one contiguous interval
// (cyclically: the application is periodic, P_(n-1)'s last column neighbours P_0's first), the
// intervals in ring order, every member at least one column.
void check_conservation(const RingRun& r, int after_iteration) {
  const long total = r.app.columns;
  long count = 0;
  auto fail = [&](const std::string& why) {
    throw std::logic_error("column conservation violated after iteration " + std::to_string(after_iteration) +
                           ": " + why);
  };
  for (std::size_t i = 0; i < r.n; ++i) {
    const auto& c = r.members[i].columns;
    if (c.empty()) fail("member " + std::to_string(i) + " holds no column");
    for (std::size_t k = 1; k < c.size(); ++k)
      if (c[k] != (c[k - 1] + 1) % total) fail("member " + std::to_string(i) + " holds a non-contiguous interval");
    if ((c.back() + 1) % total != r.members[succ(r, i)].columns.front())
      fail("members " + std::to_string(i) + " and " + std::to_string(succ(r, i)) + " are not in ring order");
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
double measured_speed(const RingRun& r, std::size_t i) {
  const MemberState& m = r.members[i];
  return static_cast<double>(m.columns.size()) * r.flops_per_column / std::max(m.last_compute, 1e-300);
}

// The relative error of measured_speed: its compute time is a difference of two clock readings
// (planners/redistribution/load_balance.hpp).
double measured_speed_error(const RingRun& r, std::size_t i) {
  const MemberState& m = r.members[i];
  return ringsim::measured_speed_error(m.last_compute, m.iter_start + m.last_compute);
}

const HostTrace* trace_of(const RingRun& r, const std::string& host) {
  for (const auto& t : r.all_traces)
    if (t.host == host) return &t;
  throw std::logic_error("no speed trace for host " + host);
}

// Members, their speeds and traces, the neighbour costs of the ring in `hosts` order; starts an
// epoch at iteration `first`. The members' own states are new.
void set_ring(RingRun& r, const std::vector<sg4::Host*>& hosts, int first) {
  r.hosts = hosts;
  r.n = hosts.size();
  r.peak.clear();
  r.traces.clear();
  for (auto* h : hosts) {
    r.peak.push_back(h->get_speed());
    if (!r.all_traces.empty()) r.traces.push_back(trace_of(r, h->get_name()));
  }
  r.cost_next.assign(r.n, 0.0);
  r.cost_prev.assign(r.n, 0.0);
  r.border_time = 0.0;
  for (std::size_t i = 0; i < r.n; ++i) check_resolvable_speed(hosts[i]);
  for (std::size_t i = 0; r.n > 1 && i < r.n; ++i) {
    r.cost_next[i] = column_cost(r.hosts[i], r.hosts[succ(r, i)], r.app.column_bytes);
    r.cost_prev[i] = column_cost(r.hosts[i], r.hosts[pred(r, i)], r.app.column_bytes);
    r.border_time = std::max({r.border_time, r.cost_next[i], r.cost_prev[i]});
  }
  r.rate_next.clear();
  r.rate_prev.clear();
  // The new ring's members start afresh (their columns, policies and knowledge are set next).
  r.members.clear();
  r.members.resize(r.n);
  if (r.out.record_computed_from)
    for (std::size_t i = 0; i < r.n; ++i) r.members[i].computed_from = &r.out.computed_from[r.hosts[i]];
  r.sync.barrier = sg4::Barrier::create(static_cast<unsigned>(r.n));
  if (!r.traces.empty()) r.epochs.push_back({first, r.peak, r.traces, r.border_time});
}

}  // namespace ringsim::sim
