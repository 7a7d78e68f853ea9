#include "planners/ring/low_link.hpp"

namespace ringsim::ring {

EdgeAdjacency::EdgeAdjacency(const Platform& platform) {
  const std::size_t n = platform.nodes.size(), m = platform.edges.size();
  start.assign(n + 1, 0);
  for (const auto& e : platform.edges) {
    ++start[e.a + 1];
    ++start[e.b + 1];
  }
  for (std::size_t v = 0; v < n; ++v) start[v + 1] += start[v];
  entries.resize(start[n]);
  std::vector<std::uint32_t> put(start.begin(), start.end() - 1);
  for (std::size_t e = 0; e < m; ++e) {
    const auto a = static_cast<std::uint32_t>(platform.edges[e].a), b = static_cast<std::uint32_t>(platform.edges[e].b);
    entries[put[a]++] = {b, static_cast<std::uint32_t>(e)};
    entries[put[b]++] = {a, static_cast<std::uint32_t>(e)};
  }
}

}  // namespace ringsim::ring
