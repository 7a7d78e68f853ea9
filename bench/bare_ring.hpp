// A bare S4U ring, the yardstick of `ringsim bench simulate`: n actors, each iteration one
// execute (the member's own flops), two asynchronous sends (successor, predecessor) and two
// receives; with `barrier`, the members then wait for each other, as ringsim's bulk-synchronous
// iterations do. Nothing else: given ringsim's ring and per-member work, it simulates the same
// application, and with the barrier it ends at the same simulated instant.
#pragma once

#include <string>
#include <vector>

namespace ringsim {

struct BareMember {
  std::string host;
  double flops = 0.0;  // executed every iteration
};

// The members file of `ringsim-bare-s4u`: one member a line, in ring order, "HOST FLOPS".
// Reading throws std::invalid_argument (one line naming the file and line) on anything else, or
// on fewer than two members; numbers are written with 17 digits, so they read back exactly.
std::vector<BareMember> read_bare_members(const std::string& path);
std::string bare_members_text(const std::vector<BareMember>& members);

// Runs it on `platform` with the members in ring order; returns the simulated makespan.
double run_bare_ring(const std::string& platform, const std::vector<BareMember>& members, int iterations, double bytes,
                     bool barrier, int* argc, char** argv);

}  // namespace ringsim
