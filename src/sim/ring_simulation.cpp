#include "sim/ring_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>

#include <simgrid/kernel/ProfileBuilder.hpp>
#include <simgrid/s4u.hpp>
#include <simgrid/version.h>

#include "io/json_input.hpp"
#include "planners/ring/ring_planner.hpp"
#include "sim/platform_loader.hpp"
#include "sim/platform_reader.hpp"
#include "sim/platform_speed_profiles.hpp"
#include "sim/reachable_hosts.hpp"
#include "sim/ring_platform.hpp"
#include "model/errors.hpp"
#include "model/replay.hpp"
#include "model/speed_traces.hpp"
#include "model/tiers_generator.hpp"
#include "planners/redistribution/load_balance.hpp"
#include "planners/redistribution/planner.hpp"
#include "model/column_moves.hpp"
#include "model/storage_cluster.hpp"
#include "sim/column_transfer.hpp"

XBT_LOG_NEW_DEFAULT_CATEGORY(ringsim_app, "ringsim: the iterative application on a ring");

namespace sg4 = simgrid::s4u;

namespace ringsim {
namespace {

// The ring in effect from iteration `first` on (a rebuild starts a new one), for the ideal time.
struct RingEpoch {
  int first = 1;
  std::vector<double> peak;
  std::vector<const HostTrace*> traces;
  double border_time = 0.0;
};

// Everything the ring members share. Actors receive a pointer to it: state is explicit.
struct RingRun {
  const RunConfig* cfg = nullptr;
  std::size_t n = 0;
  std::vector<sg4::Host*> hosts;
  std::vector<double> peak;                 // flop/s
  std::vector<const HostTrace*> traces;      // the members' traces, in all_traces
  std::vector<HostTrace> all_traces;         // every host that is ever a member
  double iteration_time0 = 0.0;
  double time_origin = 0.0;                  // iterations (and the traces) start after the staging
  std::vector<RingEpoch> epochs;
  double flops_per_column = 0.0;
  double column_bytes = 0.0;
  std::vector<double> cost_next, cost_prev;  // one column to the neighbour: latency + bytes / bandwidth
  double border_time = 0.0;                  // predicted border exchange of one iteration
  std::vector<double> rate_next, rate_prev;   // planner bandwidth shares for the borders (empty: none)

  std::vector<std::deque<long>> columns;     // the columns each member holds, in order
  std::vector<double> last_compute;          // seconds, last iteration (measured targets)
  std::vector<double> iter_start, iter_end, iter_span;  // per member, current iteration
  std::vector<IterationRecord> iterations;
  std::vector<RedistributionRecord> points;
  std::set<int> after;                       // redistribution points
  std::map<int, std::size_t> rebuild_at;     // iteration -> index in cfg->rebuilds
  std::vector<std::vector<sg4::Host*>> rebuild_rings;

  // Columns on their way to the members (staging, rebuild): the interval each member will hold and
  // what has arrived of it. A member starts iterating once its interval is complete.
  std::vector<ColumnInterval> incoming;
  std::vector<std::vector<long>> slots;
  std::vector<long> filled;
  bool moving = false;        // a staging or rebuild move is being played
  bool start_early = false;   // members start once their own interval is complete ("overlap")
  sim::ColumnTransfer staging_plan;
  ColumnTransferRecord staging;
  std::vector<ColumnTransferRecord> rebuilds;

  sg4::BarrierPtr barrier;
  sg4::MutexPtr mutex;
  sg4::ConditionVariablePtr column_arrived;

  // Decided by member 0 at each redistribution point, read by all after a barrier.
  RedistributionPlan plan;
  bool transfer = false;
};

int dummy_payload = 0;

std::size_t succ(const RingRun& r, std::size_t i) { return (i + 1) % r.n; }
std::size_t pred(const RingRun& r, std::size_t i) { return (i + r.n - 1) % r.n; }

sg4::Mailbox* mailbox(const char* kind, std::size_t member, const char* side) {
  return sg4::Mailbox::by_name(std::string(kind) + std::to_string(member) + side);
}

double current_speed(const RingRun& r, std::size_t i) {
  return r.peak[i] * multiplier_at_time(*r.traces[i], r.iteration_time0, sg4::Engine::get_clock(), r.time_origin);
}

// Predicted iteration time: the slowest member's computation plus the border exchange.
double predicted_tstep(const RingRun& r, const std::vector<Count>& loads, const std::vector<double>& speeds) {
  double t = 0.0;
  for (std::size_t i = 0; i < r.n; ++i)
    t = std::max(t, static_cast<double>(loads[i]) * r.flops_per_column / speeds[i]);
  return t + r.border_time;
}

// Conservation (DESIGN.md invariants): every column once, each member one contiguous interval
// (cyclically: the application is periodic, P_(n-1)'s last column neighbours P_0's first), the
// intervals in ring order, every member at least one column.
void check_conservation(const RingRun& r, int after_iteration) {
  const long total = r.cfg->columns;
  long count = 0;
  auto fail = [&](const std::string& why) {
    throw std::logic_error("column conservation violated after iteration " + std::to_string(after_iteration) +
                           ": " + why);
  };
  for (std::size_t i = 0; i < r.n; ++i) {
    const auto& c = r.columns[i];
    if (c.empty()) fail("member " + std::to_string(i) + " holds no column");
    for (std::size_t k = 1; k < c.size(); ++k)
      if (c[k] != (c[k - 1] + 1) % total) fail("member " + std::to_string(i) + " holds a non-contiguous interval");
    if ((c.back() + 1) % total != r.columns[succ(r, i)].front())
      fail("members " + std::to_string(i) + " and " + std::to_string(succ(r, i)) + " are not in ring order");
    count += static_cast<long>(c.size());
  }
  if (count != total) fail(std::to_string(count) + " columns held instead of " + std::to_string(total));
}

// One iteration of member i: compute, then exchange border columns with both neighbours.
void iterate(RingRun& r, std::size_t i, int it) {
  const double start = sg4::Engine::get_clock();
  sg4::this_actor::execute(static_cast<double>(r.columns[i].size()) * r.flops_per_column);
  r.last_compute[i] = sg4::Engine::get_clock() - start;
  if (r.n > 1) {
    int* from_pred = nullptr;
    int* from_succ = nullptr;
    std::vector<sg4::CommPtr> comms;
    comms.push_back(mailbox("b", i, "p")->get_async<int>(&from_pred));
    comms.push_back(mailbox("b", i, "s")->get_async<int>(&from_succ));
    auto to_succ = mailbox("b", succ(r, i), "p")->put_init(&dummy_payload, static_cast<uint64_t>(r.column_bytes));
    auto to_pred = mailbox("b", pred(r, i), "s")->put_init(&dummy_payload, static_cast<uint64_t>(r.column_bytes));
    if (!r.rate_next.empty()) {  // the ring planner's bandwidth fractions (SharedRing model)
      to_succ->set_rate(r.rate_next[i]);
      to_pred->set_rate(r.rate_prev[i]);
    }
    comms.push_back(to_succ->start());
    comms.push_back(to_pred->start());
    sg4::Comm::wait_all(comms);
  }
  const double end = sg4::Engine::get_clock();
  r.iter_start[i] = start;
  r.iter_end[i] = end;
  r.iter_span[i] = end - start;
  (void)it;
}

void record_iteration(RingRun& r, int it) {
  IterationRecord rec;
  rec.iteration = it;
  rec.start = *std::min_element(r.iter_start.begin(), r.iter_start.end());
  rec.end = *std::max_element(r.iter_end.begin(), r.iter_end.end());
  const auto slowest = std::max_element(r.iter_span.begin(), r.iter_span.end()) - r.iter_span.begin();
  rec.slowest = r.hosts[static_cast<std::size_t>(slowest)]->get_name();
  for (const auto& c : r.columns) rec.loads.push_back(static_cast<long>(c.size()));
  r.iterations.push_back(std::move(rec));
}

// All-gather of the members' reports around the ring: n-1 rounds, each member forwards to its
// successor the report it received in the previous round. Afterwards everyone knows everything.
void gather_reports(RingRun& r, std::size_t i) {
  for (std::size_t round = 1; round < r.n; ++round) {
    int* got = nullptr;
    auto recv = mailbox("g", i, "")->get_async<int>(&got);
    mailbox("g", succ(r, i), "")->put(&dummy_payload, static_cast<uint64_t>(std::max(1.0, r.cfg->report_bytes)));
    recv->wait();
  }
}

// Member 0 turns the reports into a plan (every member could: they all hold the same reports).
void decide(RingRun& r, int after_iteration) {
  RedistributionRecord& rec = r.points.back();
  std::vector<double> speeds(r.n);
  for (std::size_t i = 0; i < r.n; ++i)
    speeds[i] = r.cfg->targets == TargetMode::oracle
                    ? current_speed(r, i)
                    : static_cast<double>(r.columns[i].size()) * r.flops_per_column / std::max(r.last_compute[i], 1e-300);
  RingInstance inst;
  inst.bidirectional = r.n > 1;
  for (const auto& c : r.columns) inst.loads.push_back(static_cast<Count>(c.size()));
  inst.targets = balanced_targets(speeds, r.cfg->columns);
  inst.cost_next = r.cost_next;
  inst.cost_prev = r.cost_prev;
  r.transfer = inst.loads != inst.targets && r.n > 1;
  rec.tstep_before = predicted_tstep(r, inst.loads, speeds);
  rec.tstep_after = predicted_tstep(r, inst.targets, speeds);
  if (!r.transfer) return;
  r.plan = plan_redistribution(inst, r.cfg->algorithm);
  const ReplayReport check = replay(inst, r.plan);
  if (!check.ok) throw std::logic_error("planner produced an infeasible schedule: " + check.error);
  rec.predicted = r.plan.time;
  rec.lower_bound = r.plan.lower_bound;
  rec.optimal = r.plan.optimal;
  rec.algorithm = r.plan.algorithm;
  for (const auto& t : r.plan.transfers) rec.items_moved += t.items;
  if (r.cfg->scheme.adaptive) {
    // The slides' profitability test over the remaining iterations (the decision is already paid).
    const double remaining = r.cfg->iterations - after_iteration;
    r.transfer = r.plan.time + remaining * rec.tstep_after <= remaining * rec.tstep_before;
  }
}

// The receiving side of member i: incoming blocks in the plan's order, one column per message.
void receive_columns(RingRun* r, std::size_t i) {
  std::vector<const Transfer*> incoming;
  for (const auto& t : r->plan.transfers)
    if (t.to == i) incoming.push_back(&t);
  std::stable_sort(incoming.begin(), incoming.end(), [](const Transfer* a, const Transfer* b) { return a->start < b->start; });
  for (const Transfer* t : incoming) {
    auto* box = mailbox("r", i, t->dir == Direction::next ? "p" : "s");
    for (Count k = 0; k < t->items; ++k) {
      std::unique_ptr<long> col(box->get<long>());
      std::unique_lock<sg4::Mutex> lock(*r->mutex);
      // From the predecessor: its last columns come before ours; from the successor: after.
      if (t->dir == Direction::next) r->columns[i].push_front(*col); else r->columns[i].push_back(*col);
      r->column_arrived->notify_all();
    }
  }
}

// The sending side of member i: blocks in the plan's order, no earlier than planned, each column
// only once held (forwarding what has arrived).
void send_columns(RingRun& r, std::size_t i, double t0) {
  std::vector<const Transfer*> outgoing;
  for (const auto& t : r.plan.transfers)
    if (t.from == i) outgoing.push_back(&t);
  std::stable_sort(outgoing.begin(), outgoing.end(), [](const Transfer* a, const Transfer* b) { return a->start < b->start; });
  for (const Transfer* t : outgoing) {
    // Not before the planned start (SimGrid ignores waits below its 1e-9 s accuracy anyway).
    if (t0 + t->start - sg4::Engine::get_clock() > 1e-9) sg4::this_actor::sleep_until(t0 + t->start);
    auto* box = mailbox("r", t->to, t->dir == Direction::next ? "p" : "s");
    for (Count k = 0; k < t->items; ++k) {
      long col = 0;
      {
        std::unique_lock<sg4::Mutex> lock(*r.mutex);
        while (r.columns[i].empty()) r.column_arrived->wait(lock);
        if (t->dir == Direction::next) {
          col = r.columns[i].back();
          r.columns[i].pop_back();
        } else {
          col = r.columns[i].front();
          r.columns[i].pop_front();
        }
      }
      box->put(new long(col), static_cast<uint64_t>(r.column_bytes));
    }
  }
}

void redistribution_point(RingRun& r, std::size_t i, int it) {
  r.barrier->wait();
  if (i == 0) {
    r.points.emplace_back();
    r.points.back().after_iteration = it;
    r.points.back().decision_start = sg4::Engine::get_clock();
  }
  r.barrier->wait();
  gather_reports(r, i);
  sg4::this_actor::execute(r.cfg->decision_flops);
  r.barrier->wait();
  if (i == 0) decide(r, it);
  r.barrier->wait();
  const double t0 = sg4::Engine::get_clock();
  if (i == 0) r.points.back().transfers_start = t0;
  if (r.transfer) {
    sg4::ActorPtr receiver = sg4::Actor::create("receiver-" + std::to_string(i), r.hosts[i], receive_columns, &r, i);
    send_columns(r, i, t0);
    receiver->join();
  }
  r.barrier->wait();
  if (i == 0) {
    RedistributionRecord& rec = r.points.back();
    rec.end = sg4::Engine::get_clock();
    rec.performed = r.transfer;
    rec.simulated = rec.end - rec.transfers_start;
    check_conservation(r, it);
  }
  r.barrier->wait();
}

// ---- columns moved with KPBS schedules: staging and rebuilds ----

// The members will hold these intervals; their columns arrive through deliver_column.
void expect_columns(RingRun& r, const std::vector<ColumnInterval>& intervals, bool overlap) {
  r.incoming = intervals;
  r.moving = true;
  r.start_early = overlap;
  r.slots.assign(r.n, {});
  for (std::size_t i = 0; i < r.n; ++i) r.slots[i].assign(static_cast<std::size_t>(intervals[i].count), -1);
  r.filled.assign(r.n, 0);
  r.columns.assign(r.n, {});
}

void deliver_column(RingRun& r, std::size_t i, long column) {
  const long total = r.cfg->columns;
  std::unique_lock<sg4::Mutex> lock(*r.mutex);
  const ColumnInterval& want = r.incoming.at(i);
  const long slot = ((column - want.first) % total + total) % total;
  if (slot >= want.count || r.slots[i][static_cast<std::size_t>(slot)] >= 0)
    throw std::logic_error("column " + std::to_string(column) + " delivered to member " + std::to_string(i) +
                           (slot >= want.count ? ", which does not hold it" : " twice"));
  r.slots[i][static_cast<std::size_t>(slot)] = column;
  if (++r.filled[i] == want.count) r.columns[i].assign(r.slots[i].begin(), r.slots[i].end());
  r.column_arrived->notify_all();
}

void await_columns(RingRun& r, std::size_t i) {
  if (r.incoming.empty()) return;
  std::unique_lock<sg4::Mutex> lock(*r.mutex);
  while (r.filled[i] < r.incoming[i].count || (r.moving && !r.start_early)) r.column_arrived->wait(lock);
}

void move_done(RingRun& r) {
  std::unique_lock<sg4::Mutex> lock(*r.mutex);
  r.moving = false;
  r.column_arrived->notify_all();
}

ColumnTransferRecord transfer_record(const sim::ColumnTransfer& t, const sim::ColumnTransferTimes& times, int after) {
  ColumnTransferRecord rec;
  rec.after_iteration = after;
  for (const auto* h : t.senders) rec.senders.push_back(h->get_name());
  for (const auto* h : t.receivers) rec.receivers.push_back(h->get_name());
  rec.algorithm = t.schedule.algorithm;
  rec.k = t.instance.k;
  rec.beta = t.instance.beta;
  rec.kpbs_feasible = t.schedule.kpbs_feasible;
  rec.columns_over_network = times.columns_over_network;
  rec.columns_local = times.columns_local;
  rec.lower_bound = t.schedule.lower_bound;
  rec.planned = t.schedule.time;
  rec.start = times.start;
  rec.end = times.end;
  rec.simulated = times.end - times.start;
  for (const auto& step : t.schedule.steps) rec.planned_steps.push_back(step.duration);
  rec.simulated_steps = times.step_durations;
  return rec;
}

// The stager (on a storage node) plays the staging schedule; the members wait for their columns.
void stage_matrix(RingRun* r) {
  const sim::ColumnTransferTimes times =
      sim::play_column_transfer(r->staging_plan, [r](std::size_t j, long c) { deliver_column(*r, j, c); });
  check_conservation(*r, 0);
  move_done(*r);
  r->staging = transfer_record(r->staging_plan, times, 0);
  XBT_VERB("staging: planned %g s (eta %g), simulated %g s", r->staging.planned, r->staging.lower_bound,
           r->staging.simulated);
}

// Time for one column over the platform's route: latency plus bytes over the bottleneck.
double column_cost(const sg4::Host* a, const sg4::Host* b, double bytes) {
  std::vector<sg4::Link*> links;
  double latency = 0.0;
  a->route_to(b, links, &latency);
  double bw = INFINITY;
  for (const auto* l : links) bw = std::min(bw, l->get_bandwidth());
  return latency + (std::isfinite(bw) ? bytes / bw : 0.0);
}

const HostTrace* trace_of(const RingRun& r, const std::string& host) {
  for (const auto& t : r.all_traces)
    if (t.host == host) return &t;
  throw std::logic_error("no speed trace for host " + host);
}

// Members, their speeds and traces, the neighbour costs of the ring in `hosts` order; starts an
// epoch at iteration `first`.
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
  for (std::size_t i = 0; r.n > 1 && i < r.n; ++i) {
    r.cost_next[i] = column_cost(r.hosts[i], r.hosts[succ(r, i)], r.column_bytes);
    r.cost_prev[i] = column_cost(r.hosts[i], r.hosts[pred(r, i)], r.column_bytes);
    r.border_time = std::max({r.border_time, r.cost_next[i], r.cost_prev[i]});
  }
  r.rate_next.clear();
  r.rate_prev.clear();
  r.last_compute.assign(r.n, 0.0);
  r.iter_start.assign(r.n, 0.0);
  r.iter_end.assign(r.n, 0.0);
  r.iter_span.assign(r.n, 0.0);
  r.barrier = sg4::Barrier::create(static_cast<unsigned>(r.n));
  if (!r.traces.empty()) r.epochs.push_back({first, r.peak, r.traces, r.border_time});
}

void ring_member(RingRun* r, std::size_t i, int first_iteration);

// After iteration `it` the ring moves to other processors: the old members gather their reports
// and decide as at a redistribution point; old member 0 then balances the columns over the new
// members at their current speeds (keeping the column order, from the start that leaves the most
// columns in place),
// plans the move as a KPBS instance between old and new holders, starts the new members and plays
// the schedule; the old members stop.
void rebuild_point(RingRun& r, std::size_t i, int it) {
  r.barrier->wait();
  const double decision_start = sg4::Engine::get_clock();
  gather_reports(r, i);
  sg4::this_actor::execute(r.cfg->decision_flops);
  r.barrier->wait();
  if (i != 0) return;
  const std::size_t index = r.rebuild_at.at(it);
  const RebuildConfig& rb = r.cfg->rebuilds[index];
  const auto& new_hosts = r.rebuild_rings[index];
  std::vector<double> speeds;
  for (auto* h : new_hosts)
    speeds.push_back(h->get_speed() * multiplier_at_time(*trace_of(r, h->get_name()), r.iteration_time0,
                                                         sg4::Engine::get_clock(), r.time_origin));
  const long total = r.cfg->columns;
  // Processors in both rings keep what they can: the new intervals start where most columns stay.
  const auto sizes = balanced_targets(speeds, total);
  std::vector<long> holder(static_cast<std::size_t>(total)), keeper(new_hosts.size(), -1);
  for (std::size_t m = 0; m < r.n; ++m)
    for (long c : r.columns[m]) holder[static_cast<std::size_t>(c)] = static_cast<long>(m);
  for (std::size_t j = 0; j < new_hosts.size(); ++j)
    for (std::size_t m = 0; m < r.n; ++m)
      if (new_hosts[j] == r.hosts[m]) keeper[j] = static_cast<long>(m);
  const auto wanted = consecutive_intervals(sizes, start_keeping_most(holder, sizes, keeper, r.columns[0].front()), total);
  std::vector<std::vector<long>> held;
  for (const auto& c : r.columns) held.emplace_back(c.begin(), c.end());
  sim::ColumnTransfer move = sim::plan_column_transfer(r.hosts, new_hosts, plan_column_move(held, wanted, total),
                                                       r.column_bytes, rb.k, rb.beta, rb.algorithm);
  set_ring(r, new_hosts, it + 1);
  expect_columns(r, wanted, rb.overlap);
  for (std::size_t j = 0; j < r.n; ++j)
    sg4::Actor::create("member-" + std::to_string(j) + "-r" + std::to_string(index + 1), r.hosts[j], ring_member, &r,
                       j, it + 1);
  const sim::ColumnTransferTimes times =
      sim::play_column_transfer(move, [&r](std::size_t j, long c) { deliver_column(r, j, c); });
  check_conservation(r, it);
  move_done(r);
  ColumnTransferRecord rec = transfer_record(move, times, it);
  rec.decision_time = times.start - decision_start;
  XBT_VERB("rebuild after iteration %d: %zu -> %zu members, planned %g s (eta %g), simulated %g s", it,
           move.senders.size(), move.receivers.size(), rec.planned, rec.lower_bound, rec.simulated);
  r.rebuilds.push_back(std::move(rec));
}

void ring_member(RingRun* r, std::size_t i, int first_iteration) {
  await_columns(*r, i);
  for (int it = first_iteration; it <= r->cfg->iterations; ++it) {
    iterate(*r, i, it);
    r->barrier->wait();
    if (i == 0) record_iteration(*r, it);
    if (r->rebuild_at.count(it)) {
      rebuild_point(*r, i, it);
      return;  // the rebuilt ring's members carry on
    }
    if (r->after.count(it)) redistribution_point(*r, i, it);
  }
}

// The storage cluster of a staging, attached to `zone` at the gateway (a host of `source`, the
// platform file; `zone` is that platform or the planner's zone built from it). `zone_link` maps
// a link of `source` to its index in `zone`; receivers are zone node indices.
void attach_storage(Platform& zone, const Platform& source, const StagingConfig& st,
                    const std::vector<std::size_t>& receivers, const std::string& default_gateway,
                    const std::function<std::size_t(std::size_t)>& zone_link) {
  const std::string gw = st.gateway.empty() ? default_gateway : st.gateway;
  const auto gw_source = source.find_node(gw);
  if (!gw_source || (!source.nodes[*gw_source].is_host && !source.graph_routed()))
    throw InputError("staging gateway '" + gw + "' is not a host of the platform");
  auto gw_zone = zone.find_node(gw);
  if (!gw_zone) gw_zone = zone.add_host(gw, source.nodes[*gw_source].speed);
  std::vector<std::vector<std::size_t>> tails(zone.nodes.size());
  if (!zone.graph_routed()) {
    const Adjacency adj = adjacency(source);
    for (std::size_t r : receivers) {
      if (r == *gw_zone) continue;
      const auto path = route_between(source, adj, *gw_source, *source.find_node(zone.nodes[r].name));
      if (!path) throw InputError("no route from the staging gateway '" + gw + "' to " + zone.nodes[r].name);
      for (std::size_t l : path->links) tails[r].push_back(zone_link(l));
    }
  }
  attach_storage_cluster(zone, st.cluster, *gw_zone, receivers, [&](std::size_t r) { return tails[r]; });
}

// A ring chosen by the SharedRing planners: its hosts, the 2q paths as explicit routes of a Full
// zone (so that SimGrid uses the planner's paths), and the paths' bandwidth shares.
struct PlannedRing {
  RingRouting routing = RingRouting::platform;
  Platform zone;  // free routing: the ring's hosts, its paths as explicit routes (+ the storage cluster)
  std::vector<std::string> hosts;
  std::vector<double> succ_bw, pred_bw;
  double flops_per_column = 0.0;
  double tstep = 0.0;
};

// The ring chosen by the SharedRing planners on the loaded platform (sim/ring_platform.hpp). In
// the free routing mode its 2q paths are the planner's, imposed as explicit routes (bypass routes
// of the graph zone, added before the platform is sealed); in the platform mode they are SimGrid's
// own routes. The paths' bandwidth shares are the planner's either way.
PlannedRing plan_ring_on_platform(const RunConfig& cfg, const sim::LoadedPlatform& lp,
                                  const std::set<std::string>& excluded) {
  const sim::RingPlatform rp = sim::read_ring_platform(lp, cfg.ring_routing, cfg.ring_candidates, excluded);
  const Platform& p = rp.model;
  const ring::RingNetwork net(p);
  // The ratio on platform means (the ring is not known yet): one column computed at the mean host
  // speed over one column sent at the mean link bandwidth, over the whole platform as loaded.
  double speed = 0.0, bandwidth = 0.0;
  for (const auto* h : lp.hosts()) speed += h->get_speed() / static_cast<double>(lp.hosts().size());
  for (const auto* l : lp.links()) bandwidth += l->get_bandwidth() / static_cast<double>(lp.links().size());
  PlannedRing out;
  out.routing = rp.routing;
  const double bytes = 8.0 * cfg.rows;
  out.flops_per_column = cfg.ratio * (bytes / bandwidth) * speed;
  const ring::RingPlan plan =
      ring::plan_ring(net, ring::Workload{out.flops_per_column * cfg.columns, bytes}, cfg.ring_method);
  out.tstep = plan.tstep;
  const std::size_t q = plan.size();
  for (std::size_t m = 0; m < q; ++m) out.hosts.push_back(net.host_name(plan.ring[m]));
  out.succ_bw = plan.succ_bw;
  out.pred_bw = plan.pred_bw;
  if (rp.routing != RingRouting::free) return out;

  out.zone.zone_name = "planned-ring";
  out.zone.routing = ZoneRouting::full;
  std::vector<long> link_index(p.links.size(), -1);
  auto use_link = [&](std::size_t l) {
    if (link_index[l] < 0) {
      link_index[l] = static_cast<long>(out.zone.links.size());
      out.zone.links.push_back(p.links[l]);
    }
    return static_cast<std::size_t>(link_index[l]);
  };
  for (std::size_t m = 0; m < q; ++m) out.zone.add_host(net.host_name(plan.ring[m]), net.speed(plan.ring[m]));
  std::set<std::pair<std::size_t, std::size_t>> routed;
  auto add_route = [&](std::size_t from, std::size_t to, const ring::HostPath& path) {
    if (from == to || !routed.insert({from, to}).second) return;  // q = 2: one route per ordered pair
    ExplicitRoute r;
    r.src = from;
    r.dst = to;
    for (std::size_t l : path.links) r.links.push_back(use_link(l));
    out.zone.routes.push_back(std::move(r));
  };
  for (std::size_t m = 0; q > 1 && m < q; ++m) {
    add_route(m, (m + 1) % q, plan.succ[m]);
    add_route(m, (m + q - 1) % q, plan.pred[m]);
  }
  if (cfg.staging.enabled) {
    std::vector<std::size_t> receivers(q);
    for (std::size_t m = 0; m < q; ++m) receivers[m] = m;  // the ring's hosts come first in the zone
    attach_storage(out.zone, p, cfg.staging, receivers, out.hosts.front(), use_link);
  }
  return out;
}

// The largest set of `hosts` that reach each other both ways, in `hosts` order.
std::vector<std::string> reachable_host_names(const sim::LoadedPlatform& lp, const std::vector<sg4::Host*>& hosts) {
  const auto sets = sim::reachable_sets(lp, hosts);
  std::vector<std::string> names;
  if (!sets.sets.empty())
    for (const auto* h : sets.sets.front()) names.push_back(h->get_name());
  return names;
}

// The paper's random selection of p processors among `names` (sorted), in the order drawn
// (partial Fisher-Yates).
std::vector<std::string> draw_ring(std::vector<std::string> names, int size, std::uint64_t seed,
                                   const std::string& platform) {
  if (static_cast<std::size_t>(size) > names.size())
    throw InputError("a ring of " + std::to_string(size) + " processors does not fit platform '" + platform + "' (" +
                     std::to_string(names.size()) + " hosts)");
  std::mt19937_64 rng(seed);
  std::vector<std::string> ring;
  for (std::size_t k = 0; k < static_cast<std::size_t>(size); ++k) {
    const std::size_t j = k + uniform_below(rng, names.size() - k);
    std::swap(names[k], names[j]);
    ring.push_back(names[k]);
  }
  return ring;
}

// Checks given hosts against the platform's (sorted) host names.
std::vector<std::string> given_ring(const std::vector<std::string>& hosts, const std::vector<std::string>& names,
                                    const std::string& platform) {
  for (const auto& h : hosts)
    if (!std::binary_search(names.begin(), names.end(), h))
      throw InputError("ring host '" + h + "' is not in platform '" + platform + "'");
  std::set<std::string> seen(hosts.begin(), hosts.end());
  if (seen.size() != hosts.size()) throw InputError("a host appears twice in the ring");
  return hosts;
}

std::vector<std::string> choose_ring(const RunConfig& cfg, const std::vector<std::string>& names) {
  switch (cfg.selection) {
    case RingSelection::random: return draw_ring(names, cfg.ring_size, cfg.ring_seed, cfg.platform);
    case RingSelection::hosts:
    case RingSelection::planner: return given_ring(cfg.ring_hosts, names, cfg.platform);
  }
  return {};
}

std::vector<std::string> sorted_host_names(const sg4::Engine& e) {
  std::vector<std::string> names;
  for (const auto* h : e.get_all_hosts()) names.push_back(h->get_name());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<sg4::Host*> hosts_named(const sg4::Engine& e, const std::vector<std::string>& names) {
  std::vector<sg4::Host*> out;
  for (const auto& n : names) out.push_back(e.host_by_name(n));
  return out;
}

// Every iteration perfectly balanced at the current speeds of the ring in effect, redistributions,
// rebuilds and the staging free (times counted from the start of iteration 1).
double ideal_time(const RingRun& r) {
  double t = 0.0;
  const double work = static_cast<double>(r.cfg->columns) * r.flops_per_column;
  std::size_t e = 0;
  for (int it = 1; it <= r.cfg->iterations; ++it) {
    while (e + 1 < r.epochs.size() && r.epochs[e + 1].first <= it) ++e;
    const RingEpoch& ep = r.epochs[e];
    double speed = 0.0;
    for (std::size_t i = 0; i < ep.peak.size(); ++i)
      speed += ep.peak[i] * multiplier_at_time(*ep.traces[i], r.iteration_time0, t);
    t += work / speed + ep.border_time;
  }
  return t;
}

// traces.csv (one row per host and speed level) and one SimGrid profile file per host that is ever
// a ring member.
void write_traces(const RingRun& r, const std::string& dir) {
  std::filesystem::create_directories(dir);
  std::ostringstream csv;
  csv.precision(17);
  csv << "host,peak_flops,iteration,time,multiplier,speed_flops\n";
  for (const auto& t : r.all_traces) {
    csv << t.host << ',' << t.peak_speed << ",0,0,1," << t.peak_speed << '\n';
    for (const auto& c : t.changes)
      csv << t.host << ',' << t.peak_speed << ',' << c.iteration << ','
          << r.time_origin + c.iteration * r.iteration_time0 << ',' << c.multiplier << ','
          << c.multiplier * t.peak_speed << '\n';
    io::write_file_atomically(dir + "/" + t.host + ".profile",
                              speed_profile_text(t, r.iteration_time0, r.time_origin));
  }
  io::write_file_atomically(dir + "/traces.csv", csv.str());
}

// One trace per host that is ever a member: the initial ring's first (in ring order), then the
// rebuilt rings' newcomers, so that adding a rebuild does not change the first ring's traces.
std::vector<HostTrace> traces_for(const RunConfig& cfg, const std::vector<sg4::Host*>& ring,
                                  const std::vector<std::vector<sg4::Host*>>& rebuilt) {
  TraceSpec spec;
  spec.seed = cfg.trace_seed;
  spec.windows = cfg.trace_windows;
  spec.factor_low = cfg.factor_low;
  spec.factor_high = cfg.factor_high;
  if (cfg.trace_from_measured)
    for (double mf : embedded_measured_values().machine_mflops) spec.speed_list.push_back(mf * 1e6);
  std::vector<std::pair<std::string, double>> named;
  std::set<std::string> seen;
  auto add = [&](const sg4::Host* h) {
    if (seen.insert(h->get_name()).second) named.emplace_back(h->get_name(), h->get_speed());
  };
  for (const auto* h : ring) add(h);
  for (const auto& rr : rebuilt)
    for (const auto* h : rr) add(h);
  return generate_speed_traces(named, spec);
}

// The staging: storage blocks to the members' initial intervals, planned on the built platform.
sim::ColumnTransfer plan_staging(const RunConfig& cfg, const sg4::Engine& e, const RingRun& r,
                                 const std::vector<ColumnInterval>& wanted) {
  std::vector<sg4::Host*> storage;
  std::vector<std::vector<long>> held;
  const auto blocks = storage_blocks(cfg.columns, cfg.staging.cluster.nodes);
  for (std::size_t s = 0; s < blocks.size(); ++s) {
    storage.push_back(e.host_by_name(storage_host_name(s)));
    held.push_back(columns_of(blocks[s], cfg.columns));
  }
  return sim::plan_column_transfer(storage, r.hosts, plan_column_move(held, wanted, cfg.columns), r.column_bytes,
                                   cfg.staging.k, cfg.staging.beta, cfg.staging.algorithm);
}

}  // namespace

RunResult run_simulation(const RunConfig& cfg, int* argc, char** argv, const SimulationOptions& opt) {
  sg4::Engine engine(argc, argv);
  sim::set_network_model(cfg.network == NetworkModel::linear, *argc, argv);
  sim::LoadedPlatform lp(engine, cfg.platform);
  if (cfg.staging.enabled && !lp.declared())
    throw InputError("staging needs a platform of one Full, Floyd or Dijkstra zone (the storage cluster joins it), "
                     "and '" + cfg.platform + "' has " + lp.why_no_model());
  PlannedRing planned;
  const std::vector<std::string> all_names = sorted_host_names(engine);  // before any storage cluster
  // Hosts with a speed profile of the platform's own cannot take ringsim's traces (SimGrid takes
  // one per host): random rings avoid them, other rings that use them are refused.
  std::set<std::string> profiled;
  if (lp.may_hold_speed_profiles())
    for (const auto* h : sim::hosts_with_speed_profile(lp.hosts())) profiled.insert(h->get_name());
  auto refuse_profiled = [&](const std::vector<std::string>& ring, const std::string& what) {
    for (const auto& n : ring)
      if (profiled.count(n))
        throw InputError(what + " host '" + n + "' already has a speed profile in platform '" + cfg.platform +
                         "' (speed_file): SimGrid takes one per host, and ringsim's speed traces would be a second");
  };
  std::vector<std::string> names;  // the hosts rings are drawn from (without the storage cluster), sorted
  std::vector<std::string> ring_names;
  if (cfg.selection == RingSelection::planner) {
    planned = plan_ring_on_platform(cfg, lp, profiled);
    refuse_profiled(planned.hosts, "the planner's ring uses");
    names = planned.hosts;
    std::sort(names.begin(), names.end());
    ring_names = planned.hosts;
    if (planned.routing == RingRouting::free) {
      sim::extend_platform(engine, Platform{}, planned.zone, true);
    } else if (cfg.staging.enabled) {
      Platform p = *lp.declared();
      std::vector<std::size_t> receivers;
      for (const auto& n : ring_names) receivers.push_back(*p.find_node(n));
      attach_storage(p, *lp.declared(), cfg.staging, receivers, ring_names.front(), [](std::size_t l) { return l; });
      sim::extend_platform(engine, *lp.declared(), p, false);
    }
  } else {
    // The hosts a ring may be drawn from: the largest set that reach each other both ways, sorted
    // by name as the paper's draw expects, without the hosts that keep their own speed profile.
    std::vector<sg4::Host*> sorted;
    for (const auto& n : all_names)
      if (!profiled.count(n)) sorted.push_back(engine.host_by_name(n));
    const bool draws = cfg.selection == RingSelection::random ||
                       std::any_of(cfg.rebuilds.begin(), cfg.rebuilds.end(), [](const auto& rb) { return rb.hosts.empty(); });
    if (cfg.selection == RingSelection::random) {
      // One round of questions: the sets, the draw, its neighbour routes.
      const auto size = static_cast<std::size_t>(cfg.ring_size);
      auto drawn = sim::draw_among_reachable(lp, sorted, [&](const std::vector<std::string>& among) {
        return size <= among.size() ? choose_ring(cfg, among) : std::vector<std::string>{};
      });
      names = std::move(drawn.names);
      if (size > names.size() && names.size() < all_names.size())
        throw InputError("a ring of " + std::to_string(cfg.ring_size) + " processors does not fit platform '" +
                         cfg.platform + "': only " + std::to_string(names.size()) + " of its " +
                         std::to_string(all_names.size()) + " hosts reach each other both ways");
      ring_names = drawn.ring.empty() ? choose_ring(cfg, names) : std::move(drawn.ring);  // the former says why not
      if (drawn.unroutable) {
        // Reachability was taken as transitive: a hand-written Full zone may still miss a
        // neighbour route; then draw again among hosts that all reach each other.
        auto clique = sim::largest_clique(hosts_named(engine, names));
        names.clear();
        for (const auto* h : clique) names.push_back(h->get_name());
        std::sort(names.begin(), names.end());
        ring_names = choose_ring(cfg, names);
        if (const auto why = sim::unroutable_neighbours(hosts_named(engine, ring_names))) throw InputError(*why);
      }
    } else {
      ring_names = given_ring(cfg.ring_hosts, all_names, cfg.platform);
      if (const auto why = sim::unroutable_neighbours(hosts_named(engine, ring_names))) throw InputError(*why);
      if (draws) names = reachable_host_names(lp, sorted);
    }
    refuse_profiled(ring_names, "ring");
    if (cfg.staging.enabled) {
      Platform p = *lp.declared();
      std::vector<std::size_t> receivers;
      for (const auto& n : ring_names) receivers.push_back(*p.find_node(n));
      attach_storage(p, *lp.declared(), cfg.staging, receivers, ring_names.front(), [](std::size_t l) { return l; });
      sim::extend_platform(engine, *lp.declared(), p, false);
    }
  }
  lp.seal();

  RingRun r;
  r.cfg = &cfg;
  r.column_bytes = 8.0 * cfg.rows;
  for (std::size_t k = 0; k < cfg.rebuilds.size(); ++k) {
    const RebuildConfig& rb = cfg.rebuilds[k];
    r.rebuild_at[rb.after] = k;
    r.rebuild_rings.push_back(hosts_named(
        engine, rb.hosts.empty() ? draw_ring(names, rb.size, rb.seed, cfg.platform) : given_ring(rb.hosts, all_names, cfg.platform)));
    if (const auto why = sim::unroutable_neighbours(r.rebuild_rings.back()))
      throw InputError("rebuild after iteration " + std::to_string(rb.after) + ": " + *why);
    std::vector<std::string> rebuilt;
    for (const auto* h : r.rebuild_rings.back()) rebuilt.push_back(h->get_name());
    refuse_profiled(rebuilt, "rebuild after iteration " + std::to_string(rb.after) + ": ring");
  }
  const std::vector<sg4::Host*> ring = hosts_named(engine, ring_names);
  r.all_traces = traces_for(cfg, ring, r.rebuild_rings);
  r.mutex = sg4::Mutex::create();
  r.column_arrived = sg4::ConditionVariable::create();
  set_ring(r, ring, 1);
  double mean_cost = 0.0, mean_speed = 0.0;
  for (std::size_t i = 0; i < r.n; ++i) {
    mean_cost += (r.cost_next[i] + r.cost_prev[i]) / (2.0 * static_cast<double>(r.n));
    mean_speed += r.peak[i] / static_cast<double>(r.n);
  }
  // ratio = (one column on the ring's mean speed) / (one column over the mean neighbour path);
  // for a planned ring, the planner's own W (ratio on platform means), and its bandwidth shares.
  r.flops_per_column = cfg.ratio * (r.n > 1 ? mean_cost : 1.0) * mean_speed;
  if (cfg.selection == RingSelection::planner) {
    r.flops_per_column = planned.flops_per_column;
    if (r.n > 1) {
      r.rate_next = planned.succ_bw;
      r.rate_prev = planned.pred_bw;
    }
  }

  const auto initial = balanced_targets(r.peak, cfg.columns);
  const auto intervals = consecutive_intervals(initial, 0, cfg.columns);
  if (cfg.staging.enabled) {
    r.staging_plan = plan_staging(cfg, engine, r, intervals);
    r.time_origin = r.staging_plan.schedule.time;
    expect_columns(r, intervals, cfg.staging.overlap);
  } else {
    r.columns.resize(r.n);
    for (std::size_t i = 0; i < r.n; ++i)
      for (long c : columns_of(intervals[i], cfg.columns)) r.columns[i].push_back(c);
  }
  r.iteration_time0 = predicted_tstep(r, initial, r.peak);

  if (!opt.traces_dir.empty()) write_traces(r, opt.traces_dir);
  RunResult res;
  for (auto* h : r.hosts) res.ring.push_back(h->get_name());
  res.flops_per_column = r.flops_per_column;
  res.column_bytes = r.column_bytes;
  res.initial_iteration_time = r.iteration_time0;
  res.planned_tstep = planned.tstep;
  if (cfg.selection == RingSelection::planner) res.ring_routing = to_string(planned.routing);
  if (opt.setup_only) return res;
  // Profiles are attached before Engine::run (attaching later raises a false deadlock).
  for (const auto& t : r.all_traces)
    engine.host_by_name(t.host)->set_speed_profile(simgrid::kernel::profile::ProfileBuilder::from_string(
        "speed-" + t.host, speed_profile_text(t, r.iteration_time0, r.time_origin), -1));

  r.after.insert(cfg.scheme.after.begin(), cfg.scheme.after.end());
  if (cfg.staging.enabled) sg4::Actor::create("stager", r.staging_plan.senders.front(), stage_matrix, &r);
  for (std::size_t i = 0; i < r.n; ++i)
    sg4::Actor::create("member-" + std::to_string(i), r.hosts[i], ring_member, &r, i, 1);
  engine.run();

  res.makespan = r.iterations.empty() ? 0.0 : r.iterations.back().end;
  res.ideal_time = ideal_time(r);
  for (const auto& p : r.points) {
    res.decision_time += p.transfers_start - p.decision_start;
    if (p.performed) {
      ++res.redistributions;
      res.transfer_time += p.simulated;
      res.predicted_transfer_time += p.predicted;
    }
  }
  res.iterations = std::move(r.iterations);
  res.points = std::move(r.points);
  res.staged = cfg.staging.enabled;
  res.staging = std::move(r.staging);
  res.rebuilds = std::move(r.rebuilds);
  res.simgrid_version = std::to_string(SIMGRID_VERSION_MAJOR) + "." + std::to_string(SIMGRID_VERSION_MINOR);
  if (SIMGRID_VERSION_PATCH) res.simgrid_version += "." + std::to_string(SIMGRID_VERSION_PATCH);
  return res;
}

}  // namespace ringsim
