// A ring member's actor (ring_iteration.cpp): from its first iteration on, it computes its columns,
// exchanges a border column with each neighbour, and stops at the redistribution points and at a
// rebuild (HiPC 2004, Section 7).
#pragma once

#include <vector>

#include "sim/run_state.hpp"

namespace ringsim::sim {

// A class as in SimGrid's app-masterworkers example, copied by SimGrid into its actor. It is handed
// the run's setup and its ring's shape read-only, and the parts it shares with the other actors by
// reference (run_state.hpp says who writes each); it owns what only it uses: its iteration loop, its
// host's entry of the recorded start times, and the reports it relays.
class RingMember {
 public:
  RingMember(const RunSetup& setup, const RingShape& ring, std::size_t member, int first_iteration,
             RingHistory& rings, RingMembers& members, RingSync& sync, Decision& decision, ColumnMoves& moves,
             RunOutputs& out);
  void operator()() {
    guarded(out_.failure, [this] { play(); });
  }

 private:
  void play();                    // await the columns, then iterate
  void iterate(int it);
  void record_iteration(int it);  // member 0, once every member has ended iteration `it`
  // The actors of the ring that takes over after iteration `it` (a rebuild, started by member 0).
  void start_next_ring(const RingShape& next, int it);

  const RunSetup& setup_;
  const RingShape& ring_;
  RingHistory& rings_;
  RingMembers& members_;
  RingSync& sync_;
  Decision& decision_;
  ColumnMoves& moves_;
  RunOutputs& out_;
  std::size_t member_;
  int first_iteration_;
  // Its host's entry in RunOutputs::computed_from when that is recorded (else null): found once.
  std::vector<double>* computed_from_;
  ReportRelay relay_;
  // Its border mailboxes (from its predecessor, from its successor, to them), fixed for its ring:
  // each found at its first use in the first exchange (finding one is a simcall, so the order of
  // the first exchange's simcalls stays that of every later one's), then kept.
  sg4::Mailbox *from_pred_ = nullptr, *from_succ_ = nullptr, *to_succ_ = nullptr, *to_pred_ = nullptr;
  sg4::Mailbox* border_box(sg4::Mailbox*& kept, std::size_t member, const char* side);
};

}  // namespace ringsim::sim
