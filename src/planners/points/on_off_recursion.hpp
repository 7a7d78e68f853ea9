// The best online choice of redistribution points (scheme `online-optimal`): what a policy can at
// best achieve when it knows every member's load state at each point and the load's law, but not
// its future. It brackets the question of when to redistribute from the other side: `hindsight` knows the
// future, every real policy knows less than this one (its reports are late and its looks cost
// time), so the gap between this scheme and `hindsight` is the price of not knowing the future,
// which no policy can recover, and the gap between a policy and this scheme is what better
// watching and deciding could still win.
//
// Exact for geometric on/off load (trace_families.hpp): each member's state (available, or loaded
// at `load_factor` of its speed) is a two-state Markov chain that leaves its state with a fixed
// probability each iteration, independently of the other members, so the states of all members
// after an iteration are all a policy needs to know of the past to predict the future. Every point
// balances for the speeds of the iteration before it (the targets every scheme's point takes, and
// hindsight's), so the loads are always the initial balance or the balance of one joint state:
// at most 2^n + 1 of them. Bellman's backward recursion (Bellman 1957; for remapping decisions,
// Nicol and Saltz 1988 state the same choice as a recurrence) over (iteration, loads, states)
// then minimizes the expected makespan over every history-dependent policy:
//   E_t(L, s)  = sum over s' of P(s' | s) (T(L, s') + V_{t+1}(L, s')),      V_iterations = 0,
//   V_t(L, s)  = min(E_t(L, s), C(L, s) + E_t(B(s), s)),
// T the iteration time of loads L under states s', C a point's cost (the all-gather, every
// member's planner run, the planner's schedule from L to the balance B(s) of states s). These are
// hindsight's models (hindsight_plan.hpp) on iteration-indexed speeds, term for term, so for any trace
// the points chosen here cost, by plan_hindsight's own predicted_makespan, what the recursion adds
// up along that trace (tests check both).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/redistribution.hpp"
#include "planners/points/hindsight_plan.hpp"

namespace ringsim::points {

// Geometric on/off load on every member: the speed multipliers of the two states and the
// probability, per iteration, of leaving each (1 / its mean duration in iterations).
struct OnOffLaw {
  double load_factor = 0.25;
  double leave_available = 0.0;
  double leave_loaded = 0.0;
  double loaded_at_start = 0.0;  // probability that a member is loaded before iteration 1
};

// A joint state: bit i set when member i is loaded.
using LoadStates = std::uint32_t;

inline bool is_loaded(LoadStates s, std::size_t member) { return ((s >> member) & 1u) != 0; }

// The probability of joint state s of n members, each loaded with probability p independently.
inline double joint_probability(LoadStates s, std::size_t n, double p) {
  double q = 1.0;
  for (std::size_t i = 0; i < n; ++i) q *= is_loaded(s, i) ? p : 1.0 - p;
  return q;
}

// The law as the states of iterations 1..m (`known`, consecutive) show it, the members pooled
// (they share one law): each leaving probability is its posterior mean under Jeffreys' prior
// Beta(1/2, 1/2), (times the state was left + 1/2) / (times it was held with a successor known + 1),
// so that few observations never make a state last forever or end for sure; loaded at start: the
// chain's stationary share of loaded iterations.
OnOffLaw estimated_law(const std::vector<LoadStates>& known, std::size_t members, double load_factor);

// Whether a learning rule solved for `then` must solve again for `now`: a leaving probability has
// moved by more than `resolve` (relative) of the one solved for.
bool law_drifted(const OnOffLaw& now, const OnOffLaw& then, double resolve);

// estimated_law's counts, kept as the known states grow one transition at a time.
class LawCounts {
 public:
  explicit LawCounts(std::size_t members);
  // Iteration j's state `from` was followed by `to`.
  void add(LoadStates from, LoadStates to);
  OnOffLaw law(double load_factor) const;

 private:
  std::size_t members_;
  double left_[2] = {0.0, 0.0}, held_[2] = {0.0, 0.0};  // [0]: available, [1]: loaded
};

// The late rule's choices for one law (OnlineOptimal::late_rule), from the point after the
// iteration it was solved from (late_rule's `from`) to the end: after iteration t, holding loads l
// (an index of OnlineOptimal::loads()) and knowing the joint state k of age a, it goes on, looks,
// or makes a point towards loads b; after a look that showed s, it goes on or makes a point.
class LateRule {
 public:
  static constexpr int go_on = -1, look = -2;
  // go_on, look, or the loads a point moves to; t in late_rule's from..iterations - 1, a <= the delay.
  int act(int t, std::size_t l, int age, LoadStates k) const;
  // go_on or the loads a point moves to, after a look at t showed s.
  int after_look(int t, std::size_t l, LoadStates s) const;

 private:
  friend class OnlineOptimal;
  std::size_t at(int t, std::size_t l) const;
  int from_ = 1, iterations_ = 0;
  std::size_t count_ = 0, ages_ = 1, states_ = 0;
  std::vector<std::int16_t> act_, after_look_;
};

class OnlineOptimal {
 public:
  // 2^n joint states: beyond this many members the recursion no longer fits a run's time.
  static constexpr std::size_t max_members = 8;
  // std::invalid_argument for a ring of more than max_members.
  static void check_members(std::size_t n);

  // Runs the recursion on the run's costs as hindsight models them (`model`: its iterations,
  // columns, initial loads, column costs, border exchange, all-gather, decision and planner; not
  // its speed functions, since the speeds are the states', `peak` times 1 or the load factor):
  // (2^n + 1) 2^n planner runs at most, then O(iterations (2^n + 1) n 2^n) for the policy and
  // O(iterations (2^n + 1)^2 2^n) for the bound over any target.
  OnlineOptimal(const RunModel& model, std::vector<double> peak, const OnOffLaw& law);
  // Only the tables the late rule reads (the loads, iteration, planner and move times), for a
  // policy that solves late_rule itself: `law` gives the load factor, the expectations stay 0 and
  // points_along and any_target_along are not to be asked.
  struct TablesOnly {};
  OnlineOptimal(const RunModel& model, std::vector<double> peak, const OnOffLaw& law, TablesOnly);

  // The points the optimal policy takes along a trace: `states[it - 1]` the joint state of
  // iteration it (1..iterations). A point is taken only where it is strictly better.
  std::vector<int> points_along(const std::vector<LoadStates>& states) const;

  // Expected makespans from the law's start: the optimal policy's, and never redistributing.
  double expected_makespan() const { return expected_makespan_; }
  double expected_none() const { return expected_none_; }
  // The same recursion where a point may move to the balance of any joint state, or back to the
  // initial loads: every target a point can take under this load, whatever (older) reports it
  // balanced for, since each report measures one iteration at one state's speed. A bound, in
  // expectation, for every policy on this load, not only those that balance for the present.
  double expected_any_target() const { return expected_any_target_; }
  // That bound's rule along a trace (as points_along): where it moves, and the makespan and the
  // makespan without points that the recursion's own tables add up along the trace.
  struct Path {
    std::vector<int> points;
    std::vector<int> moves_to_initial;  // the points (of `points`) that return to the initial loads
    std::vector<std::vector<Count>> point_loads;  // per point, the loads it moves to
    double makespan = 0.0;
    double none = 0.0;
  };
  Path any_target_along(const std::vector<LoadStates>& states) const;
  // Hindsight over the same targets: knowing the whole trace, the points and targets (any of the
  // loads above at each point) that minimize the makespan in the same model, by a forward
  // recurrence over (iteration, loads), O(iterations (2^n + 1)^2). `hindsight` balances each point
  // for the present; this one may not, so it is no slower, and the any-target bound is to be read
  // against it: what a rule that may choose its targets loses by not knowing the future.
  Path hindsight_any_target_along(const std::vector<LoadStates>& states) const;
  // The best rule with a policy's information, in expectation from the law's start: after each
  // iteration t it knows the joint state of iteration t - `delay` for free (a policy's common
  // snapshot: delay = floor(n/2) - 1) and may pay `look` s to learn the present (a policy's
  // all-gather); a point runs the planner at every member without a gather and moves to any
  // target (the initial loads or the balance of any joint state: a policy's point balances for
  // its snapshot, for a look's speeds, or for the nominal speeds). What it knows is summed up by
  // the newest state known and its age a <= delay (the chain is Markov: older states add
  // nothing), so the recursion runs over (loads, state, age): with
  // g_j(L, k) = E[T(L, s_(t+j)) | s_t = k] and W the value after the next iteration (age a + 1 if
  // a < delay, else the next snapshot's state k' ~ P(k, .) at age delay),
  //   S_t(L, k, a) = g_(a+1)(L, k) + W_(t+1)(L, k, a),
  //   V_t(L, k, a) = min(S_t(L, k, a),                                       go on,
  //                      E_a[planner](k) + min_B' C(L, B') + S_t(B', k, a),   a point on what it knows,
  //                      look + E over s ~ P^a(k, .) of min(S_t(L, s, 0),      a look, then none
  //                                  planner(s) + min_B' C(L, B') + S_t(B', s, 0))   or a point).
  // After the first iteration it is given that iteration's state (a policy knows nothing yet),
  // so this stays a bound: no policy whose points take such targets does better, in expectation,
  // on this model. With delay 0 and a run model whose all-gather costs nothing it is
  // expected_any_target() (tests check both, and the recursion against expectimax over every
  // history seen).
  double expected_late(int delay, double look) const;
  // The late rule played along a trace (states as points_along): after each iteration it goes on,
  // looks (then goes on or makes a point), or makes a point on what it knows, as expected_late's
  // recursion chooses, and the trace's costs add up (a point's planner run at the present's
  // speeds). Solved once for the law, so that its mean over the law's traces is expected_late
  // (tests check it).
  struct LatePath {
    std::vector<int> points, looks;
    std::vector<std::vector<Count>> point_loads;  // per point, the loads it moves to
    double makespan = 0.0;
    int solves = 0;  // recursions solved along the way
  };
  LatePath late_along(const std::vector<LoadStates>& states, int delay, double look) const;
  // The same rule when it is not told the law (certainty equivalence): after each iteration t it
  // estimates the law from the states it knows for free, those of iterations 1..t - delay
  // (estimated_law; a look's state stands alone, with no successor known, so it is not counted),
  // and solves the recursion again from t on whenever either leaving probability has moved by
  // more than `resolve` (relative) since the law it last solved for. It knows the load factor (a
  // member's loaded speed is in its first loaded report). A rule with exactly a policy's
  // information: its mean over the law's traces is never below expected_late (tests check it).
  LatePath learning_late_along(const std::vector<LoadStates>& states, int delay, double look, double resolve) const;
  // The late rule's choices for `law` after iterations from..iterations - 1 (expected_late's
  // recursion), to be played one decision at a time. `look_plans`: a look also runs the planner at
  // every member, whether a point follows or not (a simulated policy's all-gather does).
  LateRule late_rule(int delay, double look, const OnOffLaw& law, int from, bool look_plans = false) const;
  // The loads a run can hold (0: the initial balance, then the balance of each joint state); the
  // index of given loads among them, or loads_count() if none; speeds whose balance they are (the
  // nominal speeds for the initial balance, else one joint state's).
  const std::vector<std::vector<Count>>& loads() const { return loads_; }
  std::size_t loads_index(const std::vector<Count>& loads) const;
  std::vector<double> speeds_balanced_to(std::size_t b) const;
  std::size_t loads_count() const { return loads_.size(); }
  std::size_t planner_calls() const { return planner_calls_; }

 private:
  std::vector<double> speeds_of(LoadStates s) const;
  // Every member's planner run at the speeds of s, no gather: the last to finish.
  double planner_time(LoadStates s) const;
  // E[f(s') | s] for every s, in place: each member's own two-state kernel applied in turn.
  void expect_next(std::vector<double>& f) const { expect_next(f, law_); }
  void expect_next(std::vector<double>& f, const OnOffLaw& law) const;
  // expected_late's recursion for `law`, from the last iteration back to the point after
  // iteration `from`: the values V_from(L, k, a) there, and the choices on the way if asked.
  std::vector<double> solve_late(int delay, double look, const OnOffLaw& law, int from, LateRule* choices,
                                 bool look_plans = false) const;
  LatePath walk_late(const std::vector<LoadStates>& states, int delay, double look, bool learn, double resolve) const;
  // std::invalid_argument unless `states` holds one joint state of this ring per iteration.
  void check_trace(const std::vector<LoadStates>& states) const;
  bool moves(int t, std::size_t loads, LoadStates s) const;
  // The loads, their balances and the costs every recursion reads.
  void build_tables();

  RunModel m_;
  std::vector<double> peak_;  // flop/s, the available state's speeds
  OnOffLaw law_;
  std::size_t states_ = 0;                   // 2^n
  std::vector<std::vector<Count>> loads_;    // 0: the initial balance; then each distinct balance
  std::vector<std::size_t> balance_of_;      // per joint state, the index of its balance in loads_
  std::vector<bool> move_;                   // per (t, loads, s): the optimal policy moves
  std::vector<std::int16_t> any_move_;       // per (t, loads, s): the bound's target, or -1 to stay
  std::vector<double> time_, decision_, moves_;  // T(L, s), a point's decision time, the planner's per (from, to)
  double expected_makespan_ = 0.0;
  double expected_none_ = 0.0;
  double expected_any_target_ = 0.0;
  std::size_t planner_calls_ = 0;
};

}  // namespace ringsim::points
