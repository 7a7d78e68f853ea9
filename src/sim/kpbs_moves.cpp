// Columns moved with KPBS schedules (seeds/kpbs-ggp-backbone-message-scheduling.md): the staging
// of the matrix from a storage cluster before iteration 1, and the rebuilds that move the ring to
// other processors; conservation is checked after each.
#include "sim/kpbs_moves.hpp"
#include "sim/member_reports.hpp"
#include "sim/redistribution_point.hpp"

#include <functional>
#include <stdexcept>

#include <xbt/log.h>

#include "model/errors.hpp"
#include "planners/redistribution/load_balance.hpp"

XBT_LOG_EXTERNAL_CATEGORY(ringsim_app);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(ringsim_app_moves, ringsim_app, "ringsim: columns moved with KPBS schedules");

namespace ringsim::sim {

// ---- columns moved with KPBS schedules: staging and rebuilds ----

// The members will hold these intervals; their columns arrive through deliver_column.
void expect_columns(RingMembers& ms, ColumnMoves& moves, const std::vector<ColumnInterval>& intervals, bool overlap) {
  moves.members_await = true;
  moves.playing = true;
  moves.start_early = overlap;
  for (std::size_t i = 0; i < ms.states.size(); ++i) {
    MemberState& m = ms.states[i];
    m.incoming = intervals[i];
    m.slots.assign(static_cast<std::size_t>(intervals[i].count), -1);
    m.filled = 0;
    m.columns.clear();
  }
}

// Files `column` at member i of the ring in effect, which holds the whole interval once the last
// of its columns is here.
static void deliver_column(long total, RingMembers& ms, RingSync& sync, std::size_t i, long column) {
  std::unique_lock<sg4::Mutex> lock(*sync.mutex);
  MemberState& m = ms.states.at(i);
  const ColumnInterval& want = m.incoming;
  const long slot = ((column - want.first) % total + total) % total;
  if (slot >= want.count || m.slots[static_cast<std::size_t>(slot)] >= 0)
    throw std::logic_error("column " + std::to_string(column) + " delivered to member " + std::to_string(i) +
                           (slot >= want.count ? ", which does not hold it" : " twice"));
  m.slots[static_cast<std::size_t>(slot)] = column;
  if (++m.filled == want.count) m.columns.assign(m.slots.begin(), m.slots.end());
  sync.column_arrived->notify_all();
}

void await_columns(const ColumnMoves& moves, const MemberState& m, RingSync& sync) {
  if (!moves.members_await) return;
  std::unique_lock<sg4::Mutex> lock(*sync.mutex);
  while (m.filled < m.incoming.count || (moves.playing && !moves.start_early))
    sync.column_arrived->wait(lock);
}

static void move_done(ColumnMoves& moves, RingSync& sync) {
  std::unique_lock<sg4::Mutex> lock(*sync.mutex);
  moves.playing = false;
  sync.column_arrived->notify_all();
}

static ColumnTransferRecord transfer_record(const ColumnTransfer& t, const ColumnTransferTimes& times, int after) {
  ColumnTransferRecord rec;
  rec.after_iteration = after;
  for (const auto* h : t.senders) rec.senders.push_back(h->get_name());
  for (const auto* h : t.receivers) rec.receivers.push_back(h->get_name());
  rec.scheduler = t.schedule.scheduler;
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
void Stager::play() {
  const long total = setup_.app.columns;
  const ColumnTransferTimes times = play_column_transfer(
      staging_, [this, total](std::size_t j, long c) { deliver_column(total, members_, sync_, j, c); });
  check_conservation(total, members_.states, 0);
  move_done(moves_, sync_);
  out_.staging = transfer_record(staging_, times, 0);
  XBT_INFO("staging: planned %g s (eta %g), simulated %g s", out_.staging.planned, out_.staging.lower_bound,
           out_.staging.simulated);
}

// After iteration `it` the ring moves to other processors: the old members gather their reports
// and decide as at a redistribution point; old member 0 then balances the columns over the new
// members at their current speeds (keeping the column order, from the start that leaves the most
// columns in place), plans the move as a KPBS instance between old and new holders, starts the new
// members and plays the schedule; the old members stop.
void rebuild_point(const RunSetup& s, const RingShape& ring, RingHistory& rings, RingMembers& ms, RingSync& sync,
                   ColumnMoves& moves, RunOutputs& out, std::size_t i, int it, const StartRing& start_members) {
  sync.barrier->wait();
  const double decision_start = sg4::Engine::get_clock();
  gather_reports(s, ring, sync.mailboxes, i);
  execute_in_iteration(s, ring, i, s.app.decision_flops, it);  // at the speed of the iteration just done
  sync.barrier->wait();
  if (i != 0) return;
  const Rebuild& rb = s.app.rebuilds.at(it);
  const auto& new_hosts = rb.hosts;
  std::vector<double> speeds;
  for (auto* h : new_hosts)
    speeds.push_back(speed_at_iteration(s, h->get_speed(), *trace_of(s, h->get_name()), it));
  const long total = s.app.columns;
  // Processors in both rings keep what they can: the new intervals start where most columns stay.
  const auto sizes = redistribution::balanced_targets(speeds, total);
  std::vector<long> holder(static_cast<std::size_t>(total)), keeper(new_hosts.size(), -1);
  for (std::size_t m = 0; m < ring.n; ++m)
    for (long c : ms.states[m].columns) holder[static_cast<std::size_t>(c)] = static_cast<long>(m);
  for (std::size_t j = 0; j < new_hosts.size(); ++j)
    for (std::size_t m = 0; m < ring.n; ++m)
      if (new_hosts[j] == ring.hosts[m]) keeper[j] = static_cast<long>(m);
  const long start = start_keeping_most(holder, sizes, keeper, ms.states[0].columns.front());
  const auto wanted = consecutive_intervals(sizes, start, total);
  std::vector<std::vector<long>> held;
  for (const auto& m : ms.states) held.emplace_back(m.columns.begin(), m.columns.end());
  ColumnTransfer move = plan_column_transfer(ring.hosts, new_hosts, plan_column_move(held, wanted, total),
                                             s.app.column_bytes, rb.k, rb.beta, rb.scheduler);
  rings.push_back(ring_shape(s, new_hosts, it + 1));
  const RingShape& next = rings.back();
  start_ring(next, ms, sync);
  ms.known.loads.assign(sizes.begin(), sizes.end());
  start_policies(s, next, it + 1, ms);
  expect_columns(ms, moves, wanted, rb.overlap);
  start_members(next, it);
  const ColumnTransferTimes times = play_column_transfer(
      move, [&ms, &sync, total](std::size_t j, long c) { deliver_column(total, ms, sync, j, c); });
  check_conservation(total, ms.states, it);
  move_done(moves, sync);
  ColumnTransferRecord rec = transfer_record(move, times, it);
  rec.decision_time = times.start - decision_start;
  XBT_INFO("rebuild after iteration %d: %zu -> %zu members, planned %g s (eta %g), simulated %g s", it,
           move.senders.size(), move.receivers.size(), rec.planned, rec.lower_bound, rec.simulated);
  out.rebuilds.push_back(std::move(rec));
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

// The staging: storage blocks to the members' initial intervals, planned on the built platform.
ColumnTransfer plan_staging(const StagingConfig& st, const sg4::Engine& e, const RunSetup& setup,
                            const RingShape& ring, const std::vector<ColumnInterval>& wanted) {
  std::vector<sg4::Host*> storage;
  std::vector<std::vector<long>> held;
  const long total = setup.app.columns;
  const auto blocks = storage_blocks(total, st.cluster.nodes);
  for (std::size_t s = 0; s < blocks.size(); ++s) {
    storage.push_back(e.host_by_name(storage_host_name(s)));
    held.push_back(columns_of(blocks[s], total));
  }
  return plan_column_transfer(storage, ring.hosts, plan_column_move(held, wanted, total), setup.app.column_bytes,
                              st.k, st.beta, st.algorithm);
}

}  // namespace ringsim::sim
