#include "sim/ring_simulation.hpp"

#include "sim/ring_app.hpp"

#include <simgrid/kernel/ProfileBuilder.hpp>
#include <simgrid/version.h>
#include <xbt/log.h>

#include <stdexcept>

#include "model/errors.hpp"
#include "planners/redistribution/load_balance.hpp"
#include "sim/platform_loader.hpp"

XBT_LOG_NEW_DEFAULT_CATEGORY(ringsim_app, "ringsim: the iterative application on a ring");

namespace sg4 = simgrid::s4u;

namespace ringsim {

using namespace app;

// The network model is chosen after the Engine exists and before the platform is loaded.
static sg4::Engine& with_network_model(sg4::Engine& engine, NetworkModel network, int argc, char** argv) {
  sim::set_network_model(network == NetworkModel::linear, argc, argv);
  return engine;
}

struct LoadedSimulation::State {
  sg4::Engine engine;
  sim::LoadedPlatform lp;
  State(const std::string& platform, NetworkModel network, int* argc, char** argv)
      : engine(argc, argv), lp(with_network_model(engine, network, *argc, argv), platform) {}
};

LoadedSimulation::LoadedSimulation(const std::string& platform, NetworkModel network, int* argc, char** argv)
    : state_(std::make_unique<State>(platform, network, argc, argv)), platform_(platform), network_(network) {}

LoadedSimulation::~LoadedSimulation() = default;

RunResult run_simulation(const RunConfig& cfg, int* argc, char** argv, const SimulationOptions& opt) {
  LoadedSimulation loaded(cfg.platform, cfg.network, argc, argv);
  return run_simulation(cfg, loaded, opt);
}

RunResult run_simulation(const RunConfig& cfg, LoadedSimulation& loaded, const SimulationOptions& opt) {
  if (loaded.used_) throw std::logic_error("run_simulation: a loaded platform serves one run (fork before each)");
  if (cfg.platform != loaded.platform_ || cfg.network != loaded.network_)
    throw std::logic_error("run_simulation: the run's platform or network model is not the loaded one");
  loaded.used_ = true;
  sg4::Engine& engine = loaded.state_->engine;
  sim::LoadedPlatform& lp = loaded.state_->lp;
  if (cfg.staging.enabled && !lp.declared())
    throw InputError("staging needs a platform of one Full, Floyd or Dijkstra zone (the storage cluster joins it), "
                     "and '" + cfg.platform + "' has " + lp.why_no_model());
  RunRings rings = choose_run_rings(cfg, engine, lp);
  const PlannedRing& planned = rings.planned;

  RingRun r;
  r.cfg = &cfg;
  r.column_bytes = 8.0 * cfg.rows;
  for (std::size_t k = 0; k < cfg.rebuilds.size(); ++k) r.rebuild_at[cfg.rebuilds[k].after] = k;
  r.rebuild_rings = std::move(rings.rebuilds);
  const std::vector<sg4::Host*> ring = hosts_named(engine, rings.ring);
  std::vector<SpeedAbovePeak> above_peak;
  r.all_traces = traces_for(cfg, ring, r.rebuild_rings, &above_peak);
  r.mutex = sg4::Mutex::create();
  r.column_arrived = sg4::ConditionVariable::create();
  set_ring(r, ring, 1);
  double mean_cost = 0.0, mean_speed = 0.0;
  for (std::size_t i = 0; i < r.n; ++i) {
    mean_cost += (r.cost_next[i] + r.cost_prev[i]) / (2.0 * static_cast<double>(r.n));
    mean_speed += r.peak[i] / static_cast<double>(r.n);
  }
  // ratio = (one column on the ring's mean speed) / (one column over the mean neighbour path);
  // for a planned ring, the planner's own W (ratio on platform means), and its bandwidth shares.
  r.flops_per_column = cfg.ratio * (r.n > 1 ? mean_cost : 1.0) * mean_speed;
  if (cfg.selection == RingSelection::planner) {
    r.flops_per_column = planned.flops_per_column;
    if (r.n > 1) {
      r.rate_next = planned.succ_bw;
      r.rate_prev = planned.pred_bw;
    }
  }

  const auto initial = balanced_targets(r.peak, cfg.columns);
  const auto intervals = consecutive_intervals(initial, 0, cfg.columns);
  if (cfg.staging.enabled) {
    r.staging_plan = plan_staging(cfg, engine, r, intervals);
    r.time_origin = r.staging_plan.schedule.time;
    expect_columns(r, intervals, cfg.staging.overlap);
  } else {
    r.columns.resize(r.n);
    for (std::size_t i = 0; i < r.n; ++i)
      for (long c : columns_of(intervals[i], cfg.columns)) r.columns[i].push_back(c);
  }
  r.iteration_time0 = predicted_tstep(r, initial, r.peak);
  r.known_loads.assign(initial.begin(), initial.end());
  start_policies(r, 1);

  if (!opt.traces_dir.empty()) write_traces(r, opt.traces_dir);
  RunResult res;
  for (auto* h : r.hosts) res.ring.push_back(h->get_name());
  res.flops_per_column = r.flops_per_column;
  res.column_bytes = r.column_bytes;
  res.initial_iteration_time = r.iteration_time0;
  res.planned_tstep = planned.tstep;
  res.above_peak = std::move(above_peak);
  if (cfg.selection == RingSelection::planner) res.ring_routing = to_string(planned.routing);
  if (opt.setup_only) return res;
  // Profiles are attached before Engine::run (attaching later raises a false deadlock). With the
  // platform's own profiles, SimGrid attached them at load (a second one would abort).
  if (cfg.trace_source != "platform")
    for (const auto& t : r.all_traces)
      engine.host_by_name(t.host)->set_speed_profile(simgrid::kernel::profile::ProfileBuilder::from_string(
          "speed-" + t.host, speed_profile_text(t, r.iteration_time0, r.time_origin), -1));

  if (cfg.staging.enabled) sg4::Actor::create("stager", r.staging_plan.senders.front(), stage_matrix, &r);
  for (std::size_t i = 0; i < r.n; ++i)
    sg4::Actor::create("member-" + std::to_string(i), r.hosts[i], ring_member, &r, i, 1);
  engine.run();

  res.makespan = r.iterations.empty() ? 0.0 : r.iterations.back().end;
  res.ideal_time = ideal_time(r);
  for (const auto& p : r.points) {
    res.decision_time += p.transfers_start - p.decision_start;
    if (p.performed) {
      ++res.redistributions;
      res.transfer_time += p.simulated;
      res.predicted_transfer_time += p.predicted;
    }
  }
  res.iterations = std::move(r.iterations);
  res.points = std::move(r.points);
  res.staged = cfg.staging.enabled;
  res.staging = std::move(r.staging);
  res.rebuilds = std::move(r.rebuilds);
  res.simgrid_version = std::to_string(SIMGRID_VERSION_MAJOR) + "." + std::to_string(SIMGRID_VERSION_MINOR);
  if (SIMGRID_VERSION_PATCH) res.simgrid_version += "." + std::to_string(SIMGRID_VERSION_PATCH);
  return res;
}

}  // namespace ringsim
