// Ring choice (ring_choice.cpp): the rings a run's config asks for, on the loaded platform.
#pragma once

#include "sim/run_state.hpp"

namespace ringsim::sim {

// A ring chosen by the SharedRing planners: its hosts, the 2q paths as explicit routes of a Full
// zone (so that SimGrid uses the planner's paths), and the paths' bandwidth shares.
struct PlannedRing {
  RingRouting routing = RingRouting::platform;
  Platform zone;  // free routing: the ring's hosts, its paths as explicit routes (+ the storage cluster)
  std::vector<std::string> hosts;
  std::vector<double> succ_bw, pred_bw;
  double tstep = 0.0;             // T_step under the work the ratio implies on this ring
  int ratio_rounds = 0;           // plans made to reach the ring of the ratio's fixed point
  bool ratio_converged = false;   // false: the plans cycled or ran out, the best ring was kept
};

// The rings a run's config chose on the platform: the initial one and each rebuild's.
struct ChosenRings {
  PlannedRing planned;                             // selection "planner"
  std::vector<std::string> ring;                   // the initial ring's hosts, in ring order
  std::vector<std::vector<sg4::Host*>> rebuilds;   // one ring per entry of the config's rebuilds
};
// Reads the config whole (selection, ring, platform, staging, rebuilds, trace source): the rings are
// chosen before the application's settings exist.
ChosenRings choose_run_rings(const RunConfig& cfg, sg4::Engine& engine, platform::LoadedPlatform& lp);
std::vector<sg4::Host*> hosts_named(const sg4::Engine& e, const std::vector<std::string>& names);

}  // namespace ringsim::sim
