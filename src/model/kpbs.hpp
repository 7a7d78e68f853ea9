// Value types for KPBS: data moved between two clusters through a backbone (Jeannot and Wagner,
// "Message Scheduling for Data Redistribution through High Performance Networks", DRUIDE 2004,
// seeds/kpbs-ggp-backbone-message-scheduling.md). Sender i of cluster 1 must send times[i][j]
// units of time of data to receiver j of cluster 2. A schedule is a sequence of steps; a step is
// a matching of at most k communications (no node sends or receives two at once), it costs the
// setup delay beta plus its longest communication, and a communication may be preempted (cut
// across several steps). No SimGrid here.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ringsim {

struct KpbsInstance {
  // times[i][j] >= 0: time to send sender i's data for receiver j at full speed (0: nothing).
  std::vector<std::vector<double>> times;
  std::size_t k = 1;   // most communications at once (the KPBS paper's min(v1, v2, floor(bb / min(b1, b2, bb))))
  double beta = 0.0;   // setup delay paid by every step
  // Link capacities for the all-at-once fluid estimate only, in full-speed transfers (1 = the
  // speed of one transfer, min(b1, b2, bb)); backbone_capacity <= 0 means k.
  double sender_capacity = 1.0;
  double receiver_capacity = 1.0;
  double backbone_capacity = 0.0;

  std::size_t senders() const { return times.size(); }
  std::size_t receivers() const { return times.empty() ? 0 : times.front().size(); }
};

struct KpbsComm {
  std::size_t from = 0;  // sender (row)
  std::size_t to = 0;    // receiver (column)
  double amount = 0.0;   // time units of data sent in this step
};

struct KpbsStep {
  double duration = 0.0;  // beta + longest amount (for KPBS schedules)
  std::vector<KpbsComm> comms;
};

struct KpbsSchedule {
  std::string scheduler;
  double time = 0.0;          // sum of step durations
  double lower_bound = 0.0;   // eta of the instance
  // False for the all-at-once baseline: its single "step" ignores k and the one-port rule.
  bool kpbs_feasible = true;
  std::vector<KpbsStep> steps;
  std::vector<std::string> notes;
};

// Throws InputError naming the first problem: no sender or no receiver, ragged rows, a time
// that is negative or not finite, k < 1, beta negative or not finite, a total that overflows.
void validate(const KpbsInstance& inst);

struct KpbsCheck {
  bool ok = true;
  std::string error;  // first violation found, empty when ok
};

// The independent schedule checker (it shares no code with the planners). Checks that every
// communication names an existing sender and receiver with data to send and a positive finite
// amount; that every step holds 1..k communications, each sender and each receiver at most once;
// that its duration is beta + its longest amount; that the amounts of each (sender, receiver)
// pair add up to the matrix entry; and that time is the sum of the durations. `tolerance` is
// relative (to the entry for amounts, to the durations for times).
KpbsCheck check_kpbs_schedule(const KpbsInstance& inst, const KpbsSchedule& schedule, double tolerance = 1e-9);

// Only the parts that hold for every output, the all-at-once baseline included: indices and
// amounts valid, amounts adding up to the matrix, time = sum of durations, and each duration at
// least beta + its longest amount.
KpbsCheck check_kpbs_conservation(const KpbsInstance& inst, const KpbsSchedule& schedule, double tolerance = 1e-9);

}  // namespace ringsim
