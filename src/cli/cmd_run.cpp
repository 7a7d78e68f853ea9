// `ringsim run EXPERIMENT.json`: a sweep, one simulation process per run (forked from its platform
// loaded once), --jobs of them at a time. Resumable: a run whose result.json exists is kept and
// skipped; every file is written atomically, so an interrupted sweep loses nothing and leaves
// nothing half-written.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiments/cluster_scripts.hpp"
#include "cli/command_table.hpp"
#include "cli/commands.hpp"
#include "policies/registry.hpp"
#include "io/process.hpp"
#include "experiments/sweep_workers.hpp"
#include "platform/platform_reader.hpp"
#include "platform/reachable_hosts.hpp"
#include "platform/simgrid_options.hpp"
#include "io/run_config_json.hpp"

#include <simgrid/s4u/Engine.hpp>
#include "experiments/experiment.hpp"
#include "io/files.hpp"
#include "io/json_input.hpp"
#include "model/errors.hpp"

#ifndef RINGSIM_SOURCE_DIR
#define RINGSIM_SOURCE_DIR "."
#endif

namespace ringsim::cli {
namespace {

namespace fs = std::filesystem;

struct RunPaths {
  fs::path dir, config, result, iterations, log;
};

RunPaths paths_of(const fs::path& out, const ExperimentRun& run) {
  const fs::path dir = out / "runs" / run.id;
  return {dir, dir / "config.json", dir / "result.json", dir / "iterations.csv", dir / "log.txt"};
}

// The hosts of the largest set that reach each other both ways, asked of SimGrid in a child (this
// process runs no simulation and keeps no engine), once the hosts the runs name are found in it:
// one load of the platform checks every run before the first starts.
std::size_t usable_host_count(const std::string& platform, const std::vector<NamedHost>& named) {
  io::ChildValue count(
      [&] {
        auto& engine = sim::reading_engine();
        sim::LoadedPlatform lp(engine, platform);
        for (const auto& h : named)
          if (h.router_ok ? !engine.netpoint_by_name_or_null(h.name) : !engine.host_by_name_or_null(h.name))
            throw InputError(h.role + " '" + h.name + "' is not in platform '" + platform + "'");
        const auto sets = sim::reachable_sets(lp, lp.hosts());
        return sets.sets.empty() ? 0.0 : static_cast<double>(sets.sets.front().size());
      },
      "reading platform '" + platform + "'");
  return static_cast<std::size_t>(count.get());
}

std::vector<std::string> simulate_args(const std::string& exe, const RunPaths& p, const std::vector<std::string>& logs) {
  std::vector<std::string> args{exe, "simulate", p.config.string(), "--no-baseline", "--out", p.result.string(),
                                "--iterations-csv", p.iterations.string()};
  args.insert(args.end(), logs.begin(), logs.end());
  return args;
}

// The sweep's --cfg=name:value[,name:value...] as (name, value) pairs, as SimGrid splits them.
std::vector<std::pair<std::string, std::string>> cfg_options(const std::vector<std::string>& extras) {
  std::vector<std::pair<std::string, std::string>> options;
  for (const auto& e : extras) {
    if (e.rfind("--cfg=", 0) != 0) continue;
    std::string list = e.substr(6);
    for (auto& c : list)
      if (c == ',' || c == '\t' || c == '\n') c = ' ';
    std::istringstream words(list);
    for (std::string w; words >> w;) {
      const auto colon = w.find(':');
      if (colon == std::string::npos || colon == 0)
        throw InputError("'" + e + "': SimGrid options are --cfg=name:value (ringsim --help-cfg lists them)");
      options.emplace_back(w.substr(0, colon), w.substr(colon + 1));
    }
  }
  return options;
}

// Each run gets the sweep's --cfg options in its config ("simgrid", over the experiment's own), so
// that its config.json says what ran and a resumed sweep reruns what they changed. A traced run
// writes its trace in its own folder (the file name the user gave, or simgrid.trace).
void add_command_line_options(Experiment& e, const fs::path& out,
                              const std::vector<std::pair<std::string, std::string>>& options) {
  for (auto& run : e.runs) {
    nlohmann::json& cfg = run.config;
    if (!options.empty() && !cfg.contains("simgrid")) cfg["simgrid"] = nlohmann::json::object();
    for (const auto& [name, value] : options) cfg["simgrid"][name] = value;
    if (!cfg.contains("simgrid") || !cfg["simgrid"].is_object() || !cfg["simgrid"].contains("tracing")) continue;
    const auto& t = cfg["simgrid"]["tracing"];
    const std::string on = t.is_string() ? t.get<std::string>() : t.dump();
    if (!sim::option_is_true(on)) continue;
    std::string file = "simgrid.trace";
    if (cfg["simgrid"].contains("tracing/filename") && cfg["simgrid"]["tracing/filename"].is_string())
      file = fs::path(cfg["simgrid"]["tracing/filename"].get<std::string>()).filename().string();
    cfg["simgrid"]["tracing/filename"] = fs::absolute(paths_of(out, run).dir / file).lexically_normal().string();
  }
}

// SimGrid's word on every distinct setup of the sweep (options, log settings, network preset),
// before any run starts.
void check_simgrid_setups(const Experiment& e, const std::string& where, const std::vector<std::string>& logs) {
  std::set<std::string> seen;
  for (const auto& run : e.runs) {
    const RunConfig cfg = parse_run_config(run.config, where + " run " + run.id);
    std::string key = std::string(to_string(cfg.network));
    for (const auto& [n, v] : cfg.simgrid_options) key += '\n' + n + ':' + (n == "tracing/filename" ? "" : v);
    for (const auto& l : cfg.simgrid_log) key += "\nlog " + l;
    if (!seen.insert(key).second) continue;
    try {
      sim::check_simgrid_setup(cfg, logs);
    } catch (const InputError& err) {
      throw InputError(where + " run " + run.id + ": " + err.what());
    }
  }
}

class Progress {
 public:
  explicit Progress(std::size_t total) : total_(total), tty_(isatty(STDERR_FILENO)), t0_(clock::now()) {}
  void update(std::size_t done, std::size_t failed, std::size_t skipped) {
    const double elapsed = std::chrono::duration<double>(clock::now() - t0_).count();
    const std::size_t ran = done - skipped;
    const double eta = ran > 0 ? elapsed / static_cast<double>(ran) * static_cast<double>(total_ - done) : 0.0;
    const int width = 30;
    const int fill = total_ ? static_cast<int>(width * done / total_) : width;
    char line[200];
    std::snprintf(line, sizeof line, "[%s%s] %zu/%zu runs, %zu failed, %zu kept, %.0fs elapsed, ETA %.0fs",
                  std::string(static_cast<std::size_t>(fill), '#').c_str(),
                  std::string(static_cast<std::size_t>(width - fill), '.').c_str(), done, total_, failed, skipped,
                  elapsed, eta);
    if (tty_) {
      std::cerr << '\r' << line << std::flush;
    } else if (done == total_ || done * 10 / std::max<std::size_t>(total_, 1) != last_decile_) {
      std::cerr << line << '\n';
      last_decile_ = done * 10 / std::max<std::size_t>(total_, 1);
    }
  }
  void finish() {
    if (tty_) std::cerr << '\n';
  }

 private:
  using clock = std::chrono::steady_clock;
  std::size_t total_;
  bool tty_;
  clock::time_point t0_;
  std::size_t last_decile_ = 0;
};

void write_configs(const Experiment& e, const fs::path& out) {
  for (const auto& run : e.runs) {
    const RunPaths p = paths_of(out, run);
    fs::create_directories(p.dir);
    const std::string text = run.config.dump(1) + "\n";
    // Unchanged configs are not rewritten: a resumed sweep leaves finished runs untouched.
    if (fs::exists(p.config) && io::read_text(p.config.string()) == text) continue;
    if (fs::exists(p.result)) fs::remove(p.result);  // a changed config invalidates its result
    io::write_file_atomically(p.config.string(), text);
  }
}

// Runs what has no result yet, at most `jobs` at a time, each forked from its platform loaded
// once (cli/sweep_workers.hpp).
struct Failures {
  std::size_t count = 0, bad_input = 0;  // runs that failed; of them, those whose input was refused
};

Failures execute(const Experiment& e, const fs::path& out, int jobs, const std::vector<std::string>& logs) {
  std::vector<SweepRun> runs;
  std::vector<std::size_t> pending;
  std::size_t kept = 0;
  for (std::size_t k = 0; k < e.runs.size(); ++k) {
    const RunPaths p = paths_of(out, e.runs[k]);
    runs.push_back({p.config.string(), p.result.string(), p.iterations.string(), p.log.string()});
    if (fs::exists(p.result)) ++kept; else pending.push_back(k);
  }
  Progress progress(e.runs.size());
  std::size_t done = kept;
  Failures failed;
  progress.update(done, failed.count, kept);
  run_sweep(runs, pending, jobs, logs, [&](std::size_t k, int status) {
    if (status != 0) {
      ++failed.count;
      failed.bad_input += status == 2;
      std::cerr << (isatty(STDERR_FILENO) ? "\n" : "") << "ringsim: run " << e.runs[k].id << " failed, see "
                << runs[k].log << '\n';
    }
    ++done;
    progress.update(done, failed.count, kept);
  });
  progress.finish();
  return failed;
}

// The source tree's commit, read when the summary is written (a SHA baked in at configure time
// goes stale with the next commit); "-dirty" when the tree has uncommitted changes.
std::string git_sha() {
  auto run = [](const std::string& cmd) {
    std::string text;
    if (FILE* p = popen(cmd.c_str(), "r")) {
      char buf[256];
      while (fgets(buf, sizeof buf, p)) text += buf;
      pclose(p);
    }
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text;
  };
  const std::string git = "git -C '" RINGSIM_SOURCE_DIR "' ";
  std::string sha = run(git + "rev-parse HEAD 2>/dev/null");
  if (sha.empty()) return "unknown";
  if (!run(git + "status --porcelain --untracked-files=no 2>/dev/null").empty()) sha += "-dirty";
  return sha;
}

// runs.csv, iterations.csv and summary.json from whatever results exist.
void merge(const Experiment& e, const fs::path& out, bool quick) {
  std::vector<nlohmann::json> results(e.runs.size());
  std::string iterations;
  std::size_t present = 0;
  std::string simgrid_version;
  std::set<std::string> models, options;  // what the runs had in force
  for (std::size_t k = 0; k < e.runs.size(); ++k) {
    const RunPaths p = paths_of(out, e.runs[k]);
    if (!fs::exists(p.result)) continue;
    ++present;
    results[k] = nlohmann::json::parse(io::read_text(p.result.string()));
    simgrid_version = results[k].value("simgrid_version", "");
    models.insert(results[k].value("network_model", ""));
    nlohmann::json in_force = results[k].value("simgrid_options", nlohmann::json::object());
    in_force.erase("tracing/filename");  // each traced run writes its own
    options.insert(in_force.dump());
    if (fs::exists(p.iterations)) {
      std::istringstream in(io::read_text(p.iterations.string()));
      std::string line;
      bool header = true;
      while (std::getline(in, line)) {
        if (header) {
          if (iterations.empty()) iterations = "run_id," + line + "\n";
          header = false;
          continue;
        }
        iterations += e.runs[k].id + "," + line + "\n";
      }
    }
  }
  io::write_file_atomically((out / "runs.csv").string(), runs_csv(e, results));
  io::write_file_atomically((out / "iterations.csv").string(), iterations);
  // Which traces the runs used, from their configs (every canonical config names its source).
  std::set<std::string> sources;
  for (const auto& run : e.runs) sources.insert(run.config.at("traces").at("source").get<std::string>());
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(e.config_hash));
  // One value when every run had the same, else the list of the different ones.
  auto one_or_all = [](const std::set<std::string>& values, bool json) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& v : values) all.push_back(json ? nlohmann::json::parse(v) : nlohmann::json(v));
    return all.size() == 1 ? all.front() : all;
  };
  const nlohmann::json summary = {{"experiment", e.name},
                                  {"description", e.description},
                                  {"quick", quick},
                                  {"runs", e.runs.size()},
                                  {"runs_with_results", present},
                                  {"ringsim_version", RINGSIM_VERSION},
                                  {"git_sha", git_sha()},
                                  {"simgrid_version", simgrid_version},
                                  {"network_model", one_or_all(models, false)},
                                  {"simgrid_options", one_or_all(options, true)},
                                  {"config_hash_fnv1a64", hash},
                                  {"trace_sources", sources},
                                  {"speeds_from_2004_machine_list", sources.count("measured") > 0}};
  io::write_file_atomically((out / "summary.json").string(), summary.dump(1) + "\n");
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(std::string(kRun.name), std::string(kRun.summary));
  cmd->footer("Outputs in DIR: runs/<id>/{config.json,result.json,iterations.csv,log.txt}, runs.csv,\n"
              "iterations.csv, summary.json (provenance). --list prints one shell command per run not yet\n"
              "done (for GNU parallel, also with --sshlogin on a shared folder); --slurm SDIR writes a SLURM\n"
              "array job (SDIR/submit.sh submits it and the merge); then `ringsim run EXPERIMENT --merge\n"
              "--out DIR` builds the CSVs. Every run is checked before the first starts (one platform load): files,\n"
              "the hosts named (ring.hosts, rebuild hosts, staging gateway), ring sizes (with ring.hosts: its length).\n"
              "Trace files are found beside the experiment; seeds draw rings and generated traces, a files or\n"
              "platform traces source is the same in every run. summary.json: trace_sources,\n"
              "speeds_from_2004_machine_list.\n"
              "SimGrid options: --cfg=name:value goes into every run's config (\"simgrid\", over the experiment's own)\n"
              "and --log=... to every run; a traced run (--cfg=tracing:yes) writes runs/<id>/<tracing/filename's\n"
              "name, or simgrid.trace>. Both are checked by SimGrid before the first run (exit 2, one line).");
  auto experiment = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto jobs = std::make_shared<int>(1);
  auto quick = std::make_shared<bool>(false);
  auto list = std::make_shared<bool>(false);
  auto merge_only = std::make_shared<bool>(false);
  auto slurm = std::make_shared<std::string>();
  cmd->add_option("EXPERIMENT", *experiment, "experiment config (JSON)")->required();
  cmd->add_option("--out", *out, "output directory (default out/<name>[-quick])");
  cmd->add_option("--jobs,-j", *jobs, "simulations run at once")->check(CLI::Range(1, 1024));
  cmd->add_flag("--quick", *quick, "use the experiment's smaller 'quick' sweep");
  cmd->add_flag("--list", *list, "print one command per run instead of running");
  cmd->add_flag("--merge", *merge_only, "only merge existing results into the CSVs");
  cmd->add_option("--slurm", *slurm, "write a SLURM array job for the sweep into this folder instead of running");
  cmd->allow_extras();
  cmd->callback([=] {
    const std::vector<std::string> extras = cmd->remaining();
    io::EngineArgs checked(extras);  // only --cfg= and --log=, before anything else
    std::vector<std::string> logs;
    for (const auto& a : extras)
      if (a.rfind("--log=", 0) == 0) logs.push_back(a);
    const auto command_line_options = cfg_options(extras);
    Experiment e = load_experiment(*experiment, *quick, usable_host_count);
    for (const auto& run : e.runs) {  // schemes name policies of the simulation layer: all checked first
      try {
        policy::make_policy(run.scheme, run.config.at("iterations").get<int>());
      } catch (const InputError& err) {
        throw InputError("'" + *experiment + "' run " + run.id + ": " + err.what());
      }
    }
    const fs::path dir = out->empty() ? fs::path("out") / (e.name + (*quick ? "-quick" : "")) : fs::path(*out);
    add_command_line_options(e, dir, command_line_options);
    check_simgrid_setups(e, "'" + *experiment + "'", logs);
    fs::create_directories(dir);
    // One sweep per directory at a time; the lock dies with the process.
    const int lock = open((dir / ".lock").c_str(), O_RDWR | O_CREAT, 0644);
    if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) != 0)
      throw InputError("another 'ringsim run' is using '" + dir.string() + "'");
    write_configs(e, dir);
    const std::string exe = front_end_beside(io::self_executable());  // what users and jobs run
    const std::string merge_line = shell_line({exe, "run", fs::absolute(*experiment).string()}) +
                                   (*quick ? " --quick" : "") + " --merge --out " +
                                   shell_word(fs::absolute(dir).string());
    if (*list) {
      for (const auto& run : e.runs) {
        const RunPaths p = paths_of(dir, run);
        if (!fs::exists(p.result)) std::cout << shell_line(simulate_args(exe, p, logs)) << '\n';
      }
      std::cout << "# when all are done: " << merge_line << '\n';
      return;  // main() answers exit 2 when standard output cannot be written
    }
    if (!slurm->empty()) {
      std::vector<ClusterRun> runs;
      for (const auto& run : e.runs) {
        const RunPaths p = paths_of(fs::absolute(dir), run);
        runs.push_back({shell_line(simulate_args(exe, p, logs)), p.result});
      }
      write_slurm_job(*slurm, e.name, runs, merge_line);
      std::cerr << "ringsim: SLURM job for " << runs.size() << " runs in " << *slurm << " (submit with "
                << (fs::absolute(*slurm) / "submit.sh").string() << ")\n";
      return;
    }
    Failures failed;
    if (!*merge_only) failed = execute(e, dir, *jobs, logs);
    merge(e, dir, *quick);
    std::cerr << "ringsim: results in " << dir.string() << "/runs.csv\n";
    // Runs that refused their input make the sweep's input bad (exit 2); any other failure is 1.
    const std::string what = std::to_string(failed.count) + " run(s) failed (see their log.txt)";
    if (failed.count && failed.bad_input == failed.count) throw InputError(what);
    if (failed.count) throw std::runtime_error(what);
  });
}

}  // namespace ringsim::cli
