// The allocator setting the front end gives the simulation program (cli/main.cpp), and the same
// environment without it, for benchmarks that time other programs as their users would run them.
#pragma once

#include <cstdlib>
#include <cstring>
#include <string>

namespace ringsim::cli {

// A simulation frees and allocates the same few object sizes by the hundred every simulated
// instant (each member's activities, comms and their actions: four comms a member an iteration).
// With glibc's default of 7 cached chunks per size, most of those frees reach the heap, merge into
// its top and consolidate it, and the next allocations split it again: 7% of a run's instructions
// at 32 members and 1000 iterations, 6% at 256 members (bench/NOTES.md, "What a run and a sweep
// cost"). A larger per-thread cache keeps them. glibc reads its tunables only when a program
// starts, so the front end sets this one for the program it execs, unless the user chose a cache size.
inline constexpr const char* kAllocatorTunable = "glibc.malloc.tcache_count=1024";

inline void tune_simulation_allocator() {
  const char* chosen = std::getenv("GLIBC_TUNABLES");
  if (chosen == nullptr || *chosen == '\0') {
    setenv("GLIBC_TUNABLES", kAllocatorTunable, 1);
  } else if (std::strstr(chosen, "glibc.malloc.tcache_count") == nullptr) {
    setenv("GLIBC_TUNABLES", (std::string(chosen) + ":" + kAllocatorTunable).c_str(), 1);
  }
}

// GLIBC_TUNABLES as the user set it: ringsim's setting taken out; empty when that was all of it.
inline std::string user_allocator_tunables(const char* tunables) {
  std::string value = tunables != nullptr ? tunables : "";
  for (const std::string& ours : {std::string(":") + kAllocatorTunable, std::string(kAllocatorTunable)}) {
    const std::size_t at = value.find(ours);
    if (at != std::string::npos) return value.erase(at, ours.size());
  }
  return value;
}

}  // namespace ringsim::cli
