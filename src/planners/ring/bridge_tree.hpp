// The bridge tree of a graph zone: its 2-edge-connected components (what remains connected
// after removing any one edge) joined by its bridges (the edges on no cycle), rooted in each
// connected part at its largest component. Every path between two nodes crosses every bridge
// between their components in this tree, in whatever way it was chosen -- which is what lets a
// widest search leave out the parts of the graph it cannot need (ring_network.hpp, WidestSearch)
// and lets the greedy bound the bandwidth paths must share whatever routes the search picks
// (bridge_bounds.cpp). A tree graph is all bridges: each node its own component.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "model/platform_graph.hpp"

namespace ringsim::ring {

class BridgeTree {
 public:
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

  BridgeTree() = default;
  // Tarjan's bridge-finding (low-link, by edge so that parallel edges make a cycle), iterative.
  explicit BridgeTree(const Platform& platform);

  std::size_t size() const { return parent_.size(); }
  std::uint32_t component(std::size_t node) const { return comp_[node]; }
  // The component above c (kNone at a root) and the link of the bridge to it.
  std::uint32_t parent(std::uint32_t c) const { return parent_[c]; }
  std::uint32_t link(std::uint32_t c) const { return link_[c]; }
  // The child of a root that c lies below (c itself when its parent is a root), kNone for a root.
  std::uint32_t top(std::uint32_t c) const { return top_[c]; }
  // Whether component a is c or above it.
  bool above_or_at(std::uint32_t a, std::uint32_t c) const {
    for (; c != kNone; c = parent_[c])
      if (c == a) return true;
    return false;
  }

 private:
  std::vector<std::uint32_t> comp_, parent_, link_, top_;
};

}  // namespace ringsim::ring
