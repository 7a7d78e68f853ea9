// A redistribution point, where the policy asked for one: the members' reports travel around the
// ring (all-gather) unless the policy decides on the piggybacked ones, member 0 plans with the
// redistribution planners, the policy accepts the plan or not, and the columns move with real
// transfers following the plan's schedule; the decision time is logged apart from the transfer time.
#include "sim/redistribution_point.hpp"
#include "sim/member_reports.hpp"

#include <algorithm>
#include <stdexcept>

#include "model/replay.hpp"
#include "planners/points/played_move.hpp"
#include "planners/redistribution/load_balance.hpp"
#include "planners/redistribution/redistribution_planner.hpp"
#include "sim/app_phases.hpp"

#include <xbt/log.h>

XBT_LOG_EXTERNAL_CATEGORY(ringsim_app);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(ringsim_app_redistribution, ringsim_app,
                                "ringsim: redistribution points (reports, decisions, column moves)");

namespace ringsim::sim {

// All-gather of the members' reports around the ring: n-1 rounds, each member forwards to its
// successor the report it received in the previous round. Afterwards everyone knows everything.
void gather_reports(const RunSetup& s, const RingShape& ring, Mailboxes& boxes, std::size_t i) {
  for (std::size_t round = 1; round < ring.n; ++round) {
    int* got = nullptr;
    auto recv = boxes.get("g", i, "")->get_async<int>(&got);
    boxes.get("g", ring.succ(i), "")->put(&dummy_payload, static_cast<uint64_t>(std::max(1.0, s.app.report_bytes)));
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

static DecisionSpeeds decision_speeds(const RunSetup& s, const RingShape& ring, const RingMembers& ms,
                                      int after_iteration, policy::Act act) {
  DecisionSpeeds d{std::vector<double>(ring.n), 0.0};
  if (act == policy::Act::gather_and_decide) {
    for (std::size_t i = 0; i < ring.n; ++i) {
      if (s.app.targets == TargetMode::oracle) {
        d.speeds[i] = current_speed(s, ring, i, after_iteration);
      } else {
        d.speeds[i] = measured_speed(s, ms.states[i]);
        d.error = std::max(d.error, measured_speed_error(ms.states[i]));
      }
    }
    return d;
  }
  const MemberKnowledge& k = ms.states[0].knowledge;
  if (k.common_iteration == 0 || k.common == nullptr || k.common->size() != ring.n)
    throw std::logic_error("policy '" + s.app.scheme + "' decided without the members' reports");
  for (std::size_t i = 1; i < ring.n; ++i)
    if (ms.states[i].knowledge.common_iteration != k.common_iteration)
      throw std::logic_error("members 0 and " + std::to_string(i) + " hold different common reports");
  for (std::size_t i = 0; i < ring.n; ++i) {
    d.speeds[i] = (*k.common)[i].speed;
    d.error = std::max(d.error, (*k.common)[i].speed_error);
  }
  return d;
}

// The same knowledge in half the rounds: each member sends its report both ways and passes on,
// each round, what it received the round before; after floor(n/2) rounds everyone knows
// everything (forward reach floor(n/2), backward n - 1 - floor(n/2), as member_reports.cpp).
static void gather_reports_both_ways(const RunSetup& s, const RingShape& ring, Mailboxes& boxes, std::size_t i) {
  const std::size_t forward = forward_reach(ring.n), backward = backward_reach(ring.n);
  const auto bytes = static_cast<uint64_t>(std::max(1.0, s.app.report_bytes));
  for (std::size_t round = 1; round <= forward; ++round) {
    int* got_pred = nullptr;
    int* got_succ = nullptr;
    std::vector<sg4::CommPtr> comms;
    comms.push_back(boxes.get("G", i, "p")->get_async<int>(&got_pred));
    comms.push_back(boxes.get("G", ring.succ(i), "p")->put_async(&dummy_payload, bytes));
    if (round <= backward) {
      comms.push_back(boxes.get("G", i, "s")->get_async<int>(&got_succ));
      comms.push_back(boxes.get("G", ring.pred(i), "s")->put_async(&dummy_payload, bytes));
    }
    sg4::Comm::wait_all(comms);
  }
}

// Member 0's policy's answer to `ask`, after checking that every member's policy answers alike: a
// policy decides on what every member knows (`what` names the answer when one differs). Member 0
// asks the others' policies itself: each would answer from the same views, and asking them in
// their own actors would take a barrier the model does not have.
template <class Ask>
static auto ask_every_member(const RunSetup& s, const RingMembers& ms, int after_iteration,
                             const std::vector<double>* gathered, const char* what, Ask ask) {
  auto view = [&](std::size_t i) {
    policy::MemberView v = view_of(s, ms, i, after_iteration);
    v.gathered = gathered;
    return v;
  };
  const auto answer = ask(*ms.states[0].policy, view(0));
  for (std::size_t i = 1; i < ms.states.size(); ++i)
    if (ask(*ms.states[i].policy, view(i)) != answer)
      throw std::logic_error("policy '" + s.app.scheme + "' " + what + " after iteration " +
                             std::to_string(after_iteration) + " at some members only");
  return answer;
}

// Member 0 turns the reports into a plan (every member could: they all hold the same reports),
// and every member's policy says whether to carry it out; all must agree.
static void decide(const RunSetup& s, const RingShape& ring, RingMembers& ms, Decision& decision,
                   RedistributionRecord& rec, int after_iteration, policy::Act act) {
  const DecisionSpeeds measured = decision_speeds(s, ring, ms, after_iteration, act);
  const std::vector<double>& speeds = measured.speeds;
  RingInstance inst;
  inst.bidirectional = ring.n > 1;
  for (const auto& m : ms.states) inst.loads.push_back(static_cast<Count>(m.columns.size()));
  if (inst.loads != ms.known.loads) throw std::logic_error("the members' column counts are not the last plan's targets");
  const std::vector<double>* gathered = act == policy::Act::gather_and_decide ? &speeds : nullptr;
  const auto own_speeds = ask_every_member(s, ms, after_iteration, gathered, "balanced for speeds of its own",
                                           [](policy::RedistributionPolicy& q, const policy::MemberView& v) {
                                             return q.balance_for(v);
                                           });
  // The targets: the plan's (hindsight-targets), or the balance of the speeds, which is the loads
  // themselves when they are a balance for speeds within the speeds' error (a policy's own speeds
  // are exact): a point where only the measurement's rounding differs moves nothing, and near
  // ties go where exact speeds would send them (load_balance.hpp).
  const auto planned = s.app.planned_point_loads.find(after_iteration);
  if (planned != s.app.planned_point_loads.end()) inst.targets = planned->second;
  else if (own_speeds) inst.targets = redistribution::rebalanced_targets(inst.loads, *own_speeds, 0.0);
  else inst.targets = redistribution::rebalanced_targets(inst.loads, speeds, measured.error);
  rec.planned = planned != s.app.planned_point_loads.end();
  rec.balanced_for_reports = !own_speeds && !rec.planned;
  inst.cost_next = ring.cost_next;
  inst.cost_prev = ring.cost_prev;
  policy::Prediction p;
  p.fresh = act == policy::Act::gather_and_decide;
  p.time = rec.decision_start;
  p.speeds = speeds;
  p.speed_error = measured.error;
  p.targets = inst.targets;
  p.moves = inst.loads != inst.targets && ring.n > 1;
  rec.tstep_before = p.tstep_before = predicted_tstep(s, ring, inst.loads, speeds);
  rec.tstep_after = p.tstep_after = predicted_tstep(s, ring, inst.targets, speeds);
  decision.transfer = p.moves;
  if (p.moves) {
    decision.plan = redistribution::plan_redistribution(inst, s.app.planner);
    const ReplayReport check = replay(inst, decision.plan);
    if (!check.ok) throw std::logic_error("planner produced an infeasible schedule: " + check.error);
    rec.plan_time = decision.plan.time;
    rec.predicted = p.transfer_time = points::predicted_move_time(decision.plan, inst.loads, ring.routes);
    rec.lower_bound = p.lower_bound = decision.plan.lower_bound;
    rec.optimal = decision.plan.optimal;
    rec.planner = decision.plan.planner;
    for (const auto& t : decision.plan.transfers) rec.items_moved += t.items;
  }
  p.decision_time = sg4::Engine::get_clock() - rec.decision_start;
  rec.fresh_reports = p.fresh;
  const bool accepted = ask_every_member(s, ms, after_iteration, gathered, "accepted the plan",
                                         [&p](policy::RedistributionPolicy& q, const policy::MemberView& v) {
                                           return q.accept(v, p);
                                         });
  decision.transfer = p.moves && accepted;
  rec.decided_by = ms.states[0].policy->decided_by();
  if (rec.decided_by.empty()) rec.decided_by = s.app.scheme;
  XBT_INFO("after iteration %d (%s reports): %s; T_step %g s now, %g s balanced; %ld columns in %g s (bound %g)",
           after_iteration, p.fresh ? "gathered" : "piggybacked",
           !p.moves ? "nothing to move" : accepted ? "redistribute" : "the policy declines the move", rec.tstep_before,
           rec.tstep_after, rec.items_moved, rec.predicted, rec.lower_bound);
  if (decision.transfer) {
    ms.known.loads.assign(inst.targets.begin(), inst.targets.end());
    ms.known.last_move = after_iteration;
  }
}

// A receiver only waits on mailboxes and files columns, a few frames deep: 256 KiB holds it with
// room (guarded's error path included). Each point creates one receiver per member, so the
// default stack (contexts/stack-size, 8 MiB) would map and release 8 MiB per member and point.
// Actor::set_stacksize counts KiB, as contexts/stack-size does.
constexpr unsigned kReceiverStackKiB = 256;

// A receiver of member i: incoming blocks in the plan's order, one column per message, filed
// into the member's columns. An actor of its own, so that the member sends while it receives; it
// is handed the plan read-only and the columns it fills.
class ColumnReceiver {
 public:
  ColumnReceiver(const RedistributionPlan& plan, std::size_t member, std::deque<long>& columns, RingSync& sync,
                 std::exception_ptr& failure)
      : plan_(plan), member_(member), columns_(columns), sync_(sync), failure_(failure) {}
  void operator()() {
    guarded(failure_, [this] { receive(); });
  }

 private:
  void receive() {
    for (const Transfer* t : blocks_in_play_order(plan_, member_, false)) {
      auto* box = sync_.mailboxes.get("r", member_, t->dir == Direction::next ? "p" : "s");
      for (Count k = 0; k < t->items; ++k) {
        std::unique_ptr<long> col(box->get<long>());
        std::unique_lock<sg4::Mutex> lock(*sync_.mutex);
        // From the predecessor: its last columns come before ours; from the successor: after.
        if (t->dir == Direction::next) columns_.push_front(*col); else columns_.push_back(*col);
        sync_.column_arrived->notify_all();
      }
    }
  }

  const RedistributionPlan& plan_;
  std::size_t member_;
  std::deque<long>& columns_;
  RingSync& sync_;
  std::exception_ptr& failure_;
};

// The sending side of member i: blocks in the plan's order, no earlier than planned (each item of
// a paced block no earlier than its own planned departure), each column only once held
// (forwarding what has arrived).
static void send_columns(const RunSetup& s, const RedistributionPlan& plan, std::size_t i, std::deque<long>& columns,
                         RingSync& sync, double t0) {
  // Not before the planned instant (SimGrid ignores waits below its 1e-9 s accuracy anyway).
  auto not_before = [](double at) {
    if (at - sg4::Engine::get_clock() > 1e-9) sg4::this_actor::sleep_until(at);
  };
  for (const Transfer* t : blocks_in_play_order(plan, i, true)) {
    not_before(t0 + t->start);
    auto* box = sync.mailboxes.get("r", t->to, t->dir == Direction::next ? "p" : "s");
    for (Count k = 0; k < t->items; ++k) {
      // A paced block's items leave at its pace (its period, so no item cost is needed); a
      // back-to-back block's follow each other.
      if (t->period != 0.0 && k > 0) not_before(t0 + departure(*t, k, 0.0));
      long col = 0;
      {
        std::unique_lock<sg4::Mutex> lock(*sync.mutex);
        while (columns.empty()) sync.column_arrived->wait(lock);
        if (t->dir == Direction::next) {
          col = columns.back();
          columns.pop_back();
        } else {
          col = columns.front();
          columns.pop_front();
        }
      }
      box->put(new long(col), static_cast<uint64_t>(s.app.column_bytes));
    }
  }
}

void redistribution_point(const RunSetup& s, const RingShape& ring, RingMembers& ms, RingSync& sync,
                          Decision& decision, RunOutputs& out, std::size_t i, int it, policy::Act act) {
  sync.barrier->wait();
  if (i == 0) {
    out.points.emplace_back();
    out.points.back().after_iteration = it;
    out.points.back().decision_start = sg4::Engine::get_clock();
  }
  sync.barrier->wait();
  if (act == policy::Act::gather_and_decide) {
    enter_phase(ring.hosts[i], Phase::reports);
    if (ms.states[i].policy->gathers_both_ways()) gather_reports_both_ways(s, ring, sync.mailboxes, i);
    else gather_reports(s, ring, sync.mailboxes, i);
  }
  enter_phase(ring.hosts[i], Phase::decision);
  execute_in_iteration(s, ring, i, s.app.decision_flops, it);  // at the speed of the iteration just done
  enter_phase(ring.hosts[i], Phase::wait);
  sync.barrier->wait();
  if (i == 0) decide(s, ring, ms, decision, out.points.back(), it, act);
  sync.barrier->wait();
  const double t0 = sg4::Engine::get_clock();
  if (i == 0) out.points.back().transfers_start = t0;
  if (decision.transfer) {
    std::deque<long>& columns = ms.states[i].columns;
    sg4::ActorPtr receiver = sg4::Actor::init("receiver-" + std::to_string(i), ring.hosts[i])
                                 ->set_stacksize(kReceiverStackKiB)
                                 ->start(ColumnReceiver(decision.plan, i, columns, sync, out.failure));
    enter_phase(ring.hosts[i], Phase::columns);
    send_columns(s, decision.plan, i, columns, sync, t0);
    receiver->join();
    enter_phase(ring.hosts[i], Phase::wait);
  }
  sync.barrier->wait();
  if (i == 0) {
    RedistributionRecord& rec = out.points.back();
    rec.end = sg4::Engine::get_clock();
    rec.performed = decision.transfer;
    rec.simulated = rec.end - rec.transfers_start;
    if (rec.performed)
      XBT_INFO("after iteration %d: %ld columns moved in %g s (planned %g s), decision %g s", it, rec.items_moved,
               rec.simulated, rec.predicted, rec.transfers_start - rec.decision_start);
    check_conservation(s.app.columns, ms.states, it);
  }
  sync.barrier->wait();
}

}  // namespace ringsim::sim
