// A redistribution point, where the policy asked for one: the members' reports travel around the
// ring (all-gather) unless the policy decides on the piggybacked ones, member 0 plans with the
// redistribution planners, the policy accepts the plan or not, and the columns move with real
// transfers following the plan's schedule; the decision time is logged apart from the transfer time.
#include "sim/redistribution_point.hpp"
#include "sim/member_reports.hpp"

#include <algorithm>
#include <stdexcept>

#include "model/replay.hpp"
#include "planners/redistribution/load_balance.hpp"
#include "planners/redistribution/planner.hpp"
#include "sim/app_phases.hpp"

#include <xbt/log.h>

XBT_LOG_EXTERNAL_CATEGORY(ringsim_app);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(ringsim_app_redistribution, ringsim_app,
                                "ringsim: redistribution points (reports, decisions, column moves)");

namespace ringsim::sim {

// All-gather of the members' reports around the ring: n-1 rounds, each member forwards to its
// successor the report it received in the previous round. Afterwards everyone knows everything.
void gather_reports(RingRun& r, std::size_t i) {
  for (std::size_t round = 1; round < r.n; ++round) {
    int* got = nullptr;
    auto recv = mailbox(r, "g", i, "")->get_async<int>(&got);
    mailbox(r, "g", succ(r, i), "")->put(&dummy_payload, static_cast<uint64_t>(std::max(1.0, r.app.report_bytes)));
    recv->wait();
  }
}

// The speeds a decision balances for, and their relative error (the largest of the members'):
// after an all-gather, this iteration's measured speeds (or the true speeds at the point, exact,
// for `targets: oracle`, the paper's setting); else the common snapshot of piggybacked reports,
// which every member holds alike (member_reports.cpp).
struct DecisionSpeeds {
  std::vector<double> speeds;
  double error = 0.0;
};

static DecisionSpeeds decision_speeds(const RingRun& r, int after_iteration, policy::Act act) {
  DecisionSpeeds d{std::vector<double>(r.n), 0.0};
  if (act == policy::Act::gather_and_decide) {
    for (std::size_t i = 0; i < r.n; ++i) {
      if (r.app.targets == TargetMode::oracle) {
        d.speeds[i] = current_speed(r, i, after_iteration);
      } else {
        d.speeds[i] = measured_speed(r, i);
        d.error = std::max(d.error, measured_speed_error(r, i));
      }
    }
    return d;
  }
  const MemberKnowledge& k = r.members[0].knowledge;
  if (k.common_iteration == 0 || k.common == nullptr || k.common->size() != r.n)
    throw std::logic_error("policy '" + r.app.scheme + "' decided without the members' reports");
  for (std::size_t i = 1; i < r.n; ++i)
    if (r.members[i].knowledge.common_iteration != k.common_iteration)
      throw std::logic_error("members 0 and " + std::to_string(i) + " hold different common reports");
  for (std::size_t i = 0; i < r.n; ++i) {
    d.speeds[i] = (*k.common)[i].speed;
    d.error = std::max(d.error, (*k.common)[i].speed_error);
  }
  return d;
}

// The same knowledge in half the rounds: each member sends its report both ways and passes on,
// each round, what it received the round before; after floor(n/2) rounds everyone knows
// everything (forward reach floor(n/2), backward n - 1 - floor(n/2), as member_reports.cpp).
static void gather_reports_both_ways(RingRun& r, std::size_t i) {
  const std::size_t forward = forward_reach(r.n), backward = backward_reach(r.n);
  const auto bytes = static_cast<uint64_t>(std::max(1.0, r.app.report_bytes));
  for (std::size_t round = 1; round <= forward; ++round) {
    int* got_pred = nullptr;
    int* got_succ = nullptr;
    std::vector<sg4::CommPtr> comms;
    comms.push_back(mailbox(r, "G", i, "p")->get_async<int>(&got_pred));
    comms.push_back(mailbox(r, "G", succ(r, i), "p")->put_async(&dummy_payload, bytes));
    if (round <= backward) {
      comms.push_back(mailbox(r, "G", i, "s")->get_async<int>(&got_succ));
      comms.push_back(mailbox(r, "G", pred(r, i), "s")->put_async(&dummy_payload, bytes));
    }
    sg4::Comm::wait_all(comms);
  }
}

// Member 0's policy's answer to `ask`, after checking that every member's policy answers alike: a
// policy decides on what every member knows (`what` names the answer when one differs).
template <class Ask>
static auto ask_every_member(const RingRun& r, int after_iteration, const char* what, Ask ask) {
  const auto answer = ask(*r.members[0].policy, view_of(r, 0, after_iteration));
  for (std::size_t i = 1; i < r.n; ++i)
    if (ask(*r.members[i].policy, view_of(r, i, after_iteration)) != answer)
      throw std::logic_error("policy '" + r.app.scheme + "' " + what + " after iteration " +
                             std::to_string(after_iteration) + " at some members only");
  return answer;
}

// Member 0 turns the reports into a plan (every member could: they all hold the same reports),
// and every member's policy says whether to carry it out; all must agree.
static void decide(RingRun& r, int after_iteration, policy::Act act) {
  RedistributionRecord& rec = r.out.points.back();
  const DecisionSpeeds measured = decision_speeds(r, after_iteration, act);
  const std::vector<double>& speeds = measured.speeds;
  RingInstance inst;
  inst.bidirectional = r.n > 1;
  for (const auto& m : r.members) inst.loads.push_back(static_cast<Count>(m.columns.size()));
  if (inst.loads != r.known.loads) throw std::logic_error("the members' column counts are not the last plan's targets");
  const auto own_speeds = ask_every_member(r, after_iteration, "balanced for speeds of its own",
                                           [](policy::RedistributionPolicy& q, const policy::MemberView& v) {
                                             return q.balance_for(v);
                                           });
  // The targets: the plan's (hindsight-targets), or the balance of the speeds, which is the loads
  // themselves when they are a balance for speeds within the speeds' error (a policy's own speeds
  // are exact): a point where only the measurement's rounding differs moves nothing, and near
  // ties go where exact speeds would send them (load_balance.hpp).
  const auto planned = r.app.planned_targets.find(after_iteration);
  if (planned != r.app.planned_targets.end()) inst.targets = planned->second;
  else if (own_speeds) inst.targets = rebalanced_targets(inst.loads, *own_speeds, 0.0);
  else inst.targets = rebalanced_targets(inst.loads, speeds, measured.error);
  rec.planned = planned != r.app.planned_targets.end();
  rec.balanced_for_reports = !own_speeds && !rec.planned;
  inst.cost_next = r.cost_next;
  inst.cost_prev = r.cost_prev;
  policy::Prediction p;
  p.fresh = act == policy::Act::gather_and_decide;
  p.time = rec.decision_start;
  p.speeds = speeds;
  p.speed_error = measured.error;
  p.targets = inst.targets;
  p.moves = inst.loads != inst.targets && r.n > 1;
  rec.tstep_before = p.tstep_before = predicted_tstep(r, inst.loads, speeds);
  rec.tstep_after = p.tstep_after = predicted_tstep(r, inst.targets, speeds);
  r.decision.transfer = p.moves;
  if (p.moves) {
    r.decision.plan = plan_redistribution(inst, r.app.algorithm);
    const ReplayReport check = replay(inst, r.decision.plan);
    if (!check.ok) throw std::logic_error("planner produced an infeasible schedule: " + check.error);
    rec.predicted = p.transfer_time = r.decision.plan.time;
    rec.lower_bound = p.lower_bound = r.decision.plan.lower_bound;
    rec.optimal = r.decision.plan.optimal;
    rec.algorithm = r.decision.plan.algorithm;
    for (const auto& t : r.decision.plan.transfers) rec.items_moved += t.items;
  }
  p.decision_time = sg4::Engine::get_clock() - rec.decision_start;
  rec.fresh_reports = p.fresh;
  const bool accepted = ask_every_member(r, after_iteration, "accepted the plan",
                                         [&p](policy::RedistributionPolicy& q, const policy::MemberView& v) {
                                           return q.accept(v, p);
                                         });
  r.decision.transfer = p.moves && accepted;
  XBT_INFO("after iteration %d (%s reports): %s; T_step %g s now, %g s balanced; %ld columns in %g s (bound %g)",
           after_iteration, p.fresh ? "gathered" : "piggybacked",
           !p.moves ? "nothing to move" : accepted ? "redistribute" : "the policy declines the move", rec.tstep_before,
           rec.tstep_after, rec.items_moved, rec.predicted, rec.lower_bound);
  if (r.decision.transfer) {
    r.known.loads.assign(inst.targets.begin(), inst.targets.end());
    r.known.last_move = after_iteration;
  }
}

// A receiver only waits on mailboxes and files columns, a few frames deep: 256 KiB holds it with
// room (guarded's error path included). Each point creates one receiver per member, so the
// default stack (contexts/stack-size, 8 MiB) would map and release 8 MiB per member and point.
// Actor::set_stacksize counts KiB, as contexts/stack-size does.
constexpr unsigned kReceiverStackKiB = 256;

// The receiving side of member i: incoming blocks in the plan's order, one column per message.
static void receive_columns(RingRun* r, std::size_t i) {
  std::vector<const Transfer*> incoming;
  for (const auto& t : r->decision.plan.transfers)
    if (t.to == i) incoming.push_back(&t);
  std::stable_sort(incoming.begin(), incoming.end(), [](const Transfer* a, const Transfer* b) { return a->start < b->start; });
  std::deque<long>& columns = r->members[i].columns;
  for (const Transfer* t : incoming) {
    auto* box = mailbox(*r, "r", i, t->dir == Direction::next ? "p" : "s");
    for (Count k = 0; k < t->items; ++k) {
      std::unique_ptr<long> col(box->get<long>());
      std::unique_lock<sg4::Mutex> lock(*r->sync.mutex);
      // From the predecessor: its last columns come before ours; from the successor: after.
      if (t->dir == Direction::next) columns.push_front(*col); else columns.push_back(*col);
      r->sync.column_arrived->notify_all();
    }
  }
}

// The sending side of member i: blocks in the plan's order, no earlier than planned (each item of
// a paced block no earlier than its own planned departure), each column only once held
// (forwarding what has arrived).
static void send_columns(RingRun& r, std::size_t i, double t0) {
  std::vector<const Transfer*> outgoing;
  for (const auto& t : r.decision.plan.transfers)
    if (t.from == i) outgoing.push_back(&t);
  std::stable_sort(outgoing.begin(), outgoing.end(), [](const Transfer* a, const Transfer* b) { return a->start < b->start; });
  // Not before the planned instant (SimGrid ignores waits below its 1e-9 s accuracy anyway).
  auto not_before = [](double at) {
    if (at - sg4::Engine::get_clock() > 1e-9) sg4::this_actor::sleep_until(at);
  };
  std::deque<long>& columns = r.members[i].columns;
  for (const Transfer* t : outgoing) {
    not_before(t0 + t->start);
    auto* box = mailbox(r, "r", t->to, t->dir == Direction::next ? "p" : "s");
    for (Count k = 0; k < t->items; ++k) {
      // A paced block's items leave at its pace (its period, so no item cost is needed); a
      // back-to-back block's follow each other.
      if (t->period != 0.0 && k > 0) not_before(t0 + departure(*t, k, 0.0));
      long col = 0;
      {
        std::unique_lock<sg4::Mutex> lock(*r.sync.mutex);
        while (columns.empty()) r.sync.column_arrived->wait(lock);
        if (t->dir == Direction::next) {
          col = columns.back();
          columns.pop_back();
        } else {
          col = columns.front();
          columns.pop_front();
        }
      }
      box->put(new long(col), static_cast<uint64_t>(r.app.column_bytes));
    }
  }
}

void redistribution_point(RingRun& r, std::size_t i, int it, policy::Act act) {
  r.sync.barrier->wait();
  if (i == 0) {
    r.out.points.emplace_back();
    r.out.points.back().after_iteration = it;
    r.out.points.back().decision_start = sg4::Engine::get_clock();
  }
  r.sync.barrier->wait();
  if (act == policy::Act::gather_and_decide) {
    enter_phase(r.hosts[i], Phase::reports);
    if (r.members[i].policy->gathers_both_ways()) gather_reports_both_ways(r, i);
    else gather_reports(r, i);
  }
  enter_phase(r.hosts[i], Phase::decision);
  execute_in_iteration(r, i, r.app.decision_flops, it);  // at the speed of the iteration just done
  enter_phase(r.hosts[i], Phase::wait);
  r.sync.barrier->wait();
  if (i == 0) decide(r, it, act);
  r.sync.barrier->wait();
  const double t0 = sg4::Engine::get_clock();
  if (i == 0) r.out.points.back().transfers_start = t0;
  if (r.decision.transfer) {
    sg4::ActorPtr receiver = sg4::Actor::init("receiver-" + std::to_string(i), r.hosts[i])
                                 ->set_stacksize(kReceiverStackKiB)
                                 ->start([&r, i] { guarded(r, [&r, i] { receive_columns(&r, i); }); });
    enter_phase(r.hosts[i], Phase::columns);
    send_columns(r, i, t0);
    receiver->join();
    enter_phase(r.hosts[i], Phase::wait);
  }
  r.sync.barrier->wait();
  if (i == 0) {
    RedistributionRecord& rec = r.out.points.back();
    rec.end = sg4::Engine::get_clock();
    rec.performed = r.decision.transfer;
    rec.simulated = rec.end - rec.transfers_start;
    if (rec.performed)
      XBT_INFO("after iteration %d: %ld columns moved in %g s (planned %g s), decision %g s", it, rec.items_moved,
               rec.simulated, rec.predicted, rec.transfers_start - rec.decision_start);
    check_conservation(r, it);
  }
  r.sync.barrier->wait();
}

}  // namespace ringsim::sim
