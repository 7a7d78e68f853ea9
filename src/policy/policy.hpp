// Redistribution policies: when to redistribute (HiPC 2004, Section 7 leaves "how frequently
// redistributions must occur" open). A policy runs at every ring member and sees only what that
// member can know: its own measurements, the ring's facts known from the start, and the reports
// that reached it in simulated messages (piggybacked on border messages, or an explicit
// all-gather). It never sees the traces or another member's state. Pure: no SimGrid here, so
// policies are tested in-process; the simulation (src/sim/) feeds them views and carries out
// their answers.
//
// Adding a policy: one file in src/policy/ defining `SchemeEntry NAME_scheme()` (scheme.hpp) and
// one line `RINGSIM_SCHEME(NAME)` in src/policy/schemes.def (docs/schemes.md, "Writing a policy").
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planners/points/neighbour_routes.hpp"

namespace ringsim::policy {

// What one member measured in one iteration. It rides on messages, `report_bytes` each.
struct Report {
  int iteration = 0;          // 0: nothing known yet
  long load = 0;              // columns held during the iteration
  double compute_time = 0.0;  // s
  double speed = 0.0;         // flop/s measured: load * flops_per_column / compute_time
  double speed_error = 0.0;  // relative: the true speed is within speed * (1 +- speed_error)
  double time = 0.0;          // s, the member's clock when the computation ended
};

// What every member knows from the start: the application and the ring's routes.
struct RingFacts {
  std::size_t n = 0;
  int iterations = 0;
  long columns = 0;
  double flops_per_column = 0.0;
  double column_bytes = 0.0;
  double report_bytes = 0.0;
  double decision_flops = 0.0;   // a planner run, per member
  std::vector<double> peak;      // the members' nominal speeds, flop/s (the initial balance)
  // One message to the successor / predecessor: latency (s) and bottleneck bandwidth (B/s).
  std::vector<double> latency_next, latency_prev, bandwidth_next, bandwidth_prev;
  std::vector<double> cost_next, cost_prev;  // one column to the neighbour, s (the planners' costs)
  double border_time = 0.0;      // predicted border exchange of one iteration
  // Where shared links make the neighbour transfers contend (empty: nowhere): what a move is
  // weighed with accounts for them (predictions.hpp).
  points::NeighbourRoutes routes;
};

// Member `me` after iteration `iteration`.
struct MemberView {
  const RingFacts* ring = nullptr;
  std::size_t me = 0;
  int iteration = 0;
  Report own;                    // this iteration
  double iteration_time = 0.0;   // own: computation and borders
  // The ring's previous iteration (iteration - 1), s: members start an iteration together (after
  // the barrier that ends the previous one, or a redistribution point) and end it at a barrier
  // they leave at the same instant, so each measures this on its own clock. 0 when not known (the
  // first iteration: members start it as their own columns arrive).
  double ring_time = 0.0;
  // Every member's column count now: the initial balance and each plan's targets, which all
  // members computed alike, so common knowledge without a message.
  const std::vector<long>* loads = nullptr;
  int last_move = 0;             // iteration after which columns last moved (0: never)
  // Piggybacking policies only (else empty; newest only if reads_newest(), common only if
  // reads_common()): the newest report of each member that reached me,
  // and the reports of iteration `common_iteration` of every member, which every member holds
  // after this iteration (knowledge spreads one hop per iteration each way), so that a decision
  // on them is the same at every member without a further message.
  const std::vector<Report>* newest = nullptr;
  int common_iteration = 0;      // 0: not yet
  const std::vector<Report>* common = nullptr;
  // When balance_for and accept are asked after gather_and_decide: the speeds the all-gather
  // brought, every member's of this iteration (Prediction::speeds); else null.
  const std::vector<double>* gathered = nullptr;
};

enum class Act {
  carry_on,           // go on iterating
  decide,             // plan now from the common reports (no message), then accept or not
  gather_and_decide,  // explicit all-gather of this iteration's reports, then plan, accept or not
};

// The planners' answer for the speeds the decision balanced for.
struct Prediction {
  bool fresh = false;            // speeds from this iteration's all-gather (else the common reports)
  double time = 0.0;             // s, when the decision started (the speeds' age is known from it)
  std::vector<double> speeds;    // flop/s
  double speed_error = 0.0;      // relative, the largest of the speeds' (0: exact, as oracle speeds)
  std::vector<long> targets;
  double tstep_before = 0.0;     // predicted iteration time with the current loads
  double tstep_after = 0.0;      // and with the targets
  // The targets differ from the loads: the loads are not a balance for any speeds within the
  // speeds' error (rebalanced_targets, planners/redistribution/load_balance.hpp).
  bool moves = false;
  double transfer_time = 0.0;    // the plan's time (0 when nothing moves)
  double lower_bound = 0.0;
  double decision_time = 0.0;    // what deciding has cost so far (gather and planner), s
};

class RedistributionPolicy {
 public:
  virtual ~RedistributionPolicy() = default;
  // Reports ride on the border messages (each message grows by the reports it carries).
  virtual bool piggybacks_reports() const { return false; }
  // What of the piggybacked reports the policy reads (what it does not read is not kept up).
  virtual bool reads_newest() const { return false; }
  virtual bool reads_common() const { return true; }
  // The all-gather of gather_and_decide: n - 1 rounds one way around the ring (the paper's
  // setting), or floor(n/2) rounds both ways.
  virtual bool gathers_both_ways() const { return false; }
  // Never redistributes: the run is its own baseline.
  virtual bool never_redistributes() const { return false; }
  // After each iteration at each member. Must be the same at every member (the simulation checks).
  virtual Act after_iteration(const MemberView& v) = 0;
  // Speeds of the policy's own for the plan to balance, or none: the speeds the decision measured
  // (this iteration's all-gather, or the common snapshot). Must be the same at every member (the
  // simulation checks).
  virtual std::optional<std::vector<double>> balance_for(const MemberView& v) {
    (void)v;
    return std::nullopt;
  }
  // After planning: move the columns? Must also be the same at every member (checked). A policy
  // that weighs the current loads against a balance of its own speeds should ask
  // is_balance_within (load_balance.hpp) as the decision does, so that every scheme sees a
  // balance within the measurement's errors as nothing to move.
  virtual bool accept(const MemberView& v, const Prediction& p) {
    (void)v;
    return p.moves;
  }
  // Which of the policy's rules answered its last accept(), for the point's record (`decided_by`
  // in the result): empty when the policy has one rule, which its scheme's name says.
  virtual std::string decided_by() const { return {}; }
};

}  // namespace ringsim::policy
