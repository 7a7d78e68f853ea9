// The allocator setting the front end hands the simulation program (cli/simulation_allocator.hpp):
// added to the user's tunables, never over a cache size the user chose, and taken out again whole.
#include <cstdlib>
#include <optional>
#include <string>

#include "cli/simulation_allocator.hpp"
#include <doctest/doctest.h>

namespace {

using ringsim::cli::kAllocatorTunable;

// GLIBC_TUNABLES after tune_simulation_allocator from `before` (nullopt: unset); the variable restored.
std::string tuned_from(const std::optional<std::string>& before) {
  const char* saved = std::getenv("GLIBC_TUNABLES");
  const std::optional<std::string> keep = saved ? std::optional<std::string>(saved) : std::nullopt;
  if (before) setenv("GLIBC_TUNABLES", before->c_str(), 1);
  else unsetenv("GLIBC_TUNABLES");
  ringsim::cli::tune_simulation_allocator();
  const std::string after = std::getenv("GLIBC_TUNABLES");
  if (keep) setenv("GLIBC_TUNABLES", keep->c_str(), 1);
  else unsetenv("GLIBC_TUNABLES");
  return after;
}

}  // namespace

TEST_CASE("the simulation program's allocator: the cache size added, the user's tunables kept") {
  CHECK(tuned_from(std::nullopt) == kAllocatorTunable);
  CHECK(tuned_from(std::string()) == kAllocatorTunable);
  CHECK(tuned_from(std::string("glibc.malloc.mxfast=64")) == std::string("glibc.malloc.mxfast=64:") + kAllocatorTunable);
  // A cache size the user chose is theirs.
  CHECK(tuned_from(std::string("glibc.malloc.tcache_count=3")) == "glibc.malloc.tcache_count=3");
  CHECK(tuned_from(std::string("a=1:glibc.malloc.tcache_count=0:b=2")) == "a=1:glibc.malloc.tcache_count=0:b=2");
}

TEST_CASE("the user's allocator tunables: ringsim's setting taken out, nothing else") {
  using ringsim::cli::user_allocator_tunables;
  for (const std::string user : {"", "glibc.malloc.mxfast=64", "glibc.malloc.tcache_count=3", "a=1:b=2"}) {
    const std::string tuned = tuned_from(user);
    CHECK(user_allocator_tunables(tuned.c_str()) == user);
  }
  CHECK(user_allocator_tunables(nullptr).empty());
}
