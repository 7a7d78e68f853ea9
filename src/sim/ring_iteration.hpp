// The iteration (ring_iteration.cpp): a ring member's actor.
#pragma once

#include "sim/ring_run.hpp"

namespace ringsim::sim {

// A ring member's actor, a class as in SimGrid's app-masterworkers example: from its first
// iteration on, it iterates and stops at the redistribution points and at a rebuild. SimGrid
// copies it into the actor: it holds where the member's state is, not the state.
class RingMember {
 public:
  RingMember(RingRun* ring, std::size_t member, int first_iteration)
      : ring_(ring), member_(member), first_iteration_(first_iteration) {}
  void operator()() {
    guarded(*ring_, [this] { play(); });
  }

 private:
  void play();  // await the columns, then iterate (ring_iteration.cpp)
  RingRun* ring_;
  std::size_t member_;
  int first_iteration_;
};

}  // namespace ringsim::sim
