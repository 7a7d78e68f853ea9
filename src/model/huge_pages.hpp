// Large tables read in an order no cache or prefetcher predicts (the route table of a Full
// platform, the ring greedy's memo of insertions: hundreds of megabytes, one random read per
// candidate) spend much of their time on address translation with 4 KiB pages: each read misses
// the TLB as well as the cache. Transparent huge pages (2 MiB) cut those misses by 512; kernels
// commonly give them only to memory that asks (transparent_hugepage = madvise), so the tables ask.
#pragma once

#include <cstddef>
#include <vector>

namespace ringsim {

// Asks that the whole 2 MiB pages inside [data, data + bytes) be backed by huge pages when first
// touched (madvise MADV_HUGEPAGE). Only a hint: where the kernel refuses or has none to give,
// nothing changes but speed. Small ranges (under 8 MiB) are left alone.
void advise_huge_pages(const void* data, std::size_t bytes);

// Moves v's elements into a new array of capacity n (at least v.size()) advised for huge pages
// before anything touches it (pages already touched keep their 4 KiB pages): call it before
// filling v, and where v must grow (push_back would take an array that did not ask).
template <class T>
void reserve_huge(std::vector<T>& v, std::size_t n) {
  std::vector<T> advised;
  advised.reserve(n < v.size() ? v.size() : n);
  advise_huge_pages(advised.data(), advised.capacity() * sizeof(T));
  advised.insert(advised.end(), v.begin(), v.end());
  v.swap(advised);
}

// push_back, growing v (doubling) through reserve_huge.
template <class T>
void push_back_huge(std::vector<T>& v, const T& value) {
  if (v.size() == v.capacity()) reserve_huge(v, v.capacity() < 1024 ? 1024 : 2 * v.capacity());
  v.push_back(value);
}

}  // namespace ringsim
