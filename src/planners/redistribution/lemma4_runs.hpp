// The time of the Lemma 4 schedule (HiPC 2004, Section 6) when it is not light, computed by runs of
// items instead of item by item: what `bi-light --summary` needs on rings of a million processors,
// where the items moved number in the tens of billions.
//
// The schedule is the as-soon-as-possible execution of asap_schedule.hpp under Lemma 4's rule
// (P_(i+1) first, contested receiving ports to the lowest index, clockwise senders first) of flows
// from one circulation, so each edge carries items one way only. Then every processor is one of:
//  - a source: it receives nothing and holds what it sends (a two-way source sends clockwise from
//    time 0, back to back, then counter-clockwise);
//  - a forwarder: it receives from one side and sends to the other as Algorithm 2 does
//    (forwarding_runs.hpp). It never waits for its receiver, which hears from it alone, except at
//    a two-way sink;
//  - a sink: it receives from one side, or from both (the only contested ports).
// Forwarding chains run from sources to sinks without feedback (a forwarder buffers without
// limit), so the departures of each hop follow from the previous hop's, by runs of items.
// At a two-way sink the two last hops are played item by item with the executor's rules: the
// sender whose item just arrived keeps the port if it holds another, otherwise the clockwise one
// goes first. Cost: O(runs + items received by two-way sinks), memory O(n + runs).
//
// Times are formulas over runs, not the executor's running sums, so they agree with it to rounding
// (exactly when costs are integers): tests/test_lemma4_runs.cpp compares them on thousands of rings.
#pragma once

#include <optional>
#include <vector>

#include "model/redistribution.hpp"
#include "planners/redistribution/ring_math.hpp"

namespace ringsim::redistribution {

// The makespan of schedule_asap(inst, flows, Lemma 4's rule). Nothing when the run structure does
// not apply: rings of two processors (both neighbours are one processor) and flows that circle the
// whole ring one way (no forwarding chain has a source).
std::optional<double> lemma4_makespan_by_runs(const RingInstance& inst, const EdgeFlows& flows);

// The schedule itself by runs: schedule_asap's blocks (in_opening_order) or stream_asap's, in the
// order it hands them out, with its makespan; nothing where lemma4_makespan_by_runs gives nothing or
// some sender cannot send all it must. Each hop grows its blocks with the executor's joining rules
// a run of departures at a time; a two-way sink's two senders item by item. Where every cost is a
// multiple of a power of two small enough that all times are exact doubles (integer costs, say),
// these are the executor's blocks exactly; otherwise its item times to rounding, in blocks that
// join where the executor's running sums would miss a pace by an ulp. O(runs log runs + items
// received by two-way sinks); memory O(n + runs + blocks).
// With real costs, only flows of at least `real_costs_from` items are computed by runs: below,
// the item-by-item executor is fast, and its very times keep the simulations' outputs unchanged.
// Runs cannot give those very times in fewer blocks. The executor's departures are chains of
// rounded additions (each item's end is the previous end plus c, each arrival a departure plus the
// upstream cost), the runs' are start + m * period. The running sums could be followed by runs
// (within one binade [2^e, 2^(e+1)), adding c rounds to one constant step from the second addition
// there on, so a sum can jump a binade at a time), but a block states its items' times by
// start + m * period in doubles, and the executor cuts its paced blocks wherever that formula
// misses its running sum by an ulp: keeping its very times means keeping its blocks, 25 770 at
// 2^13 shuffled (3.15 n) against 14 581 by runs (1.78 n; tests/test_asap_by_runs.cpp counts both
// differences on its real-cost schedules). So, at real costs, bit-identical times and blocks
// within 2n exclude each other; the simulations keep the former, large answers the latter.
struct Lemma4Blocks {
  std::vector<Transfer> blocks;
  double makespan = 0.0;
};
inline constexpr Count kRealCostsByRunsFrom = Count{1} << 22;
std::optional<Lemma4Blocks> lemma4_blocks_by_runs(const RingInstance& inst, const EdgeFlows& flows, bool in_opening_order,
                                                  Count real_costs_from = kRealCostsByRunsFrom);

}  // namespace ringsim::redistribution
