// A forwarding chain by runs of items (HiPC 2004, Section 4): a processor holding `held` items and
// receiving an upstream hop's items sends its m-th item at d(m) = max(d(m-1) + c, a(m)), where a(m)
// is 0 for the items it holds and otherwise the arrival of an upstream item (Algorithm 2's
// as-soon-as-possible forwarding, Lemma 2). Departures are kept as runs m -> start + (m - first) *
// period: over a run of arrivals of period p, the sender goes back to back (period c) while it
// catches up and then at the arrivals' pace when p > c, or back to back throughout when p <= c, so
// each run in gives at most two runs out, in O(1) each. A chain costs O(runs), not O(items): a
// run at one pace is exactly what a paced block (model/redistribution.hpp) writes.
#pragma once

#include <vector>

#include "model/redistribution.hpp"

namespace ringsim::redistribution {

// Items first .. first+count-1 of a hop leave at start + (m - first) * period.
struct DepartureRun {
  Count first;
  Count count;
  double start;
  double period;
  double last() const { return start + static_cast<double>(count - 1) * period; }
};

// What a sender can send, and from when: a source holds everything from t0 (its port free then);
// a forwarder holds `held` items from time 0 and then receives the upstream hop's items, each
// `c_up` after it leaves.
struct ForwardingFeed {
  bool source = true;
  double t0 = 0.0;
  Count held = 0;
  std::vector<DepartureRun> upstream;
  double c_up = 0.0;
};

// Departures of `sends` items over a link of item cost c whose receiver hears from this sender alone.
std::vector<DepartureRun> forward_by_runs(const ForwardingFeed& in, Count sends, double c);

// When the last item sent ends (0 when none).
inline double runs_end(const std::vector<DepartureRun>& runs, double c) {
  return runs.empty() ? 0.0 : runs.back().last() + c;
}

}  // namespace ringsim::redistribution
