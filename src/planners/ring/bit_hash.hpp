// Exact bits of doubles and a 64-bit mixer, for the greedy's keys: its caches must tell inputs
// apart bit for bit (two doubles that compare equal, 0.0 and -0.0, are different keys).
#pragma once

#include <cstdint>
#include <cstring>

namespace ringsim::ring {

inline std::uint64_t bits(double v) {
  std::uint64_t u;
  std::memcpy(&u, &v, sizeof u);
  return u;
}

inline std::uint64_t mix(std::uint64_t z) {  // splitmix64's finalizer
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace ringsim::ring
