#include "model/huge_pages.hpp"

#include <sys/mman.h>

#include <cstdint>

namespace ringsim {

void advise_huge_pages(const void* data, std::size_t bytes) {
  constexpr std::uintptr_t kHuge = std::uintptr_t{1} << 21;
  if (data == nullptr || bytes < 4 * kHuge) return;
  const auto begin = reinterpret_cast<std::uintptr_t>(data), end = begin + bytes;
  const std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1), last = end & ~(kHuge - 1);
  if (last <= first) return;
  // A refusal (EINVAL on a kernel without THP) changes nothing but speed: the result is ignored.
  (void)::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

}  // namespace ringsim
