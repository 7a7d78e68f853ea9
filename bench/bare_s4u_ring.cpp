// A bare S4U ring as a process of its own, linked with SimGrid only: the whole-process yardstick
// of `ringsim bench simulate`, which finds it beside ringsim.
//   ringsim-bare-s4u PLATFORM MEMBERS ITERATIONS FLOPS BYTES [--barrier] [--cfg=... --log=...]
// prints the simulated makespan; `ringsim-bare-s4u --version` only starts and stops (start-up).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <xbt/base.h>  // simgrid/version.h needs it first
#include <simgrid/version.h>

#include "sim/bare_ring.hpp"

namespace {

int usage(const char* why) {
  std::fprintf(stderr, "ringsim-bare-s4u: %s (usage: ringsim-bare-s4u PLATFORM MEMBERS ITERATIONS FLOPS BYTES [--barrier])\n", why);
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
  if (ours.size() != 5) return usage("five arguments expected");
  double members = 0, iterations = 0, flops = 0, bytes = 0;
  if (!number(ours[1], members) || members < 2 || !number(ours[2], iterations) || iterations < 1 ||
      !number(ours[3], flops) || flops < 0 || !number(ours[4], bytes) || bytes < 0)
    return usage("MEMBERS >= 2, ITERATIONS >= 1, FLOPS >= 0 and BYTES >= 0 must be numbers");
  engine_argv.push_back(nullptr);
  int engine_argc = static_cast<int>(engine_argv.size()) - 1;
  const double makespan = ringsim::run_bare_ring(ours[0], static_cast<int>(members), static_cast<int>(iterations),
                                                 flops, bytes, barrier, &engine_argc, engine_argv.data());
  std::printf("%.17g\n", makespan);
  return 0;
}
