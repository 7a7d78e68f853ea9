#include "sim/ring_simulation.hpp"

#include "sim/member_reports.hpp"
#include "sim/ring_iteration.hpp"
#include "sim/kpbs_moves.hpp"
#include "sim/ring_choice.hpp"
#include "sim/reference_check.hpp"
#include "sim/reference_model.hpp"
#include "sim/move_earnings.hpp"
#include "sim/run_traces.hpp"

#include <algorithm>
#include <simgrid/Exception.hpp>
#include <simgrid/kernel/ProfileBuilder.hpp>
#include <simgrid/version.h>
#include <xbt/config.hpp>
#include <xbt/log.h>

#include <chrono>
#include <limits>
#include <optional>
#include <set>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "io/platform_formats.hpp"
#include "io/platform_speed_files.hpp"
#include "io/trace_files.hpp"
#include "model/errors.hpp"
#include "planners/redistribution/load_balance.hpp"
#include "platform/abort_guard.hpp"
#include "platform/platform_loader.hpp"
#include "policy/registry.hpp"
#include "platform/simgrid_options.hpp"
#include "sim/app_phases.hpp"
#include "platform/paje_tracing.hpp"

XBT_LOG_NEW_DEFAULT_CATEGORY(ringsim_app, "ringsim: the iterative application on a ring");
XBT_LOG_EXTERNAL_CATEGORY(ker_engine);  // where SimGrid reports a deadlock

namespace sg4 = simgrid::s4u;

namespace ringsim::sim {

// SimGrid's argv: the program name, the config's log settings, then the command line's options
// (a later --log wins, so the command line's do).
static std::vector<std::string> engine_arguments(const RunConfig& cfg, int argc, char** argv) {
  std::vector<std::string> args{argc > 0 ? argv[0] : "ringsim"};
  for (const auto& l : cfg.simgrid_log) args.push_back("--log=" + l);
  for (int k = 1; k < argc; ++k) args.emplace_back(argv[k]);
  return args;
}

// Whether the run's SimGrid log was asked for (--log= or the config's): it then streams as written,
// and is not held until the run ends (platform/abort_guard.hpp). One simulation per process.
static bool g_log_asked = false;
static bool log_asked(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(), [](const std::string& a) { return a.rfind("--log=", 0) == 0; });
}

// Every trace's multipliers, whatever their source (files, CSV, FTA, generated): outside
// [kLeastMultiplier, kGreatestMultiplier] SimGrid's solver cannot resolve the host's work.
static void check_trace_multipliers(const std::vector<HostTrace>& traces) {
  for (const auto& t : traces)
    for (const auto& c : t.changes) check_multiplier(c.multiplier, "traces: host '" + t.host + "' speed multiplier");
}

// The run's costs are finite: a column's work, and the predicted iteration time built on it.
static void check_finite_costs(const RunSetup& s) {
  if (!(std::isfinite(s.flops_per_column) && s.flops_per_column > 0.0))
    throw InputError("the work of one column (ratio x the ring's mean column time x mean speed) is not a positive "
                     "finite number of flops: 'ratio' or the platform's speeds are out of range");
}

// SimGrid's own deadlock report (several CRITICAL and INFO lines) is replaced by ringsim's one
// line after the run (check_run_complete), unless the user asked for SimGrid's engine log.
static void quiet_deadlock_report() {
  if (!_XBT_LOGV(ker_engine).initialized) _xbt_log_cat_init(&_XBT_LOGV(ker_engine), xbt_log_priority_uninitialized);
  if (_XBT_LOGV(ker_engine).threshold >= xbt_log_priority_info)
    xbt_log_threshold_set(&_XBT_LOGV(ker_engine), xbt_log_priority_infinite);
}

// A run that ends before its last iteration did not simulate the application: SimGrid stopped
// because no activity could progress (a speed or bandwidth it cannot resolve, or members waiting
// for each other). Its makespan would be the iterations that ran, reported as a success.
// SimGrid stopped before the last iteration: the run did not simulate the application, and its
// makespan would be the iterations that ran. The platform's profiles that could stop it (a link's
// latency made infinite: what the checks before the run leave to SimGrid) are named.
static void check_run_complete(const RunOutputs& out, int iterations, bool deadlocked, double stopped_at,
                               const std::vector<std::string>& suspects) {
  const std::size_t done = out.iterations.size();
  if (done >= static_cast<std::size_t>(iterations) && !deadlocked) return;
  std::ostringstream os;
  os << "the simulation stopped at iteration " << done + 1 << " of " << iterations << " (t = " << stopped_at
     << " s, " << done << " completed): "
     << (deadlocked ? "SimGrid found no activity that can progress (deadlock)" : "the members stopped");
  if (suspects.empty()) {
    os << "; a speed or bandwidth too small (or a cost too large) for SimGrid to resolve?";
  } else {
    os << "; in the platform, ";
    for (std::size_t k = 0; k < suspects.size(); ++k) os << (k ? ", " : "") << suspects[k];
  }
  throw InputError(os.str());
}

// The links of the routes the run uses: each ring's neighbours both ways, and with rebuilds (whose
// columns move between old and new members) every pair of hosts that are ever members.
static std::set<std::string> links_used(const std::vector<sg4::Host*>& ring,
                                        const std::vector<std::vector<sg4::Host*>>& rebuilds) {
  std::set<std::string> used;
  auto add_route = [&used](const sg4::Host* a, const sg4::Host* b) {
    std::vector<sg4::Link*> links;
    double latency = 0.0;
    a->route_to(b, links, &latency);
    for (const auto* l : links) used.insert(l->get_name());
  };
  auto add_ring = [&](const std::vector<sg4::Host*>& hosts) {
    for (std::size_t i = 0; hosts.size() > 1 && i < hosts.size(); ++i) {
      add_route(hosts[i], hosts[(i + 1) % hosts.size()]);
      add_route(hosts[(i + 1) % hosts.size()], hosts[i]);
    }
  };
  add_ring(ring);
  if (rebuilds.empty()) return used;
  std::set<sg4::Host*> members(ring.begin(), ring.end());
  for (const auto& rr : rebuilds) members.insert(rr.begin(), rr.end());
  for (auto* a : members)
    for (auto* b : members)
      if (a != b) add_route(a, b);
  return used;
}

// A platform profile (one SimGrid applies itself) that stops a member or a link the run uses would
// stop the run, or abort SimGrid: a host turned off (its actors killed), a speed SimGrid cannot
// resolve, a link turned off (its messages fail) or below 1 B/s (0 B/s aborts SimGrid). Refused
// before the run, naming the host or link and the profile's file. Returned: what the end-of-run
// check names if SimGrid stops anyway (a link latency made infinite).
static std::vector<std::string> refuse_stopping_profiles(const platform::LoadedPlatform& lp,
                                                         const std::vector<sg4::Host*>& ring,
                                                         const std::vector<std::vector<sg4::Host*>>& rebuilds) {
  // Only an XML 4.1 file can hold profiles (ringsim's conversions write none).
  if (lp.format() != io::PlatformFormat::simgrid4) return {};
  const std::string& platform = lp.path();
  const std::vector<io::PlatformProfile>& profiles = io::platform_profiles(platform);
  if (profiles.empty()) return {};
  std::set<std::string> members;
  for (const auto* h : ring) members.insert(h->get_name());
  for (const auto& rr : rebuilds)
    for (const auto* h : rr) members.insert(h->get_name());
  const std::set<std::string> links = links_used(ring, rebuilds);
  constexpr double kHuge = std::numeric_limits<double>::max();
  auto refuse = [&](const io::PlatformProfile& p, const std::pair<double, double>& point, const char* why) {
    throw InputError(std::string(p.host ? "ring " : "ring route ") + io::describe(p, point) + " (platform '" +
                     platform + "'): " + why);
  };
  std::vector<std::string> suspects;
  for (const auto& p : profiles) {
    if (p.host && members.count(p.element)) {
      if (p.what == "state")
        if (const auto* at = io::first_outside(p, 1e-300, kHuge))
          refuse(p, *at, "SimGrid would kill its actors and stop the run; choose other hosts or remove the profile");
      if (p.what == "speed")
        if (const auto* at = io::first_outside(p, kLeastMultiplier, kHuge))
          refuse(p, *at, "speed multipliers below 1e-6 are more than SimGrid resolves");
    }
    if (!p.host && links.count(p.element)) {
      if (p.what == "state")
        if (const auto* at = io::first_outside(p, 1e-300, kHuge))
          refuse(p, *at, "the messages crossing it would fail; choose other hosts or remove the profile");
      if (p.what == "bandwidth")
        if (const auto* at = io::first_outside(p, 1.0, kHuge))
          refuse(p, *at, "ring links must keep a bandwidth of at least 1 B/s (SimGrid aborts at 0)");
      if (p.what == "latency")
        if (const auto* at = io::first_outside(p, 0.0, kHuge)) suspects.push_back(io::describe(p, *at));
    }
  }
  return suspects;
}

// The options are set after the Engine exists and before the platform is loaded.
static bool set_run_options(const RunConfig& cfg) {
  platform::apply_run_options(cfg.simgrid, cfg.network_model, io::platform_config_options(cfg.platform));
  platform::avoid_tracing_limits(cfg.platform);
  return true;
}

// A run's state, owned here. The actors are handed its parts, never the whole: the setup and the
// rings as const, the other parts by reference where they share and write them (run_state.hpp).
struct RunState {
  explicit RunState(AppSettings app) { setup.app = std::move(app); }
  RunSetup setup;              // written before the run only
  RingHistory rings;           // the initial ring; each rebuild appends its own
  ColumnTransfer staging;      // planned before the run, played by the stager
  RingMembers members;
  ColumnMoves moves;
  Decision decision;
  RingSync sync;
  RunOutputs out;
};

// Runs the members' actors (and the stager's) on the loaded platform until the run ends, the
// traces that follow the clock attached as speed profiles; the makespan. SimGrid's clock cannot be
// reset: one call per process.
static double simulate_to_end(RunState& run, const RunConfig& cfg, sg4::Engine& engine, platform::LoadedPlatform& lp,
                              const std::vector<std::string>& suspects) {
  const RunSetup& setup = run.setup;
  const RingShape& ring = run.rings.front();
  bool deadlocked = false;
  try {
    // Profiles are attached before Engine::run (attaching later raises a false deadlock); traces
    // placed by iteration are applied by the members (execute_in_iteration), the host at its peak.
    // With the platform's own profiles, SimGrid attached them at load (a second one would abort).
    bool speeds_change = lp.may_hold_speed_profiles();
    if (cfg.traces.source != TraceSource::platform)
      for (const auto& t : setup.all_traces)
        if (!placed_by_iteration(setup, t) && !t.changes.empty()) {
          engine.host_by_name(t.host)->set_speed_profile(simgrid::kernel::profile::ProfileBuilder::from_string(
              "speed-" + t.host, speed_profile_text(t, setup.iteration_time0, setup.time_origin), -1));
          speeds_change = true;
        }
    platform::refuse_untraceable_speed_changes(speeds_change);
    declare_phases();
    if (cfg.staging.enabled)
      sg4::Actor::create("stager", run.staging.senders.front(),
                         Stager(setup, run.staging, run.members, run.moves, run.sync, run.out));
    for (std::size_t i = 0; i < ring.n; ++i)
      sg4::Actor::create("member-" + std::to_string(i), ring.hosts[i],
                         RingMember(setup, ring, i, 1, run.rings, run.members, run.sync, run.decision, run.moves,
                                    run.out));
    sg4::Engine::on_deadlock_cb([&deadlocked] { deadlocked = true; });
    quiet_deadlock_report();
    const platform::AbortGuard guard("SimGrid stopped the run", !g_log_asked);
    engine.run();
  } catch (const simgrid::TracingError& e) {
    throw InputError(platform::tracing_limit(e.what()));
  }
  if (run.out.failure) std::rethrow_exception(run.out.failure);
  check_run_complete(run.out, setup.app.iterations, deadlocked, sg4::Engine::get_clock(), suspects);
  return run.out.iterations.empty() ? 0.0 : run.out.iterations.back().end;
}

// With --log=ringsim_app.thres:verbose: the model's clock at each iteration's end along the
// reference's points, to set beside iterations.csv where the reference's prediction misses.
static void log_model_timeline(const points::RunModel& model, const policy::ReferencePlan& plan) {
  if (!XBT_LOG_ISENABLED(ringsim_app, xbt_log_priority_verbose) || !plan.point_loads.empty()) return;
  const std::vector<double> ends = points::predicted_iteration_ends(model, plan.points);
  for (std::size_t k = 0; k < ends.size(); ++k) XBT_VERB("reference model: iteration %zu ends at %.17g s", k + 1, ends[k]);
}

struct LoadedSimulation::State {
  std::vector<std::string> args;  // SimGrid keeps argv for the Engine's lifetime
  std::vector<char*> argv;
  int argc = 0;
  sg4::Engine engine;
  bool options_set;
  platform::PajeTraceFile paje_trace;  // after the options, before the platform (SimGrid opens it when loading)
  platform::LoadedPlatform lp;
  static std::vector<char*> pointers(std::vector<std::string>& args) {
    std::vector<char*> p;
    for (auto& a : args) p.push_back(a.data());
    p.push_back(nullptr);
    return p;
  }
  State(const RunConfig& cfg, int* argc0, char** argv0)
      : args(engine_arguments(cfg, *argc0, argv0)),
        argv(pointers(args)),
        argc(static_cast<int>(args.size())),
        engine((quiet_application_log(), &argc), argv.data()),
        options_set(set_run_options(cfg)),
        lp(engine, cfg.platform) {
    g_log_asked = log_asked(args);
  }
  static void quiet_application_log() {
    // The application's lines are asked for (--log=ringsim_app.thres:info or debug); stdout is JSON.
    xbt_log_control_set("ringsim_app.thres:warning");
  }
};

// What the application needs of the config (sim/run_state.hpp), read here once; the rebuilds with
// the rings chosen for them.
static AppSettings app_settings(const RunConfig& cfg, std::vector<std::vector<sg4::Host*>> rebuild_rings) {
  AppSettings s;
  s.iterations = cfg.iterations;
  s.columns = cfg.columns;
  s.column_bytes = 8.0 * cfg.rows;
  s.report_bytes = cfg.report_bytes;
  s.decision_flops = cfg.decision_flops;
  // Not the scheme: the one the run plays is known once the run is set up (a reference plans on the
  // set-up), and start_playing sets it.
  s.planner = cfg.algorithm;
  s.targets = cfg.targets;
  s.trace_placement = cfg.traces.placement;
  for (std::size_t k = 0; k < cfg.rebuild.size(); ++k) {
    const RebuildConfig& rb = cfg.rebuild[k];
    s.rebuilds[rb.after] = Rebuild{k, std::move(rebuild_rings[k]), rb.k, rb.beta, rb.algorithm, rb.overlap};
  }
  return s;
}

LoadedSimulation::LoadedSimulation(const RunConfig& cfg, int* argc, char** argv)
    : state_(std::make_unique<State>(cfg, argc, argv)), platform_(cfg.platform), network_(cfg.network_model),
      options_(cfg.simgrid), log_(cfg.simgrid_log) {}

LoadedSimulation::~LoadedSimulation() = default;

RunResult run_simulation(const RunConfig& cfg, int* argc, char** argv, const SimulationOptions& opt) {
  LoadedSimulation loaded(cfg, argc, argv);
  try {
    return run_simulation(cfg, loaded, opt);
  } catch (...) {
    // The Engine goes with `loaded`, its actors still there: SimGrid's warning about them would add
    // a line to the one that says what went wrong.
    xbt_log_control_set("ker_engine.thres:critical");
    throw;
  }
}

// The initial ring's mean cost of a column to a neighbour and mean peak speed: the ratio's terms.
struct RingMeans {
  double column_time = 1.0;  // 1 on a ring of one member, which sends no column
  double speed = 0.0;
};

static RingMeans ring_means(const RingShape& ring) {
  const std::size_t n = ring.n;
  double mean_cost = 0.0, mean_speed = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    mean_cost += (ring.cost_next[i] + ring.cost_prev[i]) / (2.0 * static_cast<double>(n));
    mean_speed += ring.peak[i] / static_cast<double>(n);
  }
  return {n > 1 ? mean_cost : 1.0, mean_speed};
}

// The initial ring as simulated, and a column's work from the ratio on it (setup.flops_per_column).
static RingShape initial_ring(const RunConfig& cfg, RunSetup& setup, const std::vector<sg4::Host*>& ring,
                              const PlannedRing& planned, RingMeans& means) {
  RingShape first = ring_shape(setup, ring, 1);
  means = ring_means(first);
  // ratio = (one column on the ring's mean speed) / (one column over the mean neighbour path), on
  // the ring as simulated, whichever way it was chosen; a planned ring keeps its bandwidth shares.
  setup.flops_per_column = cfg.ratio * means.column_time * means.speed;
  if (cfg.ring.selection == RingSelection::planner && first.n > 1) {
    first.rate_next = planned.succ_bw;
    first.rate_prev = planned.pred_bw;
    first.routes = neighbour_routes(setup, first);  // the shares bound the border transfers
    platform::let_rate_caps_bind();  // the shares bind on routes with latency too
  }
  return first;
}

// The columns' first places: the balance for the initial ring's peak speeds, held from the start or
// staged in from the storage cluster; the initial loads.
static std::vector<Count> place_initial_columns(const RunConfig& cfg, const sg4::Engine& engine, RunState& run) {
  RunSetup& setup = run.setup;
  const RingShape& ring0 = run.rings.front();
  start_ring(ring0, run.members, run.sync);
  check_finite_costs(setup);
  const auto initial = redistribution::balanced_targets(ring0.peak, cfg.columns);
  const auto intervals = consecutive_intervals(initial, 0, cfg.columns);
  if (cfg.staging.enabled) {
    run.staging = plan_staging(cfg.staging, engine, setup, ring0, intervals);
    setup.time_origin = run.staging.schedule.time;
    expect_columns(run.members, run.moves, intervals, cfg.staging.overlap);
  } else {
    for (std::size_t i = 0; i < ring0.n; ++i)
      for (long c : columns_of(intervals[i], cfg.columns)) run.members.states[i].columns.push_back(c);
  }
  setup.iteration_time0 = predicted_tstep(setup, ring0, initial, ring0.peak);
  run.members.known.loads.assign(initial.begin(), initial.end());
  return initial;
}

// The scheme the run plays: the config's, or for a reference (policy/registry.hpp) the fixed
// scheme of the points it plans on the set-up, or the faster fixed scheme its check simulated
// (src/sim/reference_check.hpp; not for a run only set up).
static SimulatedScheme scheme_to_play(const RunConfig& cfg, const RunState& run, const std::vector<Count>& initial,
                                      const RunToEnd& run_to_end, const platform::PajeTraceFile& paje_trace, bool setup_only,
                                      RunResult& res) {
  const policy::SchemeEntry* reference = policy::reference_scheme(cfg.scheme.name);
  if (!reference) return {cfg.scheme.name, {}};
  policy::check_scheme_fits(cfg, "config");
  const RingShape& ring0 = run.rings.front();
  const points::RunModel model = reference_run_model(run.setup, ring0, initial);
  const bool checked = reference->checked_in_simulation && !setup_only;
  std::optional<FixedSchemeChecks> fixed;
  if (checked) fixed.emplace(cfg.reference_check, run.setup.app.iterations, run_to_end, paje_trace);
  const policy::ReferencePlan plan = reference->plan(reference_input(run.setup, ring0, cfg, model), res);
  log_model_timeline(model, plan);
  const SimulatedScheme own{policy::fixed_scheme_of(plan.points), plan.point_loads};
  if (!checked) return own;
  const SimulatedScheme kept = check_reference(run.setup.app.iterations, own, cfg.reference_check, run_to_end, *fixed,
                                               paje_trace, *res.hindsight);
  res.hindsight->simulated_as = kept.scheme;
  return kept;
}

// The set-up takes the scheme the run plays, and the members' policies start on it. Once a
// process: the run's own, or in a child, one scheme a reference's check simulates.
static void start_playing(RunState& run, const SimulatedScheme& s) {
  run.setup.app.scheme = s.scheme;
  run.setup.app.planned_point_loads = s.point_loads;
  start_policies(run.setup, run.rings.front(), 1, run.members);
}

// What the result says of the run's set-up: its ring, a column's work and size, the planner's ring,
// the SimGrid options in force (the Paje trace named as written).
static void record_setup(RunResult& res, const RunConfig& cfg, const RunState& run, const PlannedRing& planned,
                         const RingMeans& means, const std::string& paje_trace_name) {
  const RunSetup& setup = run.setup;
  for (auto* h : run.rings.front().hosts) res.ring.push_back(h->get_name());
  res.flops_per_column = setup.flops_per_column;
  res.realized_ratio = setup.flops_per_column / (means.column_time * means.speed);
  res.column_bytes = setup.app.column_bytes;
  res.initial_iteration_time = setup.iteration_time0;
  res.planned_tstep = planned.tstep;
  res.planned_ratio_rounds = planned.ratio_rounds;
  res.planned_ratio_converged = planned.ratio_converged;
  if (cfg.ring.selection == RingSelection::planner) res.ring_routing = to_string(planned.routing);
  res.simgrid_options = platform::options_in_force();
  for (auto& [name, value] : res.simgrid_options)
    if (name == "tracing/filename") value = paje_trace_name;
  res.network_model = platform::network_model_in_force(res.simgrid_options);
}

// What the result says of the run simulated: its redistribution points and their times, what each
// move earned, its iterations, the staging and the rebuilds, the SimGrid version.
static void record_run(RunResult& res, const RunConfig& cfg, RunState& run, const std::vector<Count>& initial) {
  for (const auto& p : run.out.points) {
    res.decision_time += p.transfers_start - p.decision_start;
    if (p.performed) {
      ++res.redistributions;
      res.transfer_time += p.simulated;
      res.predicted_transfer_time += p.predicted;
      res.planned_transfer_time += p.plan_time;
    }
  }
  for (const RingShape& r : run.rings) res.moves_share_links = res.moves_share_links || !r.routes.empty();
  add_move_earnings(run.setup, run.rings, initial, run.out.points, run.out.iterations);
  res.iterations = std::move(run.out.iterations);
  res.points = std::move(run.out.points);
  res.staged = cfg.staging.enabled;
  res.staging = std::move(run.out.staging);
  res.rebuilds = std::move(run.out.rebuilds);
  res.simgrid_version = std::to_string(SIMGRID_VERSION_MAJOR) + "." + std::to_string(SIMGRID_VERSION_MINOR);
  if (SIMGRID_VERSION_PATCH) res.simgrid_version += "." + std::to_string(SIMGRID_VERSION_PATCH);
}

RunResult run_simulation(const RunConfig& cfg, LoadedSimulation& loaded, const SimulationOptions& opt) {
  if (loaded.used_) throw std::logic_error("run_simulation: a loaded platform serves one run (fork before each)");
  if (cfg.platform != loaded.platform_ || cfg.network_model != loaded.network_ || cfg.simgrid != loaded.options_ ||
      cfg.simgrid_log != loaded.log_)
    throw std::logic_error("run_simulation: the run's platform or SimGrid options are not the loaded ones");
  loaded.used_ = true;
  sg4::Engine& engine = loaded.state_->engine;
  platform::LoadedPlatform& lp = loaded.state_->lp;
  if (cfg.staging.enabled && !lp.declared())
    throw InputError("staging needs a platform of one Full, Floyd or Dijkstra zone (the storage cluster joins it), "
                     "and '" + cfg.platform + "' has " + lp.why_no_model());
  ChosenRings rings = choose_run_rings(cfg, engine, lp);
  const PlannedRing& planned = rings.planned;

  const std::vector<sg4::Host*> ring = hosts_named(engine, rings.ring);
  const std::vector<std::string> suspects = refuse_stopping_profiles(lp, ring, rings.rebuilds);
  std::vector<SpeedAbovePeak> above_peak;
  std::vector<HostTrace> traces = traces_for(cfg, ring, rings.rebuilds, &above_peak);
  std::vector<std::string> trace_warnings = suspect_trace_lines(cfg);
  if (opt.strict && !trace_warnings.empty()) throw InputError(trace_warnings.front());
  if (const std::string w = platform::preset_override_warning(cfg.platform, cfg.network_model); !w.empty())
    trace_warnings.push_back(w);
  check_trace_multipliers(traces);
  RunState run(app_settings(cfg, std::move(rings.rebuilds)));
  RunSetup& setup = run.setup;
  run.out.record_computed_from = !opt.traces_dir.empty() && !opt.setup_only;
  setup.all_traces = std::move(traces);
  run.sync.mutex = sg4::Mutex::create();
  run.sync.column_arrived = sg4::ConditionVariable::create();
  RingMeans means;
  run.rings.push_back(initial_ring(cfg, setup, ring, planned, means));
  const std::vector<Count> initial = place_initial_columns(cfg, engine, run);

  RunResult res;
  const auto simulate = [&run, &cfg, &engine, &lp, &suspects] {
    return simulate_to_end(run, cfg, engine, lp, suspects);
  };
  // Each scheme a reference is checked against is simulated in a child, set up as the run itself.
  const RunToEnd run_to_end = [&run, &simulate](const SimulatedScheme& s) {
    start_playing(run, s);
    return simulate();
  };
  start_playing(run, scheme_to_play(cfg, run, initial, run_to_end, loaded.state_->paje_trace, opt.setup_only, res));

  record_setup(res, cfg, run, planned, means, loaded.state_->paje_trace.name());
  res.above_peak = std::move(above_peak);
  res.trace_warnings = std::move(trace_warnings);
  if (opt.setup_only) {
    if (!opt.traces_dir.empty()) write_traces(setup, run.rings.back(), run.out, opt.traces_dir, false);
    return res;
  }
  res.makespan = simulate();
  loaded.state_->paje_trace.finish();
  if (const std::string w = io::trace_span_warning(cfg, setup.all_traces, res.makespan - setup.time_origin); !w.empty())
    res.trace_warnings.push_back(w);
  if (res.hindsight && !res.hindsight->checked.empty() && res.makespan != kept_makespan(*res.hindsight))
    throw std::logic_error("the scheme a reference's check kept, simulated again, gave another makespan");
  res.ideal_time = ideal_time(setup, run.rings);
  if (!opt.traces_dir.empty()) write_traces(setup, run.rings.back(), run.out, opt.traces_dir, true);
  record_run(res, cfg, run, initial);
  return res;
}

}  // namespace ringsim::sim
