// A bare S4U ring, the yardstick of `ringsim bench simulate`: n actors, each iteration one
// execute, two asynchronous sends (successor, predecessor) and two receives. Nothing else.
#pragma once

#include <string>

namespace ringsim {

// Runs it on `platform` with the first n hosts (sorted by name); returns the simulated makespan.
double run_bare_ring(const std::string& platform, int n, int iterations, double flops, double bytes, int* argc,
                     char** argv);

// A platform of n hosts (speeds cycling through the measured machines) joined by a star of
// identical links, written as SimGrid XML to `path`.
void write_star_platform(const std::string& path, int n);

}  // namespace ringsim
