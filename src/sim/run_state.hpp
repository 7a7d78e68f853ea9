// The state of a simulated run of the iterative application, split by who writes it, and the
// helpers of run_state.cpp that compute speeds, costs and checks from it. What is fixed before the
// first simulated second (RunSetup) and while a ring is in effect (RingShape) reaches the actors as
// const, so that the compiler keeps them from writing it. What actors must share and write is in
// small structs, each handed only to the actors and functions that use it: the members' states,
// reports and common knowledge of the ring in effect (RingMembers), member 0's Decision, the flags
// of a column move (ColumnMoves), how actors meet (RingSync) and what the run reports
// (RunOutputs). Each actor owns the rest of its state. Internal to the simulation layer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
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
#include "planners/points/hindsight_plan.hpp"
#include "platform/platform_reader.hpp"
#include "policy/policy.hpp"
#include "policy/scheme.hpp"
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
  std::string scheduler;             // and the KPBS scheduler
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
  std::string scheme;                // the redistribution policy (policy/registry.hpp)
  std::string planner;               // the redistribution planner
  TargetMode targets = TargetMode::oracle;  // the speeds a decision on gathered reports balances for
  TracePlacement trace_placement = TracePlacement::iteration;
  std::map<int, Rebuild> rebuilds;   // by the iteration after which each takes place
  // Scheme hindsight-targets: the loads each point moves to, by the iteration it follows; a point
  // not listed balances for its decision speeds.
  std::map<int, std::vector<Count>> planned_point_loads;
};

// ---- read-only once the run starts ----

// What the run is set up with before its first simulated second: the config's settings (a
// reference scheme, such as `hindsight`, is resolved before the run into the fixed scheme of its
// points) and the run's constants. Every actor reads it; none writes it.
struct RunSetup {
  AppSettings app;
  double flops_per_column = 0.0;
  double iteration_time0 = 0.0;      // predicted: the initial ring at its peak speeds
  double time_origin = 0.0;          // iterations (and the traces) start after the staging
  std::vector<HostTrace> all_traces; // every host that is ever a member
};

// A ring in effect from iteration `first` on, fixed while it is in effect (a rebuild makes the
// next one): its members' hosts, speeds and traces, and its neighbour costs.
struct RingShape {
  int first = 1;
  std::size_t n = 0;
  std::vector<sg4::Host*> hosts;             // in ring order
  std::vector<double> peak;                  // flop/s
  std::vector<const HostTrace*> traces;      // the members' traces, in RunSetup::all_traces
  std::vector<double> cost_next, cost_prev;  // one column to the neighbour: latency + bytes / bandwidth
  double border_time = 0.0;                  // predicted border exchange of one iteration
  std::vector<double> rate_next, rate_prev;  // planner bandwidth shares for the borders (empty: none)
  // The neighbour transfers' routes where shared links make them contend (empty: none do), for
  // predicting moves, borders and the all-gather as SimGrid plays them (neighbour_routes).
  points::NeighbourRoutes routes;

  std::size_t succ(std::size_t i) const { return (i + 1) % n; }
  std::size_t pred(std::size_t i) const { return (i + n - 1) % n; }
};

// Every ring in effect so far, in order (the ideal time reads them all). A deque: a ring's member
// actors hold its shape by reference while a rebuild appends the next one.
using RingHistory = std::deque<RingShape>;

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

// What a member passes on of the piggybacked reports: the names it received last iteration and
// the notes it sends (read by its neighbours before the end-of-iteration barrier, rebuilt after
// it). Only its own actor reads and writes them, so the actor owns them (ring_iteration.hpp).
struct ReportRelay {
  std::vector<ReportRef> from_pred, from_succ;       // to pass on next iteration
  BorderNote to_succ, to_pred;
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
};

// What a member measures, answers and knows, and the columns it holds. Its actor writes it. Member
// 0 reads every member's where the algorithm needs it: to record each iteration (every member's
// times and loads: the run's record, not a message of the application), to check that the
// policies answered alike (a decision must rest on what every member knows), and at a point or a
// rebuild to plan with every member's columns, speeds and policy, which the simulated all-gather or
// the piggybacked reports have brought it. The actors that move columns (receivers, stager,
// rebuild) write `columns` and the incoming slots, under RingSync::mutex.
struct MemberState {
  std::deque<long> columns;          // the columns it holds, in order
  double last_compute = 0.0;         // its last computation, s (measured targets)
  double iter_start = 0.0, iter_end = 0.0, iter_span = 0.0;  // its current iteration
  // The ring's last iteration from its common start to the end-of-iteration barrier (0: not known,
  // e.g. the first iteration, whose start follows each member's own staging).
  double ring_time = 0.0;
  std::unique_ptr<policy::RedistributionPolicy> policy;  // its own instance
  policy::Act act = policy::Act::carry_on;               // the policy's answer this iteration
  MemberKnowledge knowledge;                             // what reached it
  // Its columns on their way (staging, rebuild): the interval it will hold and what has arrived.
  ColumnInterval incoming;
  std::vector<long> slots;
  long filled = 0;
};

// ---- shared by the actors, each part handed only where it is used ----

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

// What every member knows alike (policy/policy.hpp), beside its own policy and knowledge.
struct CommonKnowledge {
  bool piggyback = false;            // the policy's reports ride on the border messages
  policy::RingFacts facts;
  std::vector<long> loads;           // the last plan's targets (every member computed them)
  int last_move = 0;                 // the iteration after which columns last moved
};

// The members of the ring in effect: their states (in ring order), the values of the reports their
// knowledge names, and what they know alike. One object for the whole run, started afresh for each
// ring (start_ring): a column move in flight keeps delivering to the ring in effect.
struct RingMembers {
  std::vector<MemberState> states;
  ReportsInFlight reports;
  CommonKnowledge known;
};

// Member 0's decision at a redistribution point (redistribution_point.cpp), read by all after a
// barrier.
struct Decision {
  RedistributionPlan plan;
  bool transfer = false;             // the plan moves columns and the policy accepted it
};

// The state of a column move with a KPBS schedule (kpbs_moves.cpp): staging or rebuild. Each
// member's interval and what has arrived of it are its own (MemberState::incoming).
struct ColumnMoves {
  bool members_await = false;        // the ring in effect's members await their columns (else placed)
  bool playing = false;              // a staging or rebuild move is being played
  bool start_early = false;          // members start once their own interval is complete ("overlap")
};

// Mailboxes by (kind, member, side), found once: asking SimGrid by name is a simcall, and the
// border exchange asks four times per member and iteration.
class Mailboxes {
 public:
  // The mailbox named kind + member + side ("b3p": member 3's border from its predecessor).
  sg4::Mailbox* get(const char* kind, std::size_t member, const char* side);

 private:
  std::unordered_map<std::uint64_t, sg4::Mailbox*> found_;
};

// How the actors meet.
struct RingSync {
  sg4::BarrierPtr barrier;           // the ring in effect's members
  // Held to change a member's columns while columns move, or a move's flags; column_arrived wakes
  // the members and senders that wait for columns.
  sg4::MutexPtr mutex;
  sg4::ConditionVariablePtr column_arrived;
  Mailboxes mailboxes;
};

// What the run reports (RunResult), and what traces.csv needs after the run.
struct RunOutputs {
  std::vector<IterationRecord> iterations;
  std::vector<RedistributionRecord> points;
  ColumnTransferRecord staging;
  std::vector<ColumnTransferRecord> rebuilds;
  // Per host, when its member began computing each iteration (-1: it did not): the times at which
  // changes placed by iteration took effect on that host, for traces.csv after the run. Recorded
  // only when traces are written after the run (each member actor finds its host's entry once).
  bool record_computed_from = false;
  std::unordered_map<const sg4::Host*, std::vector<double>> computed_from;
  std::exception_ptr failure;        // the first error an actor raised (guarded), rethrown after the run
};

// Runs an actor's body. An exception must not escape an actor: SimGrid's contexts cannot carry it
// to Engine::run, and the process would abort with a backtrace. The first one is kept in
// `failure` for run_simulation to rethrow after the run (one line, its own exit status), and every
// other actor is killed so that the run ends there instead of deadlocking on the missing member.
// Only std::exception is caught: the ForcefulKillException by which SimGrid ends a killed actor
// (not a std::exception) passes through untouched. Catching and rethrowing it would call
// __asan_handle_no_return on an actor's stack, which ASan does not know (google/sanitizers#189):
// it then reads the poison left by the unwound frames as a stack-use-after-scope of its own.
template <class Body>
void guarded(std::exception_ptr& failure, Body&& body) {
  try {
    body();
  } catch (const std::exception&) {
    if (!failure) failure = std::current_exception();
    sg4::Actor::kill_all();
  }
}

// A message's payload: the simulation moves bytes, not data.
extern int dummy_payload;

// Speeds, costs and checks (run_state.cpp).
bool placed_by_iteration(const RunSetup& s, const HostTrace& t);
double multiplier_during(const RunSetup& s, const HostTrace& t, int it, double clock, double origin);
double speed_at_iteration(const RunSetup& s, double peak, const HostTrace& t, int it);
double current_speed(const RunSetup& s, const RingShape& ring, std::size_t i, int done);
void execute_in_iteration(const RunSetup& s, const RingShape& ring, std::size_t i, double flops, int it);
// The ring's neighbour transfers as points::NeighbourRoutes when a SHARED link carries two of them
// or a FATPIPE link two of different sharing penalties (lmm then holds them below its capacity in
// proportion, points::max_min_rates); else empty: each column's cost is then its time, and the
// planners' edge costs exact. Reads ring.rate_next/rate_prev: set them first.
points::NeighbourRoutes neighbour_routes(const RunSetup& s, const RingShape& ring);

double predicted_tstep(const RunSetup& s, const RingShape& ring, const std::vector<Count>& loads,
                       const std::vector<double>& speeds);
void check_conservation(long columns, const std::vector<MemberState>& members, int after_iteration);
void route_latency_bandwidth(const sg4::Host* a, const sg4::Host* b, double& latency, double& bandwidth);
double measured_speed(const RunSetup& s, const MemberState& m);
double measured_speed_error(const MemberState& m);
const HostTrace* trace_of(const RunSetup& s, const std::string& host);
// The ring of `hosts`, in effect from iteration `first` (its speeds, traces and neighbour costs).
RingShape ring_shape(const RunSetup& s, const std::vector<sg4::Host*>& hosts, int first);
// The members of `ring` start afresh (their columns, policies and knowledge are set next), with a
// barrier of their own.
void start_ring(const RingShape& ring, RingMembers& members, RingSync& sync);

}  // namespace ringsim::sim
