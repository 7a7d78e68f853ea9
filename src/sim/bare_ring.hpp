// A bare S4U ring, the yardstick of `ringsim bench simulate`: n actors, each iteration one
// execute, two asynchronous sends (successor, predecessor) and two receives; with `barrier`, the
// members then wait for each other, as ringsim's bulk-synchronous iterations do. Nothing else.
#pragma once

#include <string>

namespace ringsim {

// Runs it on `platform` with the first n hosts (sorted by name); returns the simulated makespan.
double run_bare_ring(const std::string& platform, int n, int iterations, double flops, double bytes, bool barrier,
                     int* argc, char** argv);

}  // namespace ringsim
