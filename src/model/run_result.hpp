// What one simulated run produced (plain values; the simulation layer fills them).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ringsim {

struct IterationRecord {
  int iteration = 0;  // 1-based
  double start = 0.0, end = 0.0;
  std::string slowest;  // the member whose own computation took longest (not counting the borders)
  std::vector<long> loads;
};

struct RedistributionRecord {
  int after_iteration = 0;
  bool performed = false;       // adaptive schemes may decide it does not pay
  double decision_start = 0.0;  // reports gathered, plan computed...
  double transfers_start = 0.0; // ...then the columns move
  double end = 0.0;
  double plan_time = 0.0;       // the plan's time under its planner's model (one-port edges)
  double predicted = 0.0;       // the plan as the simulation plays it (points::predicted_move_time)
  double simulated = 0.0;       // end - transfers_start
  double lower_bound = 0.0;
  bool optimal = false;
  std::string planner;
  long items_moved = 0;
  double tstep_before = 0.0, tstep_after = 0.0;  // predicted iteration times (adaptive test)
  bool fresh_reports = true;    // decided on an all-gather of this iteration (else piggybacked reports)
  bool balanced_for_reports = true;  // targets balance the reports' speeds (else speeds the policy chose)
  bool planned = false;              // targets given before the run (scheme hindsight-targets)
  std::string decided_by;            // the scheme, or the rule of the policy that answered (policy.hpp)
  // Performed moves: the computation saved until the next move, in hindsight (move_earnings.cpp), s.
  std::optional<double> hindsight_saved;
};

// Columns moved with a KPBS schedule: the staging from the storage cluster (after_iteration 0) or a
// rebuild of the ring on other processors.
struct ColumnTransferRecord {
  int after_iteration = 0;
  std::vector<std::string> senders, receivers;  // hosts
  std::string scheduler;
  std::size_t k = 0;
  double beta = 0.0;
  bool kpbs_feasible = true;
  long columns_over_network = 0, columns_local = 0;
  double lower_bound = 0.0;        // eta of the instance
  double planned = 0.0;            // the schedule's time
  double simulated = 0.0;          // end - start
  double decision_time = 0.0;      // rebuilds: reports gathered and the plan computed before the move
  double start = 0.0, end = 0.0;
  std::vector<double> planned_steps, simulated_steps;
};

// A speed of a trace file (or of a platform's profile) above its host's peak speed: kept (SimGrid
// takes multipliers > 1, and ringsim's own traces can write them) and reported.
struct SpeedAbovePeak {
  std::string where;  // 'file':line
  std::string host;
  double speed = 0.0;  // flop/s
  double peak = 0.0;   // flop/s
};

struct RunResult {
  std::vector<std::string> ring;
  double flops_per_column = 0.0;
  double realized_ratio = 0.0;  // flops_per_column over (the ring's mean column time x mean speed)
  double column_bytes = 0.0;
  double initial_iteration_time = 0.0;  // predicted, converts trace iterations to times
  double planned_tstep = 0.0;           // ring selection "planner": the planner's T_step
  std::string ring_routing;             // ring selection "planner": the routing mode used (free|platform)
  int planned_ratio_rounds = 0;         // ring selection "planner": plans made for the ratio's fixed point
  bool planned_ratio_converged = false; // ... and whether the ring was planned for its own work
  double makespan = 0.0;
  double ideal_time = 0.0;
  double decision_time = 0.0;
  double transfer_time = 0.0;
  double predicted_transfer_time = 0.0;  // the points' `predicted`, summed
  double planned_transfer_time = 0.0;    // the points' `plan_time`, summed
  bool moves_share_links = false;        // some ring's moves were predicted on shared links
  int redistributions = 0;  // performed
  // Scheme `hindsight`: the points chosen (simulated as after:a,b,..), the recurrence's predicted
  // makespan for them and without any point, and whether they are optimal under its model; empty
  // for every other scheme.
  struct Hindsight {
    std::vector<int> points;
    std::string simulated_as;  // the fixed scheme of the points
    double predicted_makespan = 0.0;
    double predicted_none = 0.0;
    std::size_t planner_calls = 0;
    bool exact = true;
    double seconds = 0.0;  // wall-clock time the recurrence took
    // Scheme hindsight-targets: per point, the loads it moves to (empty for hindsight).
    std::vector<std::vector<std::int64_t>> point_loads;
    // The check in the simulation (scheme.hpp, checked_in_simulation): the points' own simulated
    // makespan, each checked scheme's, and whether the points were kept (else the run is the
    // fastest checked scheme's, `simulated_as`). Empty `checked`: not checked.
    struct Checked {
      std::string scheme;
      double makespan = 0.0;
    };
    std::vector<Checked> checked;
    double points_makespan = 0.0;
    bool points_kept = true;
  };
  std::optional<Hindsight> hindsight;
  // Scheme `online-optimal`: the points the best online rule took along this run's traces
  // (simulated as after:a,b,..), what its recursion expects over the traces' law with them and
  // without any point, and what hindsight's model predicts for them on this run.
  struct OnlineOptimal {
    std::vector<int> points;
    std::string simulated_as;
    double expected_makespan = 0.0;
    double expected_none = 0.0;
    double predicted_makespan = 0.0;
    std::size_t loads = 0;
    std::size_t planner_calls = 0;
    double seconds = 0.0;
    // The bound over moves to any target: its expectation, and its rule along this run's traces
    // (points, those returning to the initial loads, makespan and makespan without points, both
    // by the recursion's model).
    double expected_any_target = 0.0;
    std::vector<int> any_target_points, any_target_returns;
    double any_target_makespan = 0.0, any_target_none = 0.0;
    // Hindsight over the same targets on this run's traces (the model's): the bound's reference.
    std::vector<int> hindsight_any_target_points, hindsight_any_target_returns;
    double hindsight_any_target_makespan = 0.0;
    // The best rule with a policy's information (points::OnlineOptimal::expected_late): the states
    // `late_delay` iterations late for free, the present for a look of `late_look` s; its expectation.
    double expected_late = 0.0;
    int late_delay = 0;
    double late_look = 0.0;
    // That rule along this run's traces (OnlineOptimal::late_along), and the same rule when it
    // learns the law from the states it knows (learning_late_along, re-solving when an estimated
    // probability moves by more than `learning_resolve`): points, looks, the model's makespan.
    struct LatePath {
      std::vector<int> points, looks;
      double makespan = 0.0;
      int solves = 0;
    };
    LatePath late_path, learning_path;
    double learning_resolve = 0.0;
  };
  std::optional<OnlineOptimal> online_optimal;
  std::vector<IterationRecord> iterations;
  std::vector<RedistributionRecord> points;
  bool staged = false;
  ColumnTransferRecord staging;
  std::vector<ColumnTransferRecord> rebuilds;
  std::vector<SpeedAbovePeak> above_peak;  // from the trace files, in the order read
  std::vector<std::string> trace_warnings;  // lines of the trace files kept but suspect (io::suspect_trace_lines)
  std::string simgrid_version;
  std::string network_model;  // in force: linear, lv08 or SimGrid's network/model (platform/simgrid_options.hpp)
  std::vector<std::pair<std::string, std::string>> simgrid_options;  // every non-default option in force
};

}  // namespace ringsim
