// A redistribution point: the members' reports travel around the ring (all-gather), member 0
// plans with the redistribution planners, and the columns move with real transfers following the
// plan's schedule; the decision time is logged apart from the transfer time.
#include "sim/ring_app.hpp"

#include <algorithm>
#include <stdexcept>

#include "model/replay.hpp"
#include "planners/redistribution/load_balance.hpp"
#include "planners/redistribution/planner.hpp"

namespace ringsim::app {

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

}  // namespace ringsim::app
