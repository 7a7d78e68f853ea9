// What each redistribution earned, in hindsight: the computation it saved until the next one (or
// the run's end), against its own cost. A policy's moves are bets on speeds holding; this says,
// move by move, which bets paid (HiPC 2004, Section 7: "how frequently redistributions must occur"
// is a question of whether each one pays for itself).
//
// The saving of the move after iteration a, until the next move after iteration b: the sum over
// iterations a+1..b of the iteration's time with the loads before the move minus that with the
// loads after it, each at the speeds of that iteration as the simulation applied them (hindsight's
// model, points::iteration_time, its border exchange included: which edge ends it depends on the
// loads). Both are evaluated from the iteration's simulated start: exact for traces placed by
// iteration; with profiles (speeds that follow the clock) the loads never moved would have run at
// other instants, an approximation. Its cost is the whole point: the decision (reports and planner) and the
// transfers, as simulated. Not computed with rebuilds (the members change).
#include "sim/move_earnings.hpp"
#include "sim/reference_model.hpp"

#include <algorithm>

#include "planners/points/hindsight_plan.hpp"

namespace ringsim::sim {

void add_move_earnings(const RunSetup& s, const RingHistory& rings, const std::vector<Count>& initial,
                       std::vector<RedistributionRecord>& points, const std::vector<IterationRecord>& iterations) {
  std::vector<RedistributionRecord*> moves;
  for (auto& p : points)
    if (p.performed) moves.push_back(&p);
  if (rings.size() > 1 || iterations.empty() || moves.empty()) return;
  std::vector<const IterationRecord*> by_iteration(static_cast<std::size_t>(s.app.iterations) + 1, nullptr);
  for (const auto& rec : iterations) by_iteration.at(static_cast<std::size_t>(rec.iteration)) = &rec;
  if (std::find(by_iteration.begin() + 1, by_iteration.end(), nullptr) != by_iteration.end()) return;  // not run whole
  const points::RunModel m = reference_run_model(s, rings.front(), initial);
  for (std::size_t k = 0; k < moves.size(); ++k) {
    const int a = moves[k]->after_iteration;
    const int b = k + 1 < moves.size() ? moves[k + 1]->after_iteration : s.app.iterations;
    if (a < 1 || a >= s.app.iterations) continue;
    const std::vector<long>& before = by_iteration.at(static_cast<std::size_t>(a))->loads;
    double saved = 0.0;
    for (int it = a + 1; it <= b; ++it) {
      const IterationRecord& rec = *by_iteration.at(static_cast<std::size_t>(it));
      saved += points::iteration_time(m, before, it, rec.start) - points::iteration_time(m, rec.loads, it, rec.start);
    }
    moves[k]->hindsight_saved = saved;
  }
}

}  // namespace ringsim::sim
