// A bare S4U ring as a process of its own, linked with SimGrid only: the whole-process yardstick
// of `ringsim bench simulate`, which finds it beside ringsim.
//   ringsim-bare-s4u PLATFORM MEMBERS_FILE ITERATIONS BYTES [--barrier] [--cfg=... --log=...]
// MEMBERS_FILE: one member a line, in ring order, "HOST FLOPS" (flops executed every iteration).
// Prints the simulated makespan; `ringsim-bare-s4u --version` only starts and stops (start-up).
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include <xbt/base.h>  // simgrid/version.h needs it first
#include <simgrid/version.h>

#include "bench/bare_ring.hpp"

namespace {

int usage(const std::string& why) {
  std::fprintf(stderr, "ringsim-bare-s4u: %s (usage: ringsim-bare-s4u PLATFORM MEMBERS_FILE ITERATIONS BYTES [--barrier])\n",
               why.c_str());
  return 2;
}

bool number(const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return !text.empty() && end && *end == '\0';
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> ours;
  static char quiet[] = "--log=xbt_cfg.thres:warning";  // the network model lines; a later --log= wins
  std::vector<char*> engine_argv{argv[0], quiet};
  for (int k = 1; k < argc; ++k) {
    const std::string a = argv[k];
    if (a.rfind("--cfg=", 0) == 0 || a.rfind("--log=", 0) == 0) engine_argv.push_back(argv[k]);
    else ours.push_back(a);
  }
  if (ours.size() == 1 && ours[0] == "--version") {
    std::printf("SimGrid %d.%d.%d\n", SIMGRID_VERSION_MAJOR, SIMGRID_VERSION_MINOR, SIMGRID_VERSION_PATCH);
    return 0;
  }
  const bool barrier = !ours.empty() && ours.back() == "--barrier";
  if (barrier) ours.pop_back();
  if (ours.size() != 4) return usage("four arguments expected");
  double iterations = 0, bytes = 0;
  if (!number(ours[2], iterations) || iterations < 1 || !number(ours[3], bytes) || bytes < 0)
    return usage("ITERATIONS >= 1 and BYTES >= 0 must be numbers");
  engine_argv.push_back(nullptr);
  int engine_argc = static_cast<int>(engine_argv.size()) - 1;
  try {
    const std::vector<ringsim::BareMember> members = ringsim::read_bare_members(ours[1]);
    const double makespan = ringsim::run_bare_ring(ours[0], members, static_cast<int>(iterations), bytes, barrier,
                                                   &engine_argc, engine_argv.data());
    std::printf("%.17g\n", makespan);
  } catch (const std::exception& e) {  // a bad members file, an unknown host, a platform SimGrid refuses
    return usage(e.what());
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {  // a makespan nobody can read is no answer
    std::fprintf(stderr, "ringsim-bare-s4u: cannot write the makespan to standard output\n");
    return 2;
  }
  return 0;
}
