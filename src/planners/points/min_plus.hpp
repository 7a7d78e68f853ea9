// The best point from every loads at every column of the late rule's S_t: a (min, +) product of
// the move costs and S_t, each loads kept from moving to itself.
#pragma once

#include <cstddef>
#include <vector>

namespace ringsim::points {

// points[L * width + x] = min over B != L of costs[L * count + B] + stay[B * width + x], for every
// loads L < count and column x < width; if targets is given, targets[L * width + x] is the B that
// gives it, the smallest on a tie, and no_target where no sum is finite. Null costs: no move, every
// point infinite. `scratch` is working memory the caller keeps between calls. Runs the widest form
// this processor has; every form meets the B in increasing order and keeps one only when strictly
// better, so all give the same doubles.
void best_points(const std::vector<double>& stay, std::size_t count, std::size_t width, const double* costs,
                 double no_target, std::vector<double>& points, std::vector<double>* targets,
                 std::vector<double>& scratch);

// The same with two lanes an instruction, the form any x86-64 runs: tests hold it to best_points on
// processors that run a wider one.
void best_points_two_lanes(const std::vector<double>& stay, std::size_t count, std::size_t width,
                           const double* costs, double no_target, std::vector<double>& points,
                           std::vector<double>* targets, std::vector<double>& scratch);

}  // namespace ringsim::points
