#include "planners/redistribution/block_census.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace ringsim::redistribution {
namespace {

// Block starts on one port, sorted: whether another block starts in [from, to).
struct PortStarts {
  std::vector<double> starts;
  bool any_in(double from, double to) const {
    const auto it = std::lower_bound(starts.begin(), starts.end(), from);
    return it != starts.end() && *it < to;
  }
};

}  // namespace

BlockCensus block_census(const RingInstance& inst, const std::vector<Transfer>& blocks, double tolerance) {
  const std::size_t n = inst.size();
  BlockCensus c;
  c.blocks = blocks.size();
  std::vector<PortStarts> sending(n), receiving(n);
  std::map<std::pair<std::size_t, int>, std::vector<const Transfer*>> flows;
  std::vector<char> from_left(n, 0), from_right(n, 0);
  for (const Transfer& t : blocks) {
    sending[t.from].starts.push_back(t.start);
    receiving[t.to].starts.push_back(t.start);
    flows[{t.from, t.dir == Direction::next ? 0 : 1}].push_back(&t);
    (t.dir == Direction::next ? from_left : from_right)[t.to] = 1;
  }
  for (auto& p : sending) std::sort(p.starts.begin(), p.starts.end());
  for (auto& p : receiving) std::sort(p.starts.begin(), p.starts.end());
  auto same = [tolerance](double a, double b) {
    return a == b || std::abs(a - b) <= tolerance * std::max(1.0, std::abs(b));
  };
  c.flows = flows.size();
  c.flows_by_blocks.assign(1, 0);
  for (auto& [flow, v] : flows) {
    std::sort(v.begin(), v.end(), [](const Transfer* a, const Transfer* b) { return a->start < b->start; });
    c.most_in_one_flow = std::max(c.most_in_one_flow, v.size());
    if (c.flows_by_blocks.size() <= v.size()) c.flows_by_blocks.resize(v.size() + 1, 0);
    ++c.flows_by_blocks[v.size()];
    for (std::size_t k = 0; k + 1 < v.size(); ++k) {
      const Transfer &a = *v[k], &b = *v[k + 1];
      // Another block on either port between them keeps them apart (it starts there: blocks on
      // one port do not overlap).
      if (sending[a.from].any_in(a.end, b.start) || receiving[a.to].any_in(a.end, b.start)) continue;
      const double c_item = item_cost(inst, a.from, a.dir);
      // A block of one item takes any later item as its pace; a longer one only the next item on
      // its own (back to back, or paced).
      c.could_merge += a.items == 1 || same(b.start, a.period == 0.0 ? a.end : departure(a, a.items, c_item));
    }
  }
  std::vector<std::vector<const Transfer*>> into(n);
  for (const Transfer& t : blocks)
    if (from_left[t.to] && from_right[t.to]) into[t.to].push_back(&t);
  for (auto& v : into) {
    if (v.empty()) continue;
    ++c.two_way_receivers;
    c.into_two_way += v.size();
    std::sort(v.begin(), v.end(), [](const Transfer* a, const Transfer* b) { return a->start < b->start; });
    for (std::size_t k = 0; k < v.size(); ++k) c.two_way_turns += k == 0 || v[k]->from != v[k - 1]->from;
  }
  return c;
}

}  // namespace ringsim::redistribution
