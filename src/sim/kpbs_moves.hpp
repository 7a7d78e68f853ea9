// KPBS moves (kpbs_moves.cpp): columns staged from a storage cluster by the stager actor, or handed
// over to a rebuilt ring by the old ring's member 0, scheduled by the backbone planners; and the
// storage cluster's place on the platform.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/run_state.hpp"

namespace ringsim::sim {

// The members of the ring in effect will hold `intervals`; their columns arrive from a move.
void expect_columns(RingMembers& ms, ColumnMoves& moves, const std::vector<ColumnInterval>& intervals, bool overlap);
// Member `m` waits until it may start: its interval complete, and the move over unless it overlaps.
void await_columns(const ColumnMoves& moves, const MemberState& m, RingSync& sync);

// The stager's actor: plays the staging planned before the run onto the initial ring's members.
class Stager {
 public:
  Stager(const RunSetup& setup, const ColumnTransfer& staging, RingMembers& members, ColumnMoves& moves,
         RingSync& sync, RunOutputs& out)
      : setup_(setup), staging_(staging), members_(members), moves_(moves), sync_(sync), out_(out) {}
  void operator()() {
    guarded(out_.failure, [this] { play(); });
  }

 private:
  void play();
  const RunSetup& setup_;
  const ColumnTransfer& staging_;
  RingMembers& members_;
  ColumnMoves& moves_;
  RingSync& sync_;
  RunOutputs& out_;
};

// Starts the actors of the ring `next`, which takes over after iteration `after` (the caller's
// RingMember knows how to make them).
using StartRing = std::function<void(const RingShape& next, int after)>;

// Member i's part of the rebuild after iteration `it`: the old members gather and decide; member 0
// then appends the new ring to `rings`, starts its members and plays the move.
void rebuild_point(const RunSetup& s, const RingShape& ring, RingHistory& rings, RingMembers& ms, RingSync& sync,
                   ColumnMoves& moves, RunOutputs& out, std::size_t i, int it, const StartRing& start_members);

void attach_storage(Platform& zone, const Platform& source, const StagingConfig& st,
                    const std::vector<std::size_t>& receivers, const std::string& default_gateway,
                    const std::function<std::size_t(std::size_t)>& zone_link);
// The staging's KPBS move from the storage cluster to `ring`'s members, holding `wanted`.
ColumnTransfer plan_staging(const StagingConfig& st, const sg4::Engine& e, const RunSetup& setup,
                            const RingShape& ring, const std::vector<ColumnInterval>& wanted);

}  // namespace ringsim::sim
