// Column moves between two sets of holders (src/model/column_moves.hpp): the intervals, the
// storage layout, the per-pair column lists of a move against a naive scan, the refusals, and the
// KPBS instance of a move. Seeded random cases by the thousand.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include "model/column_moves.hpp"

using namespace ringsim;

namespace {

long mod(long a, long m) { return ((a % m) + m) % m; }

// Random sizes >= 0 summing to `total`, `parts` of them (cut points drawn with replacement, so
// empty parts are common).
std::vector<Count> random_sizes(std::mt19937_64& rng, long total, std::size_t parts) {
  std::uniform_int_distribution<long> cut(0, total);
  std::vector<long> cuts(parts - 1);
  for (auto& c : cuts) c = cut(rng);
  cuts.push_back(0);
  cuts.push_back(total);
  std::sort(cuts.begin(), cuts.end());
  std::vector<Count> sizes;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) sizes.push_back(cuts[i + 1] - cuts[i]);
  return sizes;
}

// The intervals of `sizes` laid end to end from `first`, computed here without the component.
std::vector<ColumnInterval> naive_intervals(const std::vector<Count>& sizes, long first, long total) {
  std::vector<ColumnInterval> out;
  long prefix = 0;
  for (Count s : sizes) {
    out.push_back({mod(first + prefix, total), static_cast<long>(s)});
    prefix += static_cast<long>(s);
  }
  return out;
}

std::vector<long> naive_columns(long first, long count, long total) {
  std::vector<long> out;
  for (long c = 0; c < count; ++c) out.push_back(mod(first + c, total));
  return out;
}

bool interval_contains(const ColumnInterval& iv, long c, long total) { return mod(c - iv.first, total) < iv.count; }

struct Case {
  long total = 0;
  std::vector<std::vector<long>> held;
  std::vector<ColumnInterval> wanted;
};

Case random_case(std::mt19937_64& rng) {
  Case k;
  k.total = std::uniform_int_distribution<long>(1, 300)(rng);
  const auto holders = std::uniform_int_distribution<std::size_t>(1, 9)(rng);
  const auto receivers = std::uniform_int_distribution<std::size_t>(1, 9)(rng);
  const long held_from = std::uniform_int_distribution<long>(0, k.total - 1)(rng);
  const long wanted_from = std::uniform_int_distribution<long>(0, k.total - 1)(rng);
  for (const auto& iv : naive_intervals(random_sizes(rng, k.total, holders), held_from, k.total))
    k.held.push_back(naive_columns(iv.first, iv.count, k.total));
  k.wanted = naive_intervals(random_sizes(rng, k.total, receivers), wanted_from, k.total);
  return k;
}

// For every held column (in the holder's order), its receiver found by scanning the intervals.
std::vector<std::vector<std::vector<long>>> naive_move(const Case& k) {
  std::vector<std::vector<std::vector<long>>> out(k.held.size(), std::vector<std::vector<long>>(k.wanted.size()));
  for (std::size_t i = 0; i < k.held.size(); ++i)
    for (long c : k.held[i]) {
      std::size_t found = k.wanted.size();
      for (std::size_t j = 0; j < k.wanted.size(); ++j)
        if (interval_contains(k.wanted[j], c, k.total)) {
          REQUIRE(found == k.wanted.size());  // the generator's intervals never overlap
          found = j;
        }
      REQUIRE(found < k.wanted.size());
      out[i][found].push_back(c);
    }
  return out;
}

bool throws_logic_error(const Case& k) {
  try {
    plan_column_move(k.held, k.wanted, k.total);
  } catch (const std::logic_error&) {
    return true;
  }
  return false;
}

}  // namespace

TEST_CASE("column moves: consecutive_intervals and columns_of match a naive layout") {
  std::mt19937_64 rng(20240611);
  for (int trial = 0; trial < 3000; ++trial) {
    const long total = std::uniform_int_distribution<long>(1, 300)(rng);
    const auto parts = std::uniform_int_distribution<std::size_t>(1, 10)(rng);
    const auto sizes = random_sizes(rng, total, parts);
    // Offsets outside 0..total-1 (negative ones too) wrap around.
    const long first = std::uniform_int_distribution<long>(-3 * total, 3 * total)(rng);
    const auto got = consecutive_intervals(sizes, first, total);
    const auto want = naive_intervals(sizes, first, total);
    REQUIRE(got.size() == want.size());
    std::vector<int> seen(static_cast<std::size_t>(total), 0);
    for (std::size_t j = 0; j < got.size(); ++j) {
      CHECK(got[j].first == want[j].first);
      CHECK(got[j].count == want[j].count);
      const auto cols = columns_of(got[j], total);
      CHECK(cols == naive_columns(want[j].first, want[j].count, total));
      for (long c : cols) ++seen[static_cast<std::size_t>(c)];
    }
    CHECK(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }));
  }
}

TEST_CASE("column moves: storage_blocks are near-equal, larger first, in order") {
  for (long total = 1; total <= 300; ++total)
    for (std::size_t nodes = 1; nodes <= 12; ++nodes) {
      const auto blocks = storage_blocks(total, nodes);
      REQUIRE(blocks.size() == nodes);
      long next = 0;
      long largest = 0, smallest = total;
      for (std::size_t b = 0; b < nodes; ++b) {
        CHECK(blocks[b].count >= 0);
        if (b > 0) CHECK(blocks[b].count <= blocks[b - 1].count);  // larger first
        largest = std::max(largest, blocks[b].count);
        smallest = std::min(smallest, blocks[b].count);
        // Block b starts where block b-1 ended (empty blocks start at `total` mod total = 0 only
        // at the very end, when every column is already placed).
        if (blocks[b].count > 0) CHECK(blocks[b].first == next);
        next += blocks[b].count;
      }
      CHECK(next == total);
      CHECK(largest - smallest <= 1);
      // Independent: the first total % nodes blocks get one column more.
      const long base = total / static_cast<long>(nodes), extra = total % static_cast<long>(nodes);
      for (std::size_t b = 0; b < nodes; ++b)
        CHECK(blocks[b].count == base + (static_cast<long>(b) < extra ? 1 : 0));
      // Columns covered in order 0..total-1.
      std::vector<long> all;
      for (const auto& iv : blocks)
        for (long c : columns_of(iv, total)) all.push_back(c);
      std::vector<long> expected(static_cast<std::size_t>(total));
      for (long c = 0; c < total; ++c) expected[static_cast<std::size_t>(c)] = c;
      CHECK(all == expected);
    }
}

TEST_CASE("column moves: plan_column_move matches a naive scan on random cases") {
  std::mt19937_64 rng(77001);
  std::size_t wrapped = 0, moved = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    const Case k = random_case(rng);
    const ColumnMove move = plan_column_move(k.held, k.wanted, k.total);
    const auto expected = naive_move(k);
    REQUIRE(move.senders() == k.held.size());
    REQUIRE(move.receivers() == k.wanted.size());
    std::vector<int> seen(static_cast<std::size_t>(k.total), 0);
    for (std::size_t i = 0; i < k.held.size(); ++i) {
      REQUIRE(move.columns[i].size() == k.wanted.size());
      for (std::size_t j = 0; j < k.wanted.size(); ++j) {
        const auto& got = move.columns[i][j];
        CHECK(got == expected[i][j]);
        CHECK(move.count(i, j) == static_cast<long>(expected[i][j].size()));
        for (long c : got) {
          REQUIRE(c >= 0);
          REQUIRE(c < k.total);
          ++seen[static_cast<std::size_t>(c)];
          CHECK(interval_contains(k.wanted[j], c, k.total));  // each column goes where it is wanted
        }
        // In the holder's order: the positions in held[i] increase along the list.
        long last = -1;
        for (long c : got) {
          const auto pos = std::find(k.held[i].begin(), k.held[i].end(), c) - k.held[i].begin();
          REQUIRE(pos < static_cast<long>(k.held[i].size()));
          CHECK(pos > last);
          last = pos;
        }
        if (i != j) moved += got.size();
        for (std::size_t a = 1; a < got.size(); ++a)
          if (got[a] < got[a - 1]) ++wrapped;
      }
    }
    CHECK(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }));
  }
  // The generator exercises the cyclic wrap (lists that run past the last column back to 0).
  CHECK(wrapped > 100);
  CHECK(moved > 0);
}

TEST_CASE("column moves: plan_column_move refuses lost, duplicated or invalid columns") {
  std::mt19937_64 rng(90210);
  int twice = 0, missing = 0, out_of_range = 0, wanted_twice = 0, wanted_short = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const Case base = random_case(rng);
    REQUIRE_FALSE(throws_logic_error(base));
    std::vector<std::size_t> nonempty;
    for (std::size_t i = 0; i < base.held.size(); ++i)
      if (!base.held[i].empty()) nonempty.push_back(i);
    const std::size_t from = nonempty[std::uniform_int_distribution<std::size_t>(0, nonempty.size() - 1)(rng)];
    const std::size_t pos = std::uniform_int_distribution<std::size_t>(0, base.held[from].size() - 1)(rng);
    const std::size_t to = std::uniform_int_distribution<std::size_t>(0, base.held.size() - 1)(rng);
    const long col = base.held[from][pos];

    {  // A column held twice (total count one too many).
      Case k = base;
      k.held[to].push_back(col);
      CHECK(throws_logic_error(k));
      ++twice;
    }
    if (base.total >= 2) {  // Held twice with the count still right: another column is lost.
      Case k = base;
      std::size_t other_holder = 0, other_pos = 0;
      do {
        other_holder = nonempty[std::uniform_int_distribution<std::size_t>(0, nonempty.size() - 1)(rng)];
        other_pos = std::uniform_int_distribution<std::size_t>(0, k.held[other_holder].size() - 1)(rng);
      } while (k.held[other_holder][other_pos] == col);
      k.held[other_holder][other_pos] = col;
      CHECK(throws_logic_error(k));
      ++twice;
    }
    {  // A column held by nobody: the count falls short.
      Case k = base;
      k.held[from].erase(k.held[from].begin() + static_cast<long>(pos));
      CHECK(throws_logic_error(k));
      ++missing;
    }
    {  // Columns out of range, in place of a real one and in addition to all of them.
      for (long bad : {-1L, base.total, base.total + 5, -base.total}) {
        Case k = base;
        k.held[from][pos] = bad;
        CHECK(throws_logic_error(k));
        Case extra = base;
        extra.held[to].push_back(bad);
        CHECK(throws_logic_error(extra));
        ++out_of_range;
      }
    }
    {  // Wanted twice: one receiver's interval grows by one column into its neighbour's.
      Case k = base;
      std::size_t j = std::uniform_int_distribution<std::size_t>(0, k.wanted.size() - 1)(rng);
      k.wanted[j].count += 1;
      CHECK(throws_logic_error(k));
      ++wanted_twice;
    }
    if (base.total >= 2) {  // Wanted twice: an extra receiver wants an already wanted column.
      Case k = base;
      k.wanted.push_back({col, 1});
      CHECK(throws_logic_error(k));
      ++wanted_twice;
    }
    {  // The receivers leave a column unwanted.
      Case k = base;
      std::vector<std::size_t> js;
      for (std::size_t j = 0; j < k.wanted.size(); ++j)
        if (k.wanted[j].count > 0) js.push_back(j);
      const std::size_t j = js[std::uniform_int_distribution<std::size_t>(0, js.size() - 1)(rng)];
      k.wanted[j].count -= 1;
      CHECK(throws_logic_error(k));
      ++wanted_short;
    }
  }
  MESSAGE("refusals checked: held twice " << twice << ", missing " << missing << ", out of range " << out_of_range
                                          << ", wanted twice " << wanted_twice << ", unwanted " << wanted_short);
}

TEST_CASE("column moves: kpbs_instance_of prices each pair by its column count") {
  std::mt19937_64 rng(4242);
  std::uniform_real_distribution<double> time(0.01, 5.0);
  std::bernoulli_distribution is_local(0.2);
  for (int trial = 0; trial < 2000; ++trial) {
    const Case k = random_case(rng);
    const ColumnMove move = plan_column_move(k.held, k.wanted, k.total);
    const std::size_t n = k.held.size(), m = k.wanted.size();
    std::vector<std::vector<double>> column_time(n, std::vector<double>(m));
    std::vector<std::vector<bool>> local(n, std::vector<bool>(m));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < m; ++j) {
        column_time[i][j] = time(rng);
        local[i][j] = is_local(rng);
      }
    const std::size_t kk = std::uniform_int_distribution<std::size_t>(1, 8)(rng);
    const double beta = time(rng);
    const KpbsInstance inst = kpbs_instance_of(move, column_time, local, kk, beta);
    CHECK(inst.k == kk);
    CHECK(inst.beta == beta);
    REQUIRE(inst.times.size() == n);
    const auto expected = naive_move(k);
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(inst.times[i].size() == m);
      for (std::size_t j = 0; j < m; ++j) {
        const double want =
            local[i][j] ? 0.0 : static_cast<double>(expected[i][j].size()) * column_time[i][j];
        CHECK(inst.times[i][j] == doctest::Approx(want).epsilon(1e-12));
        CHECK(inst.times[i][j] >= 0.0);
      }
    }
  }
}

// A wanted interval starting before column 0 must be refused, not read the owner table at a
// negative column.
TEST_CASE("column moves: wanted intervals out of range are refused") {
  const std::vector<std::vector<long>> held{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}};
  Case k;
  k.total = 10;
  k.held = held;
  k.wanted = {{-3, 10}};
  CHECK(throws_logic_error(k));
  k.wanted = {{-1, 1}, {0, 9}};
  CHECK(throws_logic_error(k));
  k.wanted = {{13, 10}};
  CHECK(throws_logic_error(k));
  k.wanted = {{0, -1}, {0, 10}};
  CHECK(throws_logic_error(k));
}

namespace {

long kept_naively(const std::vector<long>& holder, const std::vector<Count>& sizes, const std::vector<long>& keeper,
                  long start) {
  const long total = static_cast<long>(holder.size());
  long kept = 0, at = start;
  for (std::size_t j = 0; j < sizes.size(); ++j)
    for (Count c = 0; c < sizes[j]; ++c, at = (at + 1) % total)
      kept += keeper[j] >= 0 && holder[static_cast<std::size_t>(at)] == keeper[j];
  return kept;
}

}  // namespace

TEST_CASE("column moves: start_keeping_most keeps the most columns, first best from the given start") {
  std::mt19937_64 rng(2026);
  int with_common = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const long total = std::uniform_int_distribution<long>(1, 60)(rng);
    // Current holders: consecutive intervals of up to 6 processors from a random offset.
    const auto old_n = std::uniform_int_distribution<std::size_t>(1, 6)(rng);
    std::vector<long> holder(static_cast<std::size_t>(total));
    const long offset = std::uniform_int_distribution<long>(0, total - 1)(rng);
    for (long c = 0; c < total; ++c)
      holder[static_cast<std::size_t>((offset + c) % total)] =
          static_cast<long>(std::min<std::size_t>(old_n - 1, static_cast<std::size_t>(c * static_cast<long>(old_n) / total)));
    const auto new_n = std::uniform_int_distribution<std::size_t>(1, 6)(rng);
    std::vector<Count> sizes(new_n, 0);
    for (long c = 0; c < total; ++c) ++sizes[std::uniform_int_distribution<std::size_t>(0, new_n - 1)(rng)];
    std::vector<long> keeper(new_n);
    for (auto& k : keeper) k = std::uniform_int_distribution<long>(-1, static_cast<long>(old_n) - 1)(rng);
    const long from = std::uniform_int_distribution<long>(-total, 2 * total)(rng);
    const long got = start_keeping_most(holder, sizes, keeper, from);
    REQUIRE(got >= 0);
    REQUIRE(got < total);
    long best = -1, first_best = -1;
    const long origin = ((from % total) + total) % total;
    for (long d = 0; d < total; ++d) {
      const long start = (origin + d) % total;
      const long kept = kept_naively(holder, sizes, keeper, start);
      if (kept > best) {
        best = kept;
        first_best = start;
      }
    }
    CHECK(got == first_best);
    with_common += best > 0;
  }
  CHECK(with_common > 500);  // the random cases do exercise the choice
}
