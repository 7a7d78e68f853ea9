// The hindsight-optimal redistribution points (scheme `hindsight`): with the whole run's speeds
// known, the set of iterations after which to redistribute that minimizes the predicted makespan.
// HiPC 2004, Section 7 leaves "how frequently redistributions must occur" open; for one run this is
// its exact answer under the model below, the bound every policy is measured against.
//
// The recurrence is Nicol and Saltz's remapping recurrence (Dynamic remapping of parallel
// computations with varying resource demands, IEEE ToC 1988): T(j) = min over i < j of
// T(i) + (iterations i+1..j on the loads balanced at i) + (a redistribution point after j).
// Pure: no SimGrid; the simulation supplies the speeds through RunModel's functions.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "model/redistribution.hpp"
#include "planners/points/border_exchange.hpp"

namespace ringsim::points {

// The run as the recurrence sees it: the same models the simulation predicts with.
struct RunModel {
  int iterations = 0;
  Count columns = 0;
  double flops_per_column = 0.0;
  double start = 0.0;                  // the clock when iteration 1 starts
  std::vector<Count> initial_loads;    // the initial balance
  std::vector<double> cost_next, cost_prev;  // one column to each neighbour, s (the planners' costs)
  double border_time = 0.0;            // the border exchange when the costs are not given (exchange_end)
  NeighbourRoutes neighbour_routes;    // where neighbour transfers share links (else empty: costs suffice)
  // When each member holds every report, after the iteration before a point ends (the one-way
  // all-gather, all_gather.hpp); empty: no all-gather.
  std::vector<double> gathered;
  double decision_flops = 0.0;         // each member's planner run at a point
  std::string planner = "auto";        // the redistribution planner (redistribution_planner.hpp)
  // When member i, computing `flops` from clock `start` during iteration `it` (or at the point
  // after it), is done.
  std::function<double(std::size_t i, int it, double start, double flops)> finish;
  // The speeds a point after iteration j balances for, given each member's load and computation
  // time during j, the clock when j started and the clock when the decision is taken (oracle
  // targets: the true speeds then; measured: load over computation time).
  std::function<std::vector<double>(int j, const std::vector<Count>& loads, const std::vector<double>& compute,
                                    double started, double decided)>
      decision_speeds;
  // Speeds depend on the clock (profiles), not only on the iteration: the recurrence then keeps,
  // for each point, the earliest arrival with each distinct loads, up to labels_per_point of them
  // (see plan_hindsight).
  bool clock_dependent = false;
  std::size_t labels_per_point = 8;
  // Told how far a planning on this model is, for a progress line: `done` of `total` units of work
  // in the step named; may be empty.
  std::function<void(const char* step, double done, double total)> progress;
};

struct HindsightPlan {
  std::vector<int> points;             // redistribute after these iterations, increasing
  double predicted_makespan = 0.0;     // the recurrence's: the clock when the last iteration ends
  double predicted_none = 0.0;         // the same model's makespan without any point
  std::size_t planner_calls = 0;       // moves planned: at most labels x (iterations - 1) iterations / 2
  bool exact = true;                   // optimal under the model (speeds not clock dependent)
};

// The points that minimize the predicted makespan over every subset of {1, .., iterations - 1},
// each point's targets balanced for its decision speeds (the choice every scheme's point makes).
// Exact when speeds depend on the iteration only: a point's targets and every later cost then
// depend on that point alone, not on how the run got there, so the earliest arrival at each point
// is all a later decision needs (optimal substructure): O(iterations^2) iterations added up and
// planner runs. With clock-dependent speeds a point's targets depend on the arrival time, and so
// do later iterations: the recurrence keeps the earliest arrival for each distinct loads (up to
// labels_per_point), an approximation (`exact` false) that tests measure against every subset.
HindsightPlan plan_hindsight(const RunModel& model);

// The same model's makespan for given points (increasing, each in 1..iterations-1): what the
// recurrence adds up along one path, for the brute-force tests and for reports.
double predicted_makespan(const RunModel& model, const std::vector<int>& points);
// The same walk's clock at the end of each iteration (the first is iteration 1's): to compare the
// model with a run's iterations.csv (its `end` column).
std::vector<double> predicted_iteration_ends(const RunModel& model, const std::vector<int>& points);

// Iteration `it` started at `start` with these loads, as the recurrence predicts it: the slowest
// member's computation and the border exchange, s.
double iteration_time(const RunModel& model, const std::vector<Count>& loads, int it, double start);

// When the border exchange ends, each member i having computed until done[i]
// (sim/ring_iteration.cpp): a member posts its receives and sends once it has computed, so the
// column from i to a neighbour j starts when both have computed and, alone on its route, takes
// the cost of that edge; the barrier after the exchange waits for the last arrival:
//   max over i, and j = i + 1 or i - 1, of max(done_i, done_j) + c(i -> j).
// That is the slowest member's end plus the dearest edge only when the two meet; elsewhere a dear
// edge between members that finished early is hidden behind the slowest one. Where border
// transfers share links (neighbour_routes not empty), their sharing over time instead
// (border_exchange.hpp). Without costs (a model given border_time only), the slowest end plus
// border_time.
double exchange_end(const RunModel& model, const std::vector<double>& done);

// When a point after iteration j, whose iteration ended at `iteration_end`, has gathered the
// reports and every member has run the planner: where the decision is taken, whether it moves
// anything or not (the all-gather, then each member's planner run from its own gather's end; the
// last to finish).
double decided_at(const RunModel& model, std::size_t members, int j, double iteration_end);

// How long the move a point makes after deciding takes, from `from` to `to` on the run's ring: the
// planner's schedule time, or where neighbour transfers share links, that schedule as the executor
// plays it (played_move.hpp).
double move_time(const RunModel& model, const std::vector<Count>& from, const std::vector<Count>& to);

// No move from `from` to `to` ends sooner after it starts than this (never above move_time).
double least_move_time(const RunModel& model, const std::vector<Count>& from, const std::vector<Count>& to);

}  // namespace ringsim::points
