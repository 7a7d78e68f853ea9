#include "planners/points/hindsight_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "planners/points/played_move.hpp"
#include "planners/points/shared_move_bound.hpp"
#include "planners/redistribution/load_balance.hpp"
#include "planners/redistribution/redistribution_planner.hpp"

namespace ringsim::points {
namespace {

// One iteration as the simulation runs it (sim/ring_iteration.cpp): every member computes its
// columns, then the border exchange (exchange_end) ends the iteration.
struct IterationEnd {
  double started = 0.0;
  double end = 0.0;
  std::vector<double> compute;  // each member's computation time
};

IterationEnd run_iteration(const RunModel& m, const std::vector<Count>& loads, int it, double start) {
  IterationEnd e;
  e.started = start;
  e.compute.resize(loads.size());
  std::vector<double> done(loads.size());
  for (std::size_t i = 0; i < loads.size(); ++i) {
    done[i] = m.finish(i, it, start, static_cast<double>(loads[i]) * m.flops_per_column);
    e.compute[i] = done[i] - start;
  }
  e.end = std::max(start, exchange_end(m, done));
  return e;
}

// A redistribution point after iteration j that moves columns: the reports' all-gather, every
// member's planner run at iteration j's speed, then the planner's schedule for the move
// (sim/redistribution_point.cpp). Nothing when the loads are a balance for the decision speeds
// (rebalanced_targets; the model's speeds are exact): such a point only costs time and changes
// nothing, so no optimal set holds it.
struct PointEnd {
  bool moves = false;
  double end = 0.0;
  std::vector<Count> targets;
};

// The ring's move from `from` to `to` as the planners take it.
RingInstance move_instance(const RunModel& m, const std::vector<Count>& from, const std::vector<Count>& to) {
  RingInstance inst;
  inst.bidirectional = true;
  inst.loads = from;
  inst.targets = to;
  inst.cost_next = m.cost_next;
  inst.cost_prev = m.cost_prev;
  return inst;
}

// The point up to its decision: when it is decided and what it moves to; `end` then lacks the move.
PointEnd decide_point(const RunModel& m, const std::vector<Count>& loads, int j, const IterationEnd& last) {
  PointEnd p;
  p.end = decided_at(m, loads.size(), j, last.end);
  const std::vector<double> speeds = m.decision_speeds(j, loads, last.compute, last.started, p.end);
  p.targets = redistribution::rebalanced_targets(loads, speeds, 0.0);
  p.moves = p.targets != loads && loads.size() >= 2;
  return p;
}

PointEnd run_point(const RunModel& m, const std::vector<Count>& loads, int j, const IterationEnd& last) {
  PointEnd p = decide_point(m, loads, j, last);
  if (p.moves) p.end += move_time(m, loads, p.targets);
  return p;
}

void check(const RunModel& m) {
  if (m.iterations < 1 || m.initial_loads.empty() || !m.finish || !m.decision_speeds)
    throw std::invalid_argument("hindsight: incomplete run model");
}

// Where a walk along given points stands at the start of an iteration.
struct WalkState {
  double clock = 0.0;
  std::vector<Count> loads;
};

// The model's walk along `points` from the start of iteration `first` in state `s` (the points
// before `first` already behind it): iteration after iteration, then the point after it if listed
// (one where nothing moves still gathers and decides, as a fixed scheme's does). Calls
// `ended(it, state at its start, clock at its end)` after each iteration. Returns the clock when
// the last iteration ends, or, as soon as the clock reaches a finite `give_up`, that clock: the
// clock never goes back (an iteration ends at or after its start, a point at or after its
// decision, which is at or after the iteration's end), so the makespan would be no less.
template <class Ended>
double walk_points(const RunModel& m, const std::vector<int>& points, int first, WalkState s, double give_up,
                   Ended&& ended) {
  std::size_t next = static_cast<std::size_t>(std::lower_bound(points.begin(), points.end(), first) - points.begin());
  double t = s.clock;
  for (int it = first; it <= m.iterations; ++it) {
    const IterationEnd e = run_iteration(m, s.loads, it, t);
    ended(it, std::as_const(s), e.end);
    t = e.end;
    if (next < points.size() && points[next] == it) {
      ++next;
      PointEnd p = run_point(m, s.loads, it, e);
      t = p.end;
      if (p.moves) s.loads = std::move(p.targets);
    }
    s.clock = t;
    if (std::isfinite(give_up) && t >= give_up) return t;
  }
  if (next != points.size()) throw std::invalid_argument("hindsight: points outside 1..iterations-1 or not increasing");
  return t;
}

// The first iteration after which `a` and `b` (increasing) differ in holding a point; 0 if none.
int first_difference(const std::vector<int>& a, const std::vector<int>& b) {
  const auto [in_a, in_b] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  if (in_a == a.end()) return in_b == b.end() ? 0 : *in_b;
  return in_b == b.end() ? *in_a : std::min(*in_a, *in_b);
}

}  // namespace

double decided_at(const RunModel& m, std::size_t members, int j, double iteration_end) {
  double decided = iteration_end;
  for (std::size_t i = 0; i < members; ++i) {
    const double gathered = iteration_end + (m.gathered.empty() ? 0.0 : m.gathered[i]);
    decided = std::max(decided, m.decision_flops > 0.0 ? m.finish(i, j, gathered, m.decision_flops) : gathered);
  }
  return decided;
}

double predicted_makespan(const RunModel& m, const std::vector<int>& points);

// Clock-dependent speeds: from the recurrence's points, any single point added, removed or moved
// by one iteration that lowers the predicted makespan is taken, until none does (a local optimum
// for those changes, which the labels alone do not guarantee).
void improve_by_single_changes(const RunModel& m, HindsightPlan& plan) {
  const auto n_it = static_cast<std::size_t>(m.iterations);
  int round = 0;
  for (bool better = true; better;) {
    better = false;
    std::vector<std::vector<int>> tries;
    for (int p = 1; p < m.iterations; ++p) {
      std::vector<int> pts = plan.points;
      const auto at = std::lower_bound(pts.begin(), pts.end(), p);
      if (at != pts.end() && *at == p) {
        pts.erase(at);
        tries.push_back(pts);
        for (int shift : {-1, 1}) {
          std::vector<int> moved = plan.points;
          const int q = p + shift;
          if (q < 1 || q >= m.iterations || std::binary_search(moved.begin(), moved.end(), q)) continue;
          *std::lower_bound(moved.begin(), moved.end(), p) = q;
          tries.push_back(moved);
        }
      } else {
        pts.insert(at, p);
        tries.push_back(pts);
      }
    }
    ++round;
    // Every try walks as the round's points up to the iteration after which it first differs from
    // them: it starts there from their walk's state. A try is given up once its clock reaches the
    // makespan it must beat (walk_points: it could then only end later).
    const std::vector<int> from = plan.points;
    std::vector<WalkState> starts(n_it);
    walk_points(m, from, 1, {m.start, m.initial_loads}, std::numeric_limits<double>::infinity(),
                [&](int it, const WalkState& at, double) { starts[static_cast<std::size_t>(it - 1)] = at; });
    for (std::size_t k = 0; k < tries.size(); ++k) {
      if (m.progress) m.progress(("single changes, round " + std::to_string(round)).c_str(), static_cast<double>(k),
                                 static_cast<double>(tries.size()));
      const std::vector<int>& pts = tries[k];
      const int first = std::max(1, first_difference(pts, from));
      const double beat = plan.predicted_makespan * (1.0 - 1e-12);
      const double t = walk_points(m, pts, first, starts[static_cast<std::size_t>(first - 1)], beat,
                                   [](int, const WalkState&, double) {});
      if (t < beat) {
        plan.predicted_makespan = t;
        plan.points = pts;
        better = true;
      }
    }
  }
}

HindsightPlan plan_hindsight(const RunModel& m) {
  check(m);
  const auto n_it = static_cast<std::size_t>(m.iterations);
  // A label at point j: the run just after a move there, with these loads, at this clock, by these
  // points. One label per distinct loads, the earliest; with speeds that depend on the iteration
  // only, every arrival at j has the same targets, so one label and the recurrence is exact.
  struct Label {
    double clock = 0.0;
    std::vector<Count> loads;
    std::vector<int> points;
  };
  std::vector<std::vector<Label>> at(n_it);
  at[0].push_back({m.start, m.initial_loads, {}});
  HindsightPlan plan;
  plan.exact = !m.clock_dependent;
  const std::size_t keep = std::max<std::size_t>(1, m.labels_per_point);
  const Label* best = nullptr;
  double best_end = std::numeric_limits<double>::infinity();
  // Points in increasing order: every arrival at j comes from a point i < j, so j's labels are
  // final when the walks from them start.
  // The walks from point i run n_it - i iterations: the work done by i, for the progress line.
  const double total_work = 0.5 * static_cast<double>(n_it) * static_cast<double>(n_it + 1);
  for (std::size_t i = 0; i < n_it; ++i) {
    const double walked = static_cast<double>(i) * (static_cast<double>(n_it) - 0.5 * (static_cast<double>(i) - 1.0));
    if (m.progress) m.progress("recurrence", walked, total_work);
    for (const Label& from : at[i]) {
      double t = from.clock;
      for (int it = static_cast<int>(i) + 1; it <= m.iterations; ++it) {
        const IterationEnd e = run_iteration(m, from.loads, it, t);
        t = e.end;
        if (it == m.iterations) {
          if (i == 0) plan.predicted_none = t;
          // Ties keep the first found: the fewest points (points grow along the walk order).
          if (t < best_end) {
            best_end = t;
            best = &from;
          }
          break;
        }
        PointEnd p = decide_point(m, from.loads, it, e);
        if (!p.moves) continue;
        std::vector<Label>& labels = at[static_cast<std::size_t>(it)];
        auto same = std::find_if(labels.begin(), labels.end(), [&](const Label& l) { return l.loads == p.targets; });
        // A point that cannot end before the label it would replace changes nothing: it is not
        // planned (the labels kept are those the full walk would keep).
        // The bound is asked only where a label stands to be replaced.
        const auto least_end = [&] { return p.end + least_move_time(m, from.loads, p.targets); };
        if (same != labels.end() && !(least_end() < same->clock)) continue;
        if (same == labels.end() && labels.size() >= keep) {
          const double latest = std::max_element(labels.begin(), labels.end(), [](const Label& a, const Label& b) {
                                  return a.clock < b.clock;
                                })->clock;
          if (!(least_end() < latest)) continue;
        }
        p.end += move_time(m, from.loads, p.targets);
        ++plan.planner_calls;
        if (same != labels.end()) {
          if (p.end < same->clock) {
            same->clock = p.end;
            same->points = from.points;
            same->points.push_back(it);
          }
          continue;
        }
        Label next{p.end, std::move(p.targets), from.points};
        next.points.push_back(it);
        if (labels.size() < keep) {
          labels.push_back(std::move(next));
          continue;
        }
        // Full: the latest label gives way to an earlier one.
        auto latest = std::max_element(labels.begin(), labels.end(),
                                       [](const Label& a, const Label& b) { return a.clock < b.clock; });
        if (next.clock < latest->clock) *latest = std::move(next);
      }
    }
  }
  plan.predicted_makespan = best_end;
  if (best) plan.points = best->points;
  if (m.clock_dependent) improve_by_single_changes(m, plan);
  return plan;
}

double exchange_end(const RunModel& m, const std::vector<double>& done) {
  const std::size_t n = done.size();
  if (n == 0) return 0.0;
  if (m.cost_next.size() != n || m.cost_prev.size() != n)
    return *std::max_element(done.begin(), done.end()) + m.border_time;
  if (n == 1) return done[0];
  if (!m.neighbour_routes.empty()) return shared_exchange_end(m.neighbour_routes, done);
  double end = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t next = (i + 1) % n, prev = (i + n - 1) % n;
    end = std::max({end, std::max(done[i], done[next]) + m.cost_next[i], std::max(done[i], done[prev]) + m.cost_prev[i]});
  }
  return end;
}

double iteration_time(const RunModel& m, const std::vector<Count>& loads, int it, double start) {
  return run_iteration(m, loads, it, start).end - start;
}

// The one-port bound, raised where the ring's routes share links (shared_move_bound.hpp), held a
// hair below itself so that rounding never puts it above a plan that meets it.
double least_move_time(const RunModel& m, const std::vector<Count>& from, const std::vector<Count>& to) {
  return shared_move_lower_bound(move_instance(m, from, to), m.neighbour_routes) * (1.0 - 1e-9);
}

double move_time(const RunModel& m, const std::vector<Count>& from, const std::vector<Count>& to) {
  const RedistributionPlan plan = redistribution::plan_redistribution(move_instance(m, from, to), m.planner);
  return predicted_move_time(plan, from, m.neighbour_routes);
}

std::vector<double> predicted_iteration_ends(const RunModel& m, const std::vector<int>& points) {
  check(m);
  std::vector<double> ends;
  walk_points(m, points, 1, {m.start, m.initial_loads}, std::numeric_limits<double>::infinity(),
              [&](int, const WalkState&, double end) { ends.push_back(end); });
  return ends;
}

double predicted_makespan(const RunModel& m, const std::vector<int>& points) {
  return predicted_iteration_ends(m, points).back();
}

}  // namespace ringsim::points
