// FNV-1a, 64 bits: the hash of a text that provenance records (experiment configs) and that
// recognizes known files (the paper's platform).
#pragma once

#include <cstdint>
#include <string>

namespace ringsim::io {

inline std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

}  // namespace ringsim::io
