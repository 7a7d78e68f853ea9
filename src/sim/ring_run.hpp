// The application's state, shared by the files of src/sim/ that simulate the iterative
// application (ring_simulation.cpp runs it), and the helpers of ring_run.cpp. Each other file is
// one concern, as each SimGrid example is one idea, and declares its functions in its own header:
// the iteration (ring_iteration.hpp), what members know (member_reports.hpp), a redistribution
// point (redistribution_point.hpp), KPBS moves (kpbs_moves.hpp), ring choice (ring_choice.hpp),
// traces (run_traces.hpp), the references' model (reference_model.hpp), what moves earned
// (move_earnings.hpp). Internal to the simulation layer.
//
// The state, as the application reads it:
//   AppSettings    what the run's config asks of the application, read once (with each Rebuild)
//   MemberState    one member's own: its columns, times, policy, knowledge, incoming columns
//   RingRun        what the members share, in sections: the settings, the run's constants, the
//                  ring in effect with its MemberStates, CommonKnowledge, member 0's Decision, the
//                  ColumnMoves of a staging or rebuild, RingSync (barrier, mutex, mailboxes) and
//                  the RunOutputs
//   RingMember     a member's actor (ring_iteration.hpp): a pointer to the RingRun and an index
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>

#include "model/column_moves.hpp"
#include "model/platform_graph.hpp"
#include "model/redistribution.hpp"
#include "model/run_config.hpp"
#include "model/run_result.hpp"
#include "model/speed_traces.hpp"
#include "planners/points/hindsight.hpp"
#include "platform/platform_reader.hpp"
#include "policies/policy.hpp"
#include "policies/scheme.hpp"
#include "sim/column_transfer.hpp"

namespace ringsim::sim {

namespace sg4 = simgrid::s4u;

// ---- what the config asks ----

// A rebuild (kpbs_moves.cpp): the ring that takes over, and how the columns move to it.
struct Rebuild {
  std::size_t index = 0;             // in the config's rebuilds: names the new members' actors
  std::vector<sg4::Host*> hosts;     // the new ring, in ring order
  std::size_t k = 0;                 // the KPBS move: concurrent transfers (0: interference-free),
  double beta = 0.0;                 // setup delay of a step, s,
  std::string algorithm;             // and scheduler
  bool overlap = false;              // the new members start once they hold their own columns
};

// What the application reads of the run's config, read once (ring_simulation.cpp): the files of
// src/sim see these, not RunConfig, which only choosing the rings and the traces reads whole.
struct AppSettings {
  int iterations = 0;
  long columns = 0;                  // of the matrix
  double column_bytes = 0.0;         // one column: its rows of doubles
  double report_bytes = 0.0;         // one member's report (all-gather, piggybacked)
  double decision_flops = 0.0;       // the planner's work at a redistribution point, per member
  std::string scheme;                // the redistribution policy (policies/registry.hpp)
  std::string algorithm;             // the redistribution planner
  TargetMode targets = TargetMode::oracle;  // the speeds a decision on gathered reports balances for
  TracePlacement trace_placement = TracePlacement::iteration;
  std::map<int, Rebuild> rebuilds;   // by the iteration after which each takes place
  // Scheme hindsight-targets: the loads each point moves to, by the iteration it follows; a point
  // not listed balances for its decision speeds.
  std::map<int, std::vector<Count>> planned_targets;
};

// ---- each member's own ----

// A report named by the member it describes and its iteration; its value is in ReportsInFlight.
struct ReportRef {
  std::uint32_t member = 0;
  std::int32_t iteration = 0;
};

// A border message's payload: the reports it carries (empty unless the policy piggybacks them).
struct BorderNote {
  std::vector<ReportRef> reports;
};

// What one member has learnt from the messages that reached it (member_reports.cpp): which
// reports, by name; their values are the ring's ReportsInFlight, the same for every holder.
struct MemberKnowledge {
  int first_iteration = 1;                           // of the ring in effect
  bool reads_common = false;                         // the policy reads the common snapshot
  std::vector<std::int32_t> seen;                    // per member: the iteration of its newest report here (0: none)
  std::vector<policy::Report> newest;                // per member, if the policy reads it
  // Every member's report of common_iteration: a row of ReportsInFlight, once all of them are here.
  const std::vector<policy::Report>* common = nullptr;
  int common_iteration = 0;
  std::vector<ReportRef> from_pred, from_succ;       // to pass on next iteration
  BorderNote to_succ, to_pred;  // this member's notes, rebuilt each iteration (read before the barrier)
};

// One member's own state. Its actor writes it; member 0 reads everyone's (the iteration's record,
// the policies' agreement, a decision), hence it lives in the ring's state, not in the actor.
struct MemberState {
  std::deque<long> columns;          // the columns it holds, in order
  double last_compute = 0.0;         // its last computation, s (measured targets)
  double iter_start = 0.0, iter_end = 0.0, iter_span = 0.0;  // its current iteration
  // The ring's last iteration from its common start to the end-of-iteration barrier (0: not known,
  // e.g. the first iteration, whose start follows each member's own staging).
  double ring_time = 0.0;
  // Its host's entry in RunOutputs::computed_from when that is recorded (else null): found once.
  std::vector<double>* computed_from = nullptr;
  std::unique_ptr<policy::RedistributionPolicy> policy;  // its own instance
  policy::Act act = policy::Act::carry_on;               // the policy's answer this iteration
  MemberKnowledge knowledge;                             // what reached it
  // Its columns on their way (staging, rebuild): the interval it will hold and what has arrived.
  ColumnInterval incoming;
  std::vector<long> slots;
  long filled = 0;
};

// ---- the ring's shared state ----

// The ring in effect from iteration `first` on (a rebuild starts a new one), for the ideal time.
struct RingEpoch {
  int first = 1;
  std::vector<double> peak;
  std::vector<const HostTrace*> traces;
  double border_time = 0.0;
};

// The values of the piggybacked reports that may still be read, once for the whole ring: member j's
// report of iteration k is one value wherever it travels, so members hold names (MemberKnowledge)
// and read values here, n (floor(n/2) + 1) reports in all where a copy per member would be n times
// that (fewer rows when the ring has fewer iterations: no two of them share a row). Members end
// each iteration at a barrier, so while they are in iteration t the rows hold iterations
// t - floor(n/2) .. t, and the oldest one read is t - floor(n/2) + 1 (the common snapshot,
// member_reports.cpp).
struct ReportsInFlight {
  std::vector<std::vector<policy::Report>> rows;     // rows[k % rows.size()][j]: member j's report of iteration k
  std::vector<policy::Report>& row(int iteration) { return rows[static_cast<std::size_t>(iteration) % rows.size()]; }
  const std::vector<policy::Report>& row(int iteration) const {
    return rows[static_cast<std::size_t>(iteration) % rows.size()];
  }
};

// What every member knows alike (policies/policy.hpp), beside its own policy and knowledge.
struct CommonKnowledge {
  bool piggyback = false;            // the policy's reports ride on the border messages
  policy::RingFacts facts;
  std::vector<long> loads;           // the last plan's targets (every member computed them)
  int last_move = 0;                 // the iteration after which columns last moved
};

// Member 0's decision at a redistribution point (redistribution_point.cpp), read by all after a
// barrier.
struct Decision {
  RedistributionPlan plan;
  bool transfer = false;             // the plan moves columns and the policy accepted it
};

// Columns moved with KPBS schedules (kpbs_moves.cpp): the staging's plan, and the move being played.
// Each member's interval and what has arrived of it are its own (MemberState::incoming).
struct ColumnMoves {
  ColumnTransfer staging;            // planned before the run, played by the stager
  bool members_await = false;        // the ring in effect's members await their columns (else placed)
  bool playing = false;              // a staging or rebuild move is being played
  bool start_early = false;          // members start once their own interval is complete ("overlap")
};

// How the actors meet.
struct RingSync {
  sg4::BarrierPtr barrier;           // the ring in effect's members
  // Held to change a member's columns while columns move, or a move's flags; column_arrived wakes
  // the members and senders that wait for columns.
  sg4::MutexPtr mutex;
  sg4::ConditionVariablePtr column_arrived;
  // Mailboxes by (kind, member, side), found once: asking SimGrid by name is a simcall, and the
  // border exchange asks four times per member and iteration.
  std::unordered_map<std::uint64_t, sg4::Mailbox*> mailboxes;
};

// What the run reports (RunResult), and what traces.csv needs after the run.
struct RunOutputs {
  std::vector<IterationRecord> iterations;
  std::vector<RedistributionRecord> points;
  ColumnTransferRecord staging;
  std::vector<ColumnTransferRecord> rebuilds;
  // Per host, when its member began computing each iteration (-1: it did not): the times at which
  // changes placed by iteration took effect on that host, for traces.csv after the run. Recorded
  // only when traces are written after the run (MemberState::computed_from).
  bool record_computed_from = false;
  std::unordered_map<const sg4::Host*, std::vector<double>> computed_from;
};

// Everything the ring members share, in sections. Actors receive a pointer to it: state is explicit.
struct RingRun {
  explicit RingRun(AppSettings settings) : app(std::move(settings)) {}

  // What the config asks of the application; set before the run (a reference scheme, such as
  // `hindsight`, is resolved there into the fixed scheme of its points), then only read.
  AppSettings app;

  // The run's constants, set before the first iteration (ring_simulation.cpp).
  double flops_per_column = 0.0;
  double iteration_time0 = 0.0;      // predicted: the initial ring at its peak speeds
  double time_origin = 0.0;          // iterations (and the traces) start after the staging
  std::vector<HostTrace> all_traces; // every host that is ever a member

  // The ring in effect (set_ring; a rebuild sets the next one).
  std::size_t n = 0;
  std::vector<sg4::Host*> hosts;
  std::vector<double> peak;                  // flop/s
  std::vector<const HostTrace*> traces;      // the members' traces, in all_traces
  std::vector<double> cost_next, cost_prev;  // one column to the neighbour: latency + bytes / bandwidth
  double border_time = 0.0;                  // predicted border exchange of one iteration
  std::vector<double> rate_next, rate_prev;  // planner bandwidth shares for the borders (empty: none)
  std::vector<MemberState> members;          // in ring order
  ReportsInFlight reports;                   // the values of what the members' knowledge names
  std::vector<RingEpoch> epochs;             // each ring in effect so far, for the ideal time

  CommonKnowledge known;
  Decision decision;
  ColumnMoves moves;
  RingSync sync;
  RunOutputs out;
  std::exception_ptr failure;        // the first error an actor raised (guarded), rethrown after the run
};

// Runs an actor's body. An exception must not escape an actor: SimGrid's contexts cannot carry it
// to Engine::run, and the process would abort with a backtrace. The first one is kept in
// r.failure for run_simulation to rethrow after the run (one line, its own exit status), and every
// other actor is killed so that the run ends there instead of deadlocking on the missing member.
// Only std::exception is caught: the ForcefulKillException by which SimGrid ends a killed actor
// (not a std::exception) passes through untouched. Catching and rethrowing it would call
// __asan_handle_no_return on an actor's stack, which ASan does not know (google/sanitizers#189):
// it then reads the poison left by the unwound frames as a stack-use-after-scope of its own.
template <class Body>
void guarded(RingRun& r, Body&& body) {
  try {
    body();
  } catch (const std::exception&) {
    if (!r.failure) r.failure = std::current_exception();
    sg4::Actor::kill_all();
  }
}

// A message's payload: the simulation moves bytes, not data.
extern int dummy_payload;

inline std::size_t succ(const RingRun& r, std::size_t i) { return (i + 1) % r.n; }
inline std::size_t pred(const RingRun& r, std::size_t i) { return (i + r.n - 1) % r.n; }

// The ring's state and its helpers (ring_run.cpp).
// The mailbox named kind + member + side ("b3p": member 3's border from its predecessor).
sg4::Mailbox* mailbox(RingRun& r, const char* kind, std::size_t member, const char* side);
bool placed_by_iteration(const RingRun& r, const HostTrace& t);
double multiplier_during(const RingRun& r, const HostTrace& t, int it, double clock, double origin);
double speed_at_iteration(const RingRun& r, double peak, const HostTrace& t, int it);
double current_speed(const RingRun& r, std::size_t i, int done);
void execute_in_iteration(RingRun& r, std::size_t i, double flops, int it);
double predicted_tstep(const RingRun& r, const std::vector<Count>& loads, const std::vector<double>& speeds);
void check_conservation(const RingRun& r, int after_iteration);
void route_latency_bandwidth(const sg4::Host* a, const sg4::Host* b, double& latency, double& bandwidth);
double measured_speed(const RingRun& r, std::size_t i);
double measured_speed_error(const RingRun& r, std::size_t i);
const HostTrace* trace_of(const RingRun& r, const std::string& host);
void set_ring(RingRun& r, const std::vector<sg4::Host*>& hosts, int first);

}  // namespace ringsim::sim
