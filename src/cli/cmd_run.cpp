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
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/command_table.hpp"
#include "cli/commands.hpp"
#include "cli/memory_option.hpp"
#include "sweep/cluster_scripts.hpp"
#include "sweep/experiment.hpp"
#include "sweep/sweep_checks.hpp"
#include "sweep/sweep_files.hpp"
#include "sweep/sweep_workers.hpp"
#include "io/process.hpp"
#include "model/errors.hpp"

namespace ringsim::cli {
namespace {

namespace fs = std::filesystem;

// A budget other than the default goes with each run: the run is checked again where it runs.
std::vector<std::string> simulate_args(const std::string& exe, const sweep::RunPaths& p, const std::vector<std::string>& logs,
                                       double max_memory_gb, bool strict) {
  std::vector<std::string> args{exe, "simulate", p.config.string(), "--no-baseline", "--out", p.result.string(),
                                "--iterations-csv", p.iterations.string()};
  if (strict) args.emplace_back("--strict");
  if (max_memory_gb * 1e9 != kDefaultMemoryBudgetBytes) {
    char gb[32];
    std::snprintf(gb, sizeof gb, "%.17g", max_memory_gb);
    args.insert(args.end(), {"--max-memory", gb});
  }
  args.insert(args.end(), logs.begin(), logs.end());
  return args;
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

// Runs what has no result yet, at most `jobs` at a time, each forked from its platform loaded
// once (sweep/sweep_workers.hpp).
struct Failures {
  std::size_t count = 0, bad_input = 0;  // runs that failed; of them, those whose input was refused
};

Failures execute(const sweep::Experiment& e, const fs::path& out, int jobs, const std::vector<std::string>& logs) {
  std::vector<sweep::SweepRun> runs;
  std::vector<std::size_t> pending;
  std::size_t kept = 0, unfinished = 0;
  std::string first_unfinished;
  for (std::size_t k = 0; k < e.runs.size(); ++k) {
    const sweep::RunPaths p = sweep::paths_of(out, e.runs[k]);
    runs.push_back({p.config.string(), p.result.string(), p.iterations.string(), p.log.string()});
    if (sweep::finished_result(p)) {
      ++kept;
      continue;
    }
    pending.push_back(k);
    std::error_code error;
    if (fs::exists(p.result, error) && unfinished++ == 0) first_unfinished = p.result.string();
  }
  if (unfinished)
    std::cerr << "ringsim: " << unfinished << " result.json file(s) are not finished results (unreadable, cut or "
              << "incomplete; first '" << first_unfinished << "'): their runs run again\n";
  Progress progress(e.runs.size());
  std::size_t done = kept;
  Failures failed;
  progress.update(done, failed.count, kept);
  sweep::run_sweep(runs, pending, jobs, logs, [&](std::size_t k, int status) {
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

// The sweep's folder: created if need be, and refused in one line naming it when it cannot be (a
// file, a device, a read-only place, a loop of links).
void create_output_directory(const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir))
    throw InputError("--out '" + dir.string() + "' cannot be used as the sweep's folder" +
                     (error ? ": " + error.message() : std::string(": not a directory")));
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    throw InputError("--out '" + dir.string() + "' cannot be used as the sweep's folder: not writable");
}

// The sweep's names and paths go into the commands of --list and --slurm and into their scripts'
// lines (sweep/cluster_scripts.hpp): each is refused with a control character, as written there
// (absolute: the working directory's name counts too), in every mode, before anything names them.
void refuse_control_characters_in_paths(const std::string& experiment, const std::string& out,
                                        const std::string& slurm, const std::vector<std::string>& extras) {
  sweep::refuse_control_characters(fs::absolute(experiment).string(), "the experiment file");
  if (!out.empty()) sweep::refuse_control_characters(fs::absolute(out).string(), "--out");
  if (!slurm.empty()) sweep::refuse_control_characters(fs::absolute(slurm).string(), "--slurm");
  for (const auto& option : extras) sweep::refuse_control_characters(option, "the option");
}

}  // namespace

void add_run_command(CLI::App* cmd) {
  cmd->footer("Outputs in DIR: runs/<id>/{config.json,result.json,iterations.csv,log.txt}, runs.csv,\n"
              "iterations.csv, summary.json (provenance). --list prints one shell command per run not yet\n"
              "done (for GNU parallel, also with --sshlogin on a shared folder); --slurm SDIR writes a SLURM\n"
              "array job (SDIR/submit.sh submits it and the merge); then `ringsim run EXPERIMENT --merge\n"
              "--out DIR` builds the CSVs. Every run is checked before the first starts (one platform load): files,\n"
              "the hosts named (ring.hosts, rebuild hosts, staging gateway, trace files' hosts), ring sizes (with ring.hosts:\n"
              "its length); suspect trace lines are warned about once (refused with --strict; see simulate --help).\n"
              "Trace files are found beside the experiment; seeds draw rings and generated traces, a files or\n"
              "platform traces source is the same in every run. summary.json: trace_sources,\n"
              "speeds_from_2004_machine_list.\n"
              "SimGrid options: --cfg=name:value goes into every run's config (\"simgrid\", over the experiment's own)\n"
              "and --log=... to every run; a traced run (--cfg=tracing:yes) writes runs/<id>/<tracing/filename's\n"
              "name, or simgrid.trace>. Both are checked by SimGrid before the first run (exit 2, one line).\n"
              "The sweep states its run count on stderr before it writes anything, and refuses more than --max-runs\n"
              "(default " + std::to_string(sweep::kDefaultMaxRuns) + "). Each value of ring_sizes, ratios, schemes, algorithms and seeds is\n"
              "listed once (a repeated one is refused).");
  auto experiment = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto jobs = std::make_shared<int>(1);
  auto quick = std::make_shared<bool>(false);
  auto list = std::make_shared<bool>(false);
  auto merge_only = std::make_shared<bool>(false);
  auto slurm = std::make_shared<std::string>();
  auto max_runs = std::make_shared<std::size_t>(sweep::kDefaultMaxRuns);
  cmd->add_option("EXPERIMENT", *experiment, "experiment config (JSON)")->required();
  cmd->add_option("--out", *out, "output directory (default out/<name>[-quick])");
  cmd->add_option("--jobs,-j", *jobs, "simulations run at once")->check(CLI::Range(1, 1024));
  cmd->add_flag("--quick", *quick, "use the experiment's smaller 'quick' sweep");
  cmd->add_flag("--list", *list, "print one command per run instead of running");
  cmd->add_flag("--merge", *merge_only, "only merge existing results into the CSVs");
  cmd->add_option("--max-runs", *max_runs, "refuse a sweep of more runs than this (default " +
                                             std::to_string(sweep::kDefaultMaxRuns) + ")")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40));
  cmd->add_option("--slurm", *slurm, "write a SLURM array job for the sweep into this folder instead of running");
  auto strict = add_strict_option(cmd);
  auto max_memory = add_max_memory_option(cmd);
  cmd->allow_extras();
  cmd->callback([=] {
    const std::vector<std::string> extras = cmd->remaining();
    refuse_control_characters_in_paths(*experiment, *out, *slurm, extras);
    io::EngineArgs checked(extras);  // only --cfg= and --log=, before anything else
    std::vector<std::string> logs;
    for (const auto& a : extras)
      if (a.rfind("--log=", 0) == 0) logs.push_back(a);
    const auto command_line_options = sweep::cfg_options(extras);
    sweep::Experiment e = sweep::load_experiment(*experiment, *quick, sweep::usable_host_count, {*max_runs, *max_memory * 1e9});
    const fs::path dir = out->empty() ? fs::path("out") / (e.name + (*quick ? "-quick" : "")) : fs::path(*out);
    sweep::add_command_line_options(e, dir, command_line_options);
    sweep::check_simgrid_setups(e, "'" + *experiment + "'", logs);
    if (!*merge_only) sweep::check_trace_lines(e, "'" + *experiment + "'", *strict);
    create_output_directory(dir);
    // One sweep per directory at a time; the lock dies with the process.
    const int lock = open((dir / ".lock").c_str(), O_RDWR | O_CREAT, 0644);
    if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) != 0)
      throw InputError("another 'ringsim run' is using '" + dir.string() + "'");
    const sweep::RunInputs inputs = sweep::check_finished_runs(e, dir);
    // A sweep that runs says how many runs it holds before it writes any (--list and --slurm answer
    // with their own output, --merge runs nothing).
    if (!*list && slurm->empty() && !*merge_only)
      std::cerr << "ringsim: sweep of " << e.runs.size() << " runs in " << dir.string() << "/\n";
    sweep::write_configs(e, dir, inputs);
    const std::string exe = front_end_beside(io::self_executable());  // what users and jobs run
    sweep::refuse_control_characters(exe, "ringsim's own path");
    const std::string merge_line = sweep::shell_line({exe, "run", fs::absolute(*experiment).string()}) +
                                   (*quick ? " --quick" : "") + " --merge --out " +
                                   sweep::shell_word(fs::absolute(dir).string());
    if (*list) {
      for (const auto& run : e.runs) {
        const sweep::RunPaths p = sweep::paths_of(dir, run);
        if (!sweep::finished_result(p)) std::cout << sweep::shell_line(simulate_args(exe, p, logs, *max_memory, *strict)) << '\n';
      }
      std::cout << "# when all are done: " << merge_line << '\n';
      return;  // main() answers exit 2 when standard output cannot be written
    }
    if (!slurm->empty()) {
      std::vector<sweep::ClusterRun> runs;
      for (const auto& run : e.runs) {
        const sweep::RunPaths p = sweep::paths_of(fs::absolute(dir), run);
        runs.push_back({sweep::shell_line(simulate_args(exe, p, logs, *max_memory, *strict)), p.result});
      }
      sweep::write_slurm_job(*slurm, e.name, runs, merge_line);
      std::cerr << "ringsim: SLURM job for " << runs.size() << " runs in " << *slurm << " (submit with "
                << (fs::absolute(*slurm) / "submit.sh").string() << ")\n";
      return;
    }
    Failures failed;
    if (!*merge_only) failed = execute(e, dir, *jobs, logs);
    sweep::merge_results(e, dir, *quick);
    std::cerr << "ringsim: results in " << dir.string() << "/runs.csv\n";
    // Runs that refused their input make the sweep's input bad (exit 2); any other failure is 1.
    const std::string what = std::to_string(failed.count) + " run(s) failed (see their log.txt)";
    if (failed.count && failed.bad_input == failed.count) throw InputError(what);
    if (failed.count) throw std::runtime_error(what);
  });
}

}  // namespace ringsim::cli
