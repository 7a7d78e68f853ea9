#include "planners/redistribution/load_balance.hpp"

#include <cmath>
#include <queue>
#include <string>
#include <utility>

#include "model/errors.hpp"

namespace ringsim {

// Start from the proportional floors (clamped to 1), then move single columns: add to the
// processor whose time after the addition is smallest, or remove from the one with the largest
// time. For min-max objectives with separable increasing costs this incremental greedy is exact
// (each step is the best marginal choice and marginal costs are monotone).
std::vector<Count> balanced_targets(const std::vector<double>& speeds, Count total) {
  const std::size_t n = speeds.size();
  if (n == 0) throw InputError("no processors to balance");
  if (total < static_cast<Count>(n))
    throw InputError("cannot give " + std::to_string(n) + " processors at least one column each out of " +
                     std::to_string(total));
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(speeds[i]) || speeds[i] <= 0.0)
      throw InputError("speed " + std::to_string(i) + " must be a finite positive number");
    sum += speeds[i];
  }
  std::vector<Count> load(n);
  Count assigned = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double share = std::floor(static_cast<double>(total) * speeds[i] / sum);
    load[i] = std::max<Count>(1, static_cast<Count>(share));
    assigned += load[i];
  }
  using Key = std::pair<double, std::size_t>;
  if (assigned < total) {
    // Smallest time after one more column first; ties to the lowest index.
    std::priority_queue<Key, std::vector<Key>, std::greater<>> heap;
    for (std::size_t i = 0; i < n; ++i) heap.push({static_cast<double>(load[i] + 1) / speeds[i], i});
    for (; assigned < total; ++assigned) {
      const std::size_t i = heap.top().second;
      heap.pop();
      ++load[i];
      heap.push({static_cast<double>(load[i] + 1) / speeds[i], i});
    }
  } else if (assigned > total) {
    // Largest current time first, among processors that keep at least one column.
    auto cmp = [](const Key& a, const Key& b) { return a.first < b.first || (a.first == b.first && a.second > b.second); };
    std::priority_queue<Key, std::vector<Key>, decltype(cmp)> heap(cmp);
    for (std::size_t i = 0; i < n; ++i)
      if (load[i] > 1) heap.push({static_cast<double>(load[i]) / speeds[i], i});
    for (; assigned > total; --assigned) {
      const std::size_t i = heap.top().second;
      heap.pop();
      if (--load[i] > 1) heap.push({static_cast<double>(load[i]) / speeds[i], i});
    }
  }
  return load;
}

}  // namespace ringsim
