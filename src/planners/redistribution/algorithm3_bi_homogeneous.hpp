// Algorithm 3 of the HiPC 2004 paper (Section 5, homogeneous bidirectional ring), step by step,
// with switchable repairs, so that tests can compare the printed rules with the repaired planner.
// plan_algorithm3() (redistribution_algorithms.hpp) runs it with every repair on and is optimal on every
// instance: it always takes exactly the Lemma 3 number of steps.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/redistribution.hpp"

namespace ringsim::redistribution::algorithm3 {

// The sends of one unit step: next[i] (P_i -> P_(i+1)), prev[i] (P_i -> P_(i-1)).
struct StepSends {
  std::vector<char> next;
  std::vector<char> prev;
};

struct Options {
  // Repair 1: lines 25-30 (delta_max = 1) applied until nothing changes instead of one pass in
  // index order.
  bool iterate_forwarding = true;
  // Repair 2: the free choices of lines 19-24 pick the other neighbour when the printed one cannot
  // take part (sender already sending or holding nothing, receiver already receiving).
  bool aware_free_choices = true;
  // Repair 3: a processor holding nothing that lines 4-18 ask to send rests this step instead.
  bool rest_empty_senders = true;
  // Repair 4: when the rules' step is infeasible or leads to a state without a certified schedule
  // of the remaining length, search other combinations of the free choices of lines 21 and 24.
  bool lookahead_search = true;
  // Repair 5: if no combination works, take the first step of the certified schedule instead
  // (run_certified_construction). With it the run always ends in exactly the Lemma 3 number of steps.
  bool certified_fallback = true;
};

enum class Failure {
  none,
  send_one_port,     // a processor is asked to send to both neighbours in one step
  receive_one_port,  // a processor is asked to receive from both neighbours in one step
  availability,      // a processor is asked to send while holding no item
  no_progress,       // after the step, the Lemma 3 bound did not drop by one
};

const char* to_string(Failure f);

struct Run {
  bool ok = false;             // reached the targets in exactly `bound_steps` valid steps
  Count bound_steps = 0;       // Lemma 3 bound of the instance, in steps
  Failure failure = Failure::none;
  Count failed_step = 0;       // 1-based step of the first failure (0 when ok)
  std::string message;         // the first failure in words
  std::vector<StepSends> steps;  // the valid steps executed
  // How often each repair changed the printed rules' outcome, in steps.
  Count forwarding_fixpoint_steps = 0;   // repair 1 added sends beyond one index-order pass
  Count free_choice_availability = 0;    // repair 2: printed neighbour held no item
  Count free_choice_one_port = 0;        // repair 2: printed neighbour's port was taken
  Count empty_senders_rested = 0;        // repair 3: a mandatory send of an empty processor dropped
  Count lookahead_steps = 0;             // repair 4 changed some free choice of the step
  Count fallback_steps = 0;              // repair 5 replaced the rules' step
  std::vector<std::string> fallback_reasons;  // why, one per fallback step
};

// Unit-step sends written as blocks while the steps are produced: one Transfer per maximal run of
// consecutive steps in which a processor sends in the same direction. A run of any length then
// holds O(n + blocks), never its steps. Cost per step: c.
class StepBlocks {
 public:
  StepBlocks(const RingInstance& inst, double c);
  void add(const StepSends& step);
  // Closes the open blocks; fills transfers (by start, sender, direction), time, send_next, send_prev.
  RedistributionPlan finish();

 private:
  static constexpr Count kClosed = -1;
  void close(std::size_t i, Direction dir);

  const RingInstance& inst_;
  double c_;
  Count steps_ = 0;
  std::size_t opened_ = 0;  // blocks so far, open ones included (the budget counts them)
  std::vector<Count> open_[2];  // per direction and sender: the step its current block started
  RedistributionPlan plan_;
};

// Runs Algorithm 3's rules on a homogeneous bidirectional instance (throws InputError if invalid,
// std::invalid_argument if not homogeneous bidirectional). With every option off these are the
// printed lines 1-31 (index order wherever the paper says "for all"); without repair 5 the run
// stops at the first step that violates the one-port model, sends an item not held, or fails to
// lower the Lemma 3 bound.
// With `blocks`, the steps go to it as they are taken instead of into Run::steps.
Run run_rules(const RingInstance& inst, const Options& options, StepBlocks* blocks = nullptr);

inline Run run_printed_rules(const RingInstance& inst) {
  return run_rules(inst, Options{false, false, false, false, false});
}

// The certified schedule behind repairs 4 and 5, used alone: every step is certified_step. It is the
// constructive proof that Lemma 3 is tight (see the .cpp), and a planner in its own right.
Run run_certified_construction(const RingInstance& inst);

// Unit-step sends -> one Transfer per maximal run of consecutive steps in which a processor sends
// in the same direction; fills time, send_next, send_prev. Cost per step: c.
RedistributionPlan plan_from_steps(const RingInstance& inst, const std::vector<StepSends>& steps, double c);

}  // namespace ringsim::redistribution::algorithm3
