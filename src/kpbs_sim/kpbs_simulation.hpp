// Executing a KPBS schedule (seeds/kpbs-ggp-backbone-message-scheduling.md) in SimGrid, on the
// KPBS paper's Figure 1 platform: two clusters, each node on its own link to its cluster's switch, the
// two switches joined by a backbone. One simulation per process (docs/design.md): the caller forks.
#pragma once

#include <cstddef>
#include <vector>

#include "model/kpbs.hpp"

namespace ringsim::kpbs_sim {

struct KpbsPlatformSpec {
  std::size_t v1 = 1, v2 = 1;  // nodes of cluster 1 (senders) and cluster 2 (receivers)
  double b1 = 1.0, b2 = 1.0;   // bandwidth of a node's link to its switch, bytes/s
  double bb = 1.0;             // backbone bandwidth, bytes/s
  double latency = 0.0;        // backbone latency, s (node links have none)
  bool linear_model = true;    // CM02 without TCP effects (the KPBS paper's model), else LV08
};

struct KpbsSimulationResult {
  double makespan = 0.0;               // simulated time of the whole schedule
  std::vector<double> step_durations;  // simulated, setup delay included
};

// Builds the platform (S4U API: a Full zone, hosts c1-i / c2-j, routers sw1 / sw2 and explicit
// routes c1-i -> link c1-i -> backbone -> link c2-j -> c2-j), then plays `schedule` step by step:
// sleep beta, start the step's transfers together (amount * unit_bandwidth bytes each, rounded to
// whole bytes), wait for all of them, next step. Builds the Engine from argc/argv.
KpbsSimulationResult simulate_kpbs_schedule(const KpbsSchedule& schedule, double beta, double unit_bandwidth,
                                            const KpbsPlatformSpec& platform, int* argc, char** argv);

}  // namespace ringsim::kpbs_sim
