// The block-cut tree of a graph zone: its blocks (biconnected components: what stays connected
// after removing any one node; a bridge is a block of two nodes) joined at its articulation
// points, rooted in each connected part at its largest block. The nodes of a block's subtree,
// other than the articulation point it hangs from, meet the rest of the graph only through that
// point -- which is what lets a widest search leave them out when they hold neither its source
// nor a target (ring_network.hpp, WidestSearch): a MAN attached to a WAN by one of its nodes, a
// LAN by its centre, not only what hangs below a bridge (bridge_tree.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "model/platform_graph.hpp"

namespace ringsim::ring {

class BlockTree {
 public:
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

  BlockTree() = default;
  // Tarjan's biconnected components (low-link, a stack of edges), iterative.
  explicit BlockTree(const Platform& platform);

  std::size_t size() const { return parent_.size(); }
  // A node's block: its only one, or for an articulation point the one it hangs below (the
  // block nearer the root).
  std::uint32_t home(std::size_t node) const { return home_[node]; }
  // The block a block hangs below (kNone at a root), and the articulation point between them.
  std::uint32_t parent(std::uint32_t block) const { return parent_[block]; }
  std::uint32_t joint(std::uint32_t block) const { return joint_[block]; }
  // The nodes of a block (articulation points in several blocks).
  const std::vector<std::uint32_t>& nodes(std::uint32_t block) const { return nodes_[block]; }

 private:
  std::vector<std::uint32_t> home_, parent_, joint_;
  std::vector<std::vector<std::uint32_t>> nodes_;
};

}  // namespace ringsim::ring
