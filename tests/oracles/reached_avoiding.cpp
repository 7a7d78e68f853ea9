#include "oracles/reached_avoiding.hpp"

namespace ringsim::oracles {

std::vector<char> reached_avoiding(const Platform& p, std::size_t from, std::size_t skip_edge, std::size_t skip_node) {
  const std::size_t n = p.nodes.size();
  std::vector<char> seen(n, 0);
  std::vector<std::size_t> todo{from};
  seen[from] = 1;
  while (!todo.empty()) {
    const std::size_t v = todo.back();
    todo.pop_back();
    for (std::size_t e = 0; e < p.edges.size(); ++e) {
      if (e == skip_edge) continue;
      const std::size_t a = p.edges[e].a, b = p.edges[e].b;
      const std::size_t u = a == v ? b : b == v ? a : n;
      if (u < n && u != skip_node && !seen[u]) {
        seen[u] = 1;
        todo.push_back(u);
      }
    }
  }
  return seen;
}

}  // namespace ringsim::oracles
