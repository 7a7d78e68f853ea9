#include "model/column_moves.hpp"

#include <stdexcept>
#include <string>

namespace ringsim {

std::vector<ColumnInterval> consecutive_intervals(const std::vector<Count>& sizes, long first, long total) {
  if (total < 1) throw std::logic_error("consecutive_intervals needs at least one column");
  std::vector<ColumnInterval> out;
  long at = ((first % total) + total) % total;
  for (Count s : sizes) {
    out.push_back({at, static_cast<long>(s)});
    at = (at + static_cast<long>(s)) % total;
  }
  return out;
}

long start_keeping_most(const std::vector<long>& holder, const std::vector<Count>& sizes,
                        const std::vector<long>& keeper, long from) {
  const long total = static_cast<long>(holder.size());
  // kept[j][x]: how many of the columns x' < x (x over two laps) new member j would keep.
  std::vector<std::vector<long>> kept(sizes.size());
  for (std::size_t j = 0; j < sizes.size(); ++j) {
    if (keeper[j] < 0) continue;
    kept[j].assign(static_cast<std::size_t>(2 * total + 1), 0);
    for (long x = 0; x < 2 * total; ++x)
      kept[j][static_cast<std::size_t>(x + 1)] = kept[j][static_cast<std::size_t>(x)] + (holder[static_cast<std::size_t>(x % total)] == keeper[j]);
  }
  const long origin = ((from % total) + total) % total;
  long best_start = origin, best = -1;
  for (long d = 0; d < total; ++d) {
    const long start = (origin + d) % total;
    long here = 0, at = start;
    for (std::size_t j = 0; j < sizes.size(); ++j) {
      if (keeper[j] >= 0)
        here += kept[j][static_cast<std::size_t>(at + static_cast<long>(sizes[j]))] - kept[j][static_cast<std::size_t>(at)];
      at += static_cast<long>(sizes[j]);
      if (at >= total) at -= total;
    }
    if (here > best) {
      best = here;
      best_start = start;
    }
  }
  return best_start;
}

std::vector<ColumnInterval> storage_blocks(long total, std::size_t nodes) {
  if (total < 1 || nodes < 1) throw std::logic_error("storage_blocks needs at least one column and one node");
  std::vector<Count> sizes(nodes, total / static_cast<long>(nodes));
  for (long r = 0; r < total % static_cast<long>(nodes); ++r) ++sizes[static_cast<std::size_t>(r)];
  return consecutive_intervals(sizes, 0, total);
}

std::vector<long> columns_of(const ColumnInterval& interval, long total) {
  std::vector<long> out;
  out.reserve(static_cast<std::size_t>(interval.count));
  for (long c = 0; c < interval.count; ++c) out.push_back((interval.first + c) % total);
  return out;
}

ColumnMove plan_column_move(const std::vector<std::vector<long>>& held, const std::vector<ColumnInterval>& wanted,
                            long total) {
  std::vector<long> owner(static_cast<std::size_t>(total), -1);
  for (std::size_t j = 0; j < wanted.size(); ++j) {
    if (wanted[j].first < 0 || wanted[j].first >= total || wanted[j].count < 0 || wanted[j].count > total)
      throw std::logic_error("wanted interval " + std::to_string(j) + " is not within the " + std::to_string(total) +
                             " columns");
    for (long c : columns_of(wanted[j], total)) {
      if (owner[static_cast<std::size_t>(c)] >= 0)
        throw std::logic_error("column " + std::to_string(c) + " is wanted by two receivers");
      owner[static_cast<std::size_t>(c)] = static_cast<long>(j);
    }
  }
  std::vector<bool> seen(static_cast<std::size_t>(total), false);
  ColumnMove move;
  move.columns.assign(held.size(), std::vector<std::vector<long>>(wanted.size()));
  long count = 0;
  for (std::size_t i = 0; i < held.size(); ++i)
    for (long c : held[i]) {
      if (c < 0 || c >= total) throw std::logic_error("column " + std::to_string(c) + " does not exist");
      if (seen[static_cast<std::size_t>(c)]) throw std::logic_error("column " + std::to_string(c) + " is held twice");
      if (owner[static_cast<std::size_t>(c)] < 0) throw std::logic_error("column " + std::to_string(c) + " is wanted by nobody");
      seen[static_cast<std::size_t>(c)] = true;
      move.columns[i][static_cast<std::size_t>(owner[static_cast<std::size_t>(c)])].push_back(c);
      ++count;
    }
  if (count != total)
    throw std::logic_error(std::to_string(count) + " columns held instead of " + std::to_string(total));
  return move;
}

KpbsInstance kpbs_instance_of(const ColumnMove& move, const std::vector<std::vector<double>>& column_time,
                              const std::vector<std::vector<bool>>& local, std::size_t k, double beta) {
  KpbsInstance inst;
  inst.k = k;
  inst.beta = beta;
  inst.times.assign(move.senders(), std::vector<double>(move.receivers(), 0.0));
  for (std::size_t i = 0; i < move.senders(); ++i)
    for (std::size_t j = 0; j < move.receivers(); ++j)
      if (!local[i][j]) inst.times[i][j] = static_cast<double>(move.count(i, j)) * column_time[i][j];
  return inst;
}

}  // namespace ringsim
