// `ringsim simulate CONFIG`: one run of the iterative application (one SimGrid simulation per
// process). The no-redistribution baseline that normalizes the run is simulated in a child
// process (fork before any Engine exists), since SimGrid cannot run two simulations in one process.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <xbt/log.h>

#include "cli/command_table.hpp"
#include "cli/commands.hpp"
#include "cli/memory_option.hpp"
#include "io/process.hpp"
#include "model/run_config.hpp"
#include "io/run_config_json.hpp"
#include "sweep/run_files.hpp"
#include "sweep/run_output.hpp"
#include "io/files.hpp"
#include "io/json_input.hpp"
#include "io/paper_platform.hpp"
#include "model/errors.hpp"
#include "model/run_memory.hpp"
#include "policy/registry.hpp"
#include "sim/ring_simulation.hpp"
#include "platform/simgrid_options.hpp"

namespace ringsim::cli {

namespace {

// The value the run gives a SimGrid option: the command line's last --cfg=name:value (one --cfg may
// hold several, space-separated), else the config's "simgrid" object, else `fallback`.
std::string option_value(const RunConfig& cfg, const std::vector<std::string>& extras, const std::string& name,
                         const std::string& fallback) {
  std::string value = fallback;
  for (const auto& [key, v] : cfg.simgrid)
    if (key == name) value = v;
  for (const auto& arg : extras) {
    if (arg.rfind("--cfg=", 0) != 0) continue;
    std::istringstream settings(arg.substr(6));
    for (std::string setting; settings >> setting;)
      if (setting.rfind(name + ":", 0) == 0) value = setting.substr(name.size() + 1);
  }
  return value;
}

// The Paje trace a traced run writes (empty when the run is not traced): one of its outputs.
std::string paje_trace_file(const RunConfig& cfg, const std::vector<std::string>& extras) {
  if (!platform::option_is_true(option_value(cfg, extras, "tracing", "no"))) return "";
  return option_value(cfg, extras, "tracing/filename", "simgrid.trace");
}

// One note naming the profile files whose hosts' names were escaped (io::file_name_of,
// docs/traces.md), so that each host's file can be found; empty when every host name is its own
// file name. Names are shown as JSON strings: the note stays one line.
std::string escaped_profiles_note(const RunResult& res, const std::string& dir) {
  std::vector<std::string> hosts = res.ring;
  for (const auto& r : res.rebuilds) hosts.insert(hosts.end(), r.receivers.begin(), r.receivers.end());
  std::set<std::string> seen;
  std::string listed;
  std::size_t escaped = 0;
  for (const auto& h : hosts) {
    const std::string file = io::file_name_of(h);
    if (!seen.insert(h).second || file == h) continue;
    if (++escaped <= 3) listed += (escaped > 1 ? ", " : "") + nlohmann::json(h).dump() + " in " + file + ".profile";
  }
  if (escaped == 0) return "";
  return "ringsim: note: " + std::to_string(escaped) + " host name(s) escaped in the profile file names of " + dir +
         "/ (docs/traces.md): " + listed + (escaped > 3 ? ", ..." : "");
}

// simulate --help's footer: the SimGrid options, the config's keys and the run's limits.
std::string simulate_footer() {
  return "SimGrid options: --cfg=name:value and --log=category.thres:level, as in any SimGrid program, win over\n"
         "the config's \"simgrid\": {\"name\": value, ...} and \"simgrid_log\": [...], which win over network_model;\n"
         "--help-cfg (or --cfg=help), --log=help, --help-log-categories, --help-models, --help-tracing print\n"
         "SimGrid's help. Paje traces: --cfg=tracing:yes (ringsim turns tracing/platform on\n"
         "with it), --cfg=tracing/actor:yes, --cfg=tracing/filename:run.trace; application log:\n"
         "--log=ringsim_app.thres:info (decisions, moves) or :debug (every iteration).\n"
         "Config keys: platform (any file SimGrid loads, .tiers, 2005 XML), ring {size, selection: random|hosts|planner,\n"
         "hosts, method, seed, routing: auto|free|platform, candidates} (rings only of hosts that reach their\n"
         "neighbours both ways, checked before the run), rows, columns,\n"
         "iterations, ratio, scheme (" + policy::scheme_syntaxes() + "),\n"
         "algorithm, targets (oracle|measured), traces {seed, source: measured|factor, factor, windows} or\n"
         "{source: files, profiles: {host: file.profile, ...} | csv: file.csv (host,time|iteration,speed flop/s),\n"
         "default: refuse|constant (members without a trace: exit 2, or their peak speed)} or {source: platform}\n"
         "(the platform's own speed_file profiles; not with staging) or {seed, source: random-walk, step, low,\n"
         "high, every} or {seed, source: on-off, available, loaded, load_factor, durations:\n"
         "geometric|pareto|weibull|hyperexponential, shape (pareto, weibull), cv (hyperexponential)} or {seed,\n"
         "source: daily, period (iterations per day), low, high, noise,\n"
         "correlation, phase: random|iterations, every} (a day/night cosine per host plus AR(1) noise, clipped to\n"
         "[low, high])\n"
         "or {source: fta, file (a Failure Trace Archive event_trace file, tab-separated), nodes: {host: node_id}\n"
         "(default: the file's nodes to the members in ring order), unavailable_multiplier (0.01), time_scale\n"
         "(seconds of trace per simulated second, 1)}\n"
         "(trace files are found beside the config). No source: measured (the 2004 machine list) on\n"
         "the paper's platform only, factor on any other. Trace speeds above the host's peak are kept, with\n"
         "one warning line and speeds_above_peak. A host of a trace file that the platform lacks is exit 2\n"
         "(hosts of the platform outside the ring: unused); a change past the last iteration, or a speed\n"
         "below 0.001 of the host's peak, is one warning line each (exit 2 with --strict).\n"
         "The result states trace_source and speeds_from_2004_machine_list. Changes given by iteration take\n"
         "effect per traces.placement: iteration (default: a change at iteration k slows iteration k, however\n"
         "iterations stretch) | nominal-time (at k * the first iteration's predicted time, as a SimGrid profile),\n"
         "network_model (linear|lv08), decision_flops, report_bytes, baseline,\n"
         "staging {nodes, node_bandwidth, node_latency, backbone_bandwidth, backbone_latency, gateway, k, beta,\n"
         "algorithm: ggp|oggp|greedy|all-at-once, overlap} (the matrix staged from a storage cluster with a KPBS\n"
         "schedule), rebuild [{after, size, seed | hosts, k, beta, algorithm, overlap}, ...] (the ring moved to\n"
         "other processors, columns handed over with a KPBS schedule). k 0 (default): derived from the routes.\n"
         "Limits: the run's memory, estimated from its sizes before it starts (10 bytes per column,\n"
         "112 + 8 * members bytes per iteration, 32 bytes per pair of staging nodes), <= --max-memory GB\n"
         "(default " + format_bytes(kDefaultMemoryBudgetBytes) + ")" +
         ";\na ring's size <= columns and <= the platform's hosts that reach each other; an input file (or\n"
         "standard input) <= 512 MiB (RINGSIM_MAX_INPUT_BYTES lowers it).";
}

// The makespan of the run's no-redistribution baseline, simulated in a child: the same platform,
// ring, traces and ratio, never redistributing, and not traced (the run's trace is the run's).
double simulated_baseline(const RunConfig& cfg, const std::vector<std::string>& extras, bool strict) {
  RunConfig none = cfg;
  none.scheme.name = policy::kBaselineScheme;
  none.baseline = false;
  for (auto& [name, value] : none.simgrid)
    if (name == "tracing") value = "no";
  const bool traced_here = std::any_of(extras.begin(), extras.end(), [](const std::string& a) {
    return a.rfind("--cfg=tracing:", 0) == 0 || a.find(" tracing:") != std::string::npos;
  });
  return io::ChildValue(
             [&] {
               std::vector<std::string> untraced = extras;
               if (traced_here) untraced.push_back("--cfg=tracing:no");
               io::EngineArgs child_args(untraced);
               // Strict: a suspect trace line refuses here, before any simulated second.
               sim::SimulationOptions strict_only;
               strict_only.strict = strict;
               return sim::run_simulation(none, &child_args.argc, child_args.argv.data(), strict_only).makespan;
             },
             "baseline simulation")
      .get();
}

}  // namespace

void add_simulate_command(CLI::App* cmd) {
  cmd->footer(simulate_footer());
  cmd->allow_extras();
  auto config = std::make_shared<std::string>();
  auto iterations_csv = std::make_shared<std::string>();
  auto no_baseline = std::make_shared<bool>(false);
  auto out = std::make_shared<std::string>();
  auto traces_dir = std::make_shared<std::string>();
  cmd->add_option("CONFIG", *config, "run configuration (JSON)")->required();
  cmd->add_option("--iterations-csv", *iterations_csv, "write one CSV row per iteration to this file");
  cmd->add_flag("--no-baseline", *no_baseline, "do not simulate the no-redistribution baseline");
  cmd->add_option("--traces-dir", *traces_dir, "after the run, write the speed profiles and traces.csv there (times as simulated)");
  cmd->add_option("--out", *out, "write the JSON summary to this file (atomically) instead of stdout");
  auto strict = add_strict_option(cmd);
  auto max_memory = add_max_memory_option(cmd);
  cmd->callback([cmd, config, iterations_csv, no_baseline, out, traces_dir, strict, max_memory] {
    RunConfig cfg = sweep::read_simulate_config(*config);
    check_run_memory(cfg, *max_memory * 1e9, "'" + *config + "'");
    if (*no_baseline) cfg.baseline = false;
    const std::vector<std::string> extras = cmd->remaining();
    io::refuse_shared_outputs({{"--out", *out},
                               {"--iterations-csv", *iterations_csv},
                               {"--traces-dir", *traces_dir, true},
                               {"the Paje trace (tracing/filename)", paje_trace_file(cfg, extras)}});
    io::refuse_unwritable_output(*out, *traces_dir);
    io::refuse_unwritable_output(*iterations_csv, *traces_dir);
    io::EngineArgs args(extras);  // rejects stray arguments before any simulation starts
    platform::check_simgrid_setup(cfg, extras);
    xbt_log_control_set("xbt_cfg.thres:warning");
    double baseline = 0.0;
    sim::SimulationOptions opt;
    opt.traces_dir = *traces_dir;
    opt.strict = *strict;
    // A run that never redistributes is its own baseline.
    const bool normalize = cfg.baseline && policy::scheme_redistributes(cfg.scheme.name, cfg.iterations, *config);
    if (normalize) baseline = simulated_baseline(cfg, extras, opt.strict);
    const RunResult res = sim::run_simulation(cfg, &args.argc, args.argv.data(), opt);
    if (!cfg.baseline) baseline = 0.0;
    else if (!normalize) baseline = res.makespan;  // scheme none is its own baseline
    sweep::write_simulate_outputs(cfg, res, baseline, *out, *iterations_csv);
    if (const std::string note = escaped_profiles_note(res, *traces_dir); !traces_dir->empty() && !note.empty())
      std::cerr << note << '\n';
  });
}

void add_traces_command(CLI::App* cmd) {
  cmd->footer("Each ring member's speed changes once per window (default iterations [20,40] and [60,80]), or\n"
              "follows the config's traces source (files, fta, random-walk, on-off, daily; see simulate --help);\n"
              "nothing is simulated, so times are predicted: a change at iteration k at the predicted start of\n"
              "iteration k (initial plan's loads, each iteration at the speeds the traces give it), or, with\n"
              "traces.placement nominal-time, at k * the initial plan's predicted iteration time; periodic\n"
              "profiles are listed up to the nominal end (iterations * that time). `simulate --traces-dir`\n"
              "writes the times of the run instead. Writes DIR/<host>.profile (SimGrid speed profile: 'time\n"
              "multiplier' lines) and DIR/traces.csv.");
  cmd->allow_extras();
  auto config = std::make_shared<std::string>();
  auto dir = std::make_shared<std::string>("traces");
  cmd->add_option("CONFIG", *config, "run configuration (JSON), as for simulate")->required();
  cmd->add_option("-o,--out", *dir, "output directory (default traces/)");
  auto strict = add_strict_option(cmd);
  auto max_memory = add_max_memory_option(cmd);
  cmd->callback([cmd, config, dir, strict, max_memory] {
    const RunConfig cfg = sweep::read_simulate_config(*config);
    check_run_memory(cfg, *max_memory * 1e9, "'" + *config + "'");
    io::EngineArgs args(cmd->remaining());
    platform::check_simgrid_setup(cfg, cmd->remaining());
    xbt_log_control_set("xbt_cfg.thres:warning");
    sim::SimulationOptions opt;
    opt.traces_dir = *dir;
    opt.setup_only = true;
    opt.strict = *strict;
    const RunResult res = sim::run_simulation(cfg, &args.argc, args.argv.data(), opt);
    if (const std::string w = sweep::above_peak_warning(res); !w.empty()) std::cerr << "ringsim: warning: " << w << '\n';
    for (const auto& w : res.trace_warnings) std::cerr << "ringsim: warning: " << w << '\n';
    std::cerr << "ringsim: " << res.ring.size() << " speed profiles and traces.csv written to " << *dir << "/\n";
    if (const std::string note = escaped_profiles_note(res, *dir); !note.empty()) std::cerr << note << '\n';
  });
}

}  // namespace ringsim::cli
