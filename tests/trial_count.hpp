// How many random instances a property case draws. The sanitizer pass draws the first part of each
// case's seeded sequence (a quarter, or a half where rarer branches need more draws); the Release
// pass draws them all. tools/sanitizer-coverage.py checks that the unit suite at the smaller sizes
// executes the same lines and takes the same branches of src/; a case whose rare branches need its
// whole sequence draws it in both passes. RINGSIM_TEST_SIZES=release or =sanitizer chooses the
// sizes in any build.
#pragma once

#include <cstdlib>
#include <cstring>

namespace ringsim::testing {

inline bool sanitizer_sizes() {
  static const bool chosen = [] {
    if (const char* sizes = std::getenv("RINGSIM_TEST_SIZES")) return std::strcmp(sizes, "sanitizer") == 0;
#if defined(__SANITIZE_ADDRESS__)
    return true;
#else
    return false;
#endif
  }();
  return chosen;
}

// The number of trials a case draws out of the `release` of its Release pass: 1/part of them under
// the sanitizers.
inline int trials(int release, int part = 4) { return sanitizer_sizes() ? (release + part - 1) / part : release; }

}  // namespace ringsim::testing
