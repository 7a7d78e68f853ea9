// Bulk column moves between two sets of holders: the matrix staged from storage nodes onto the
// ring, or the columns of an old ring handed to a rebuilt one. Which column goes from which holder
// to which, and the KPBS instance that moving them is (seeds/kpbs-ggp-backbone-message-scheduling.md:
// sender i must send times[i][j] of data to receiver j). Plain values, no SimGrid.
#pragma once

#include <cstddef>
#include <vector>

#include "model/kpbs.hpp"
#include "model/redistribution.hpp"

namespace ringsim {

// `count` consecutive columns from `first`, cyclically over the matrix's columns (the ring
// application is periodic: the last column neighbours the first).
struct ColumnInterval {
  long first = 0;
  long count = 0;
};

// Consecutive intervals of the given sizes, the first starting at column `first`.
std::vector<ColumnInterval> consecutive_intervals(const std::vector<Count>& sizes, long first, long total);

// Where a rebuilt ring's intervals (sizes, in ring order) should start so that the most columns stay
// where they are: holder[c] identifies who holds column c now and keeper[j] the same identity for
// new member j (-1: holds nothing now, e.g. a processor new to the ring). Scans every start from
// `from` on (cyclically) and keeps the first best one, so that with no common processor the
// intervals start at `from`. O(columns x members).
long start_keeping_most(const std::vector<long>& holder, const std::vector<Count>& sizes,
                        const std::vector<long>& keeper, long from);

// The storage layout: `nodes` equal consecutive blocks (sizes differ by at most one, larger first).
std::vector<ColumnInterval> storage_blocks(long total, std::size_t nodes);

// Every column of `interval`, in order.
std::vector<long> columns_of(const ColumnInterval& interval, long total);

// columns[i][j]: the columns holder i gives to receiver j, in holder i's order. Each held column
// goes to the receiver whose interval contains it.
struct ColumnMove {
  std::vector<std::vector<std::vector<long>>> columns;

  std::size_t senders() const { return columns.size(); }
  std::size_t receivers() const { return columns.empty() ? 0 : columns.front().size(); }
  long count(std::size_t i, std::size_t j) const { return static_cast<long>(columns[i][j].size()); }
};

// Throws std::logic_error unless `wanted` (intervals starting in [0, total)) covers the columns
// 0..total-1 exactly once and `held` holds each of them exactly once (nothing is lost or
// duplicated by a move).
ColumnMove plan_column_move(const std::vector<std::vector<long>>& held, const std::vector<ColumnInterval>& wanted,
                            long total);

// The KPBS instance of a move: times[i][j] = count(i, j) * column_time[i][j] (column_time: one
// column at the pair's full rate). Pairs on the same host (`local[i][j]`) move nothing over the
// network and get time 0.
KpbsInstance kpbs_instance_of(const ColumnMove& move, const std::vector<std::vector<double>>& column_time,
                              const std::vector<std::vector<bool>>& local, std::size_t k, double beta);

}  // namespace ringsim
