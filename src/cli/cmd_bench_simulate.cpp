// `ringsim bench simulate --builtin ring32-noredistribution`: the simulator's own cost against a
// bare S4U ring of the same size on the same platform (each run a child process: one simulation
// per process). Prints figures, never judges them.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <xbt/log.h>

#include "cli/command_table.hpp"
#include "cli/commands.hpp"
#include "cli/simulation_allocator.hpp"
#include "io/process.hpp"
#include "io/files.hpp"
#include "io/json_input.hpp"
#include "model/run_config.hpp"
#include "model/errors.hpp"
#include "bench/bare_ring.hpp"
#include "bench/star_platform.hpp"
#include "policy/registry.hpp"
#include "sim/ring_simulation.hpp"
#include "io/files.hpp"
#include "model/run_memory.hpp"
#include "platform/simgrid_options.hpp"
#include "sweep/run_files.hpp"

namespace ringsim::cli {
namespace {

namespace fs = std::filesystem;

struct ProcessTiming {
  double wall = 0.0;
  double cpu = 0.0;
};

// Runs `body` in a child process, timed (wall clock from before the fork, the child's CPU time).
// `quiet`: its standard output and error go to /dev/null.
ProcessTiming timed_child(const std::function<void()>& body, bool quiet = false) {
  io::ChildOptions options;
  options.what = "bench simulate";
  if (quiet) options.stdout_file = options.stderr_file = "/dev/null";
  const auto t0 = std::chrono::steady_clock::now();
  const io::ChildStatus status = io::fork_child(
                                     [&] {
                                       try {
                                         body();
                                       } catch (const std::exception& e) {
                                         std::cerr << "ringsim: benchmark run failed: " << e.what() << '\n';
                                         return 1;
                                       }
                                       return 0;
                                     },
                                     options)
                                     .wait();
  if (!status.ok()) throw std::runtime_error("a benchmark run failed");
  ProcessTiming t;
  t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const rusage& usage = status.usage;
  t.cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
          1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  return t;
}

// How a timed program's allocator is set: as ringsim sets its simulation program's, or as the
// user's environment has it (a bare S4U ring as its user would run it).
enum class Allocator { ringsim_tuned, as_user_set };

// A whole process: fork, exec `args` (standard output and error to /dev/null), wait.
ProcessTiming process(const std::vector<std::string>& args, Allocator allocator = Allocator::ringsim_tuned) {
  return timed_child(
      [&] {
        if (allocator == Allocator::as_user_set) {
          const std::string user = user_allocator_tunables(std::getenv("GLIBC_TUNABLES"));
          if (user.empty()) unsetenv("GLIBC_TUNABLES");
          else setenv("GLIBC_TUNABLES", user.c_str(), 1);
        }
        std::vector<char*> argv;
        for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        io::end_child(127);
      },
      true);
}

// The bare ring's members: ringsim's ring, each member executing what ringsim's member executes
// (its first iteration's columns, which a run without redistribution keeps).
std::vector<BareMember> bare_members_of(const RunResult& res) {
  if (res.iterations.empty() || res.iterations.front().loads.size() != res.ring.size())
    throw std::runtime_error("benchmark setup run recorded no loads");
  std::vector<BareMember> members;
  for (std::size_t i = 0; i < res.ring.size(); ++i)
    members.push_back({res.ring[i], static_cast<double>(res.iterations.front().loads[i]) * res.flops_per_column});
  return members;
}

// One number a line, appended by the benchmark's children (each a process of its own).
void append_number(const std::string& path, double value) {
  std::ofstream out(path, std::ios::app);
  out.precision(17);
  out << value << '\n';
}

std::vector<double> read_numbers(const std::string& path) {
  std::ifstream in(path);
  std::vector<double> values;
  for (double v = 0.0; in >> v;) values.push_back(v);
  return values;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The ring every figure is taken on: the first n hosts of the star, in order, at constant speeds.
RunConfig ring_config(const std::string& platform, int n, int iterations) {
  RunConfig cfg;
  cfg.platform = platform;
  cfg.ring.selection = RingSelection::hosts;
  for (int i = 0; i < n; ++i) cfg.ring.hosts.push_back("h" + std::string(i < 10 ? "0" : "") + std::to_string(i));
  cfg.ring.size = n;
  cfg.iterations = iterations;
  cfg.ratio = 1.0;
  cfg.scheme.name = policy::kBaselineScheme;
  cfg.traces.windows.clear();  // constant speeds: the bare ring has no traces either
  cfg.baseline = false;
  return cfg;
}

// The same ring as a config file, for `ringsim simulate` (whole processes) and the breakdown.
std::string write_ring_config(const RunConfig& cfg, const fs::path& dir) {
  const nlohmann::json config = {{"platform", cfg.platform},
                                 {"ring", {{"selection", "hosts"}, {"hosts", cfg.ring.hosts}}},
                                 {"iterations", cfg.iterations}, {"ratio", cfg.ratio},
                                 {"scheme", policy::kBaselineScheme}, {"rows", cfg.rows}, {"columns", cfg.columns},
                                 {"traces", {{"windows", nlohmann::json::array()}}}};
  const std::string file = (dir / "ring.json").string();
  io::write_file_atomically(file, config.dump() + "\n");
  return file;
}

struct BenchFiles {
  fs::path dir;
  std::string platform, members, config, makespans, steps;
};

struct Timings {
  std::vector<double> wall, cpu;
  void add(const ProcessTiming& t) {
    wall.push_back(t.wall);
    cpu.push_back(t.cpu);
  }
};

char g_program[] = "ringsim";
char* g_argv[] = {g_program, nullptr};

// The bare ring simulates the same application: ringsim's ring, each member executing its own
// columns' flops (the initial balance, which a run without redistribution keeps).
std::vector<BareMember> measure_bare_members(const RunConfig& cfg, const BenchFiles& f) {
  timed_child([&] {
    RunConfig one = cfg;
    one.iterations = 1;
    int argc = 1;
    io::write_file_atomically(f.members, bare_members_text(bare_members_of(sim::run_simulation(one, &argc, g_argv))));
  });
  return read_bare_members(f.members);
}

// Each run in a child forked from this process, SimGrid already loaded: ringsim's run, the bare
// ring, the bare ring with ringsim's barrier, and the other scheme if asked. The first repetition
// notes the makespans of ringsim's run and of the bare ring with the barrier: the same simulation.
struct InProcess {
  Timings ring, bare, barrier, other_scheme;
};
InProcess time_in_process(const RunConfig& cfg, const std::vector<BareMember>& members, const std::string& scheme,
                          int repeat, const BenchFiles& f) {
  InProcess t;
  RunConfig other = cfg;
  other.scheme.name = scheme;
  const double bytes = 8.0 * cfg.rows;
  for (int r = 0; r < repeat; ++r) {
    if (scheme != policy::kBaselineScheme)
      t.other_scheme.add(timed_child([&] {
        int argc = 1;
        sim::run_simulation(other, &argc, g_argv);
      }));
    t.ring.add(timed_child([&] {
      int argc = 1;
      const double makespan = sim::run_simulation(cfg, &argc, g_argv).makespan;
      if (r == 0) append_number(f.makespans, makespan);
    }));
    t.bare.add(timed_child([&] {
      int argc = 1;
      run_bare_ring(cfg.platform, members, cfg.iterations, bytes, false, &argc, g_argv);
    }));
    // Every member ends iteration k before any starts k+1, as ringsim's iteration records and
    // policies need.
    t.barrier.add(timed_child([&] {
      int argc = 1;
      const double makespan = run_bare_ring(cfg.platform, members, cfg.iterations, bytes, true, &argc, g_argv);
      if (r == 0) append_number(f.makespans, makespan);
    }));
  }
  return t;
}

// Where a run's time goes, step by step, as `ringsim simulate CONFIG --out FILE` and each run of
// a sweep take them (a child forked with SimGrid loaded): reading the config, the checks before
// any simulation (memory, outputs, SimGrid options), the engine and the platform, the set-up
// (rings, traces, references, policies), the simulation, the outputs. One simulation per process:
// the set-up is timed alone in one child (SimulationOptions::setup_only), the whole run in
// another; the simulation is their difference.
struct Breakdown {
  std::vector<double> config, checks, load, setup, run, outputs;
};
Breakdown time_breakdown(int repeat, const BenchFiles& f) {
  using clock = std::chrono::steady_clock;
  const auto seconds = [](clock::time_point a, clock::time_point b) { return std::chrono::duration<double>(b - a).count(); };
  const auto steps = [&](bool whole) {
    const auto t0 = clock::now();
    const RunConfig cfg = sweep::read_simulate_config(f.config);
    const auto t1 = clock::now();
    check_run_memory(cfg, kDefaultMemoryBudgetBytes, "'" + f.config + "'");
    const std::string out = (f.dir / "result.json").string(), iterations = (f.dir / "iterations.csv").string();
    io::refuse_shared_outputs({{"--out", out}, {"--iterations-csv", iterations}});
    platform::check_simgrid_setup(cfg, {});
    const auto t2 = clock::now();
    int argc = 1;
    sim::LoadedSimulation loaded(cfg, &argc, g_argv);
    const auto t3 = clock::now();
    sim::SimulationOptions opt;
    opt.setup_only = !whole;
    const RunResult res = sim::run_simulation(cfg, loaded, opt);
    const auto t4 = clock::now();
    if (whole) sweep::write_simulate_outputs(cfg, res, 0.0, out, iterations);
    const auto t5 = clock::now();
    std::ofstream(f.steps, std::ios::app) << seconds(t0, t1) << ' ' << seconds(t1, t2) << ' ' << seconds(t2, t3) << ' '
                                          << seconds(t3, t4) << ' ' << seconds(t4, t5) << ' ' << whole << '\n';
  };
  for (int r = 0; r < repeat; ++r) {
    timed_child([&] { steps(false); });
    timed_child([&] { steps(true); });
  }
  Breakdown b;
  std::ifstream in(f.steps);
  for (double config, checks, load, run, outputs, whole; in >> config >> checks >> load >> run >> outputs >> whole;) {
    b.config.push_back(config);
    b.checks.push_back(checks);
    b.load.push_back(load);
    (whole != 0.0 ? b.run : b.setup).push_back(run);
    if (whole != 0.0) b.outputs.push_back(outputs);
  }
  if (b.setup.empty() || b.run.empty()) throw std::runtime_error("benchmark runs did not report their steps");
  return b;
}

// The same two rings as whole processes: `ringsim simulate CONFIG` against ringsim-bare-s4u (a
// program linked with SimGrid only), start-up, platform parsing and exit included, taken in turn;
// and start-up alone: `ringsim --version` (the front end), `ringsim simulate --help` (the front
// end, then the simulation program it execs, which loads SimGrid). The bare ring runs as its user
// would run it, and once more with the allocator setting ringsim gives its simulation program
// (cli/simulation_allocator.hpp); the in-process figures share that setting.
struct WholeProcesses {
  std::vector<double> ring, bare, barrier, barrier_tuned, startup, startup_simulation, startup_bare;
};
WholeProcesses time_whole_processes(const RunConfig& cfg, int repeat, const BenchFiles& f, const fs::path& bare) {
  WholeProcesses t;
  const fs::path self = front_end_beside(io::self_executable());
  char bytes_text[64];
  std::snprintf(bytes_text, sizeof bytes_text, "%.17g", 8.0 * cfg.rows);
  const std::string iterations = std::to_string(cfg.iterations);
  const std::string result = (f.dir / "whole-result.json").string();
  for (int r = 0; r < repeat; ++r) {
    t.ring.push_back(process({self.string(), "simulate", f.config, "--no-baseline", "--out", result}).wall);
    t.bare.push_back(process({bare.string(), cfg.platform, f.members, iterations, bytes_text}, Allocator::as_user_set).wall);
    t.barrier.push_back(
        process({bare.string(), cfg.platform, f.members, iterations, bytes_text, "--barrier"}, Allocator::as_user_set).wall);
    t.barrier_tuned.push_back(process({bare.string(), cfg.platform, f.members, iterations, bytes_text, "--barrier"}).wall);
    t.startup.push_back(process({self.string(), "--version"}).wall);
    t.startup_simulation.push_back(process({self.string(), "simulate", "--help"}).wall);
    t.startup_bare.push_back(process({bare.string(), "--version"}, Allocator::as_user_set).wall);
  }
  return t;
}

void print_figure(const char* name, double value, int decimals = 4) { std::printf("%s=%.*f\n", name, decimals, value); }

void print_in_process(const InProcess& t, const std::vector<double>& ends, const std::string& scheme) {
  // With the barrier, the bare ring is the same simulation: the same makespan, to the last bit.
  std::printf("makespan=%.17g\n", ends[0]);
  std::printf("bare_s4u_barrier_makespan=%.17g\n", ends[1]);
  std::printf("same_makespan=%s\n", ends[0] == ends[1] ? "yes" : "no");
  print_figure("seconds_per_run", median(t.ring.wall));
  print_figure("cpu_seconds_per_run", median(t.ring.cpu));
  print_figure("bare_s4u_seconds_per_run", median(t.bare.wall));
  print_figure("bare_s4u_cpu_seconds_per_run", median(t.bare.cpu));
  print_figure("ratio_to_bare", median(t.ring.wall) / median(t.bare.wall), 3);
  print_figure("bare_s4u_barrier_seconds_per_run", median(t.barrier.wall));
  print_figure("ratio_to_bare_barrier", median(t.ring.wall) / median(t.barrier.wall), 3);
  if (scheme == policy::kBaselineScheme) return;
  std::printf("scheme=%s\n", scheme.c_str());
  print_figure("scheme_seconds_per_run", median(t.other_scheme.wall));
  print_figure("scheme_cpu_seconds_per_run", median(t.other_scheme.cpu));
  print_figure("scheme_ratio_to_none", median(t.other_scheme.wall) / median(t.ring.wall), 3);
}

void print_breakdown(const Breakdown& b) {
  print_figure("step_config_seconds", median(b.config));
  print_figure("step_checks_seconds", median(b.checks));
  print_figure("step_engine_and_platform_seconds", median(b.load));
  print_figure("step_setup_seconds", median(b.setup));
  print_figure("step_simulation_seconds", std::max(0.0, median(b.run) - median(b.setup)));
  print_figure("step_outputs_seconds", median(b.outputs));
}

void print_whole_processes(const WholeProcesses& t) {
  print_figure("whole_process_seconds_per_run", median(t.ring));
  print_figure("bare_s4u_whole_process_seconds_per_run", median(t.bare));
  print_figure("whole_process_ratio_to_bare", median(t.ring) / median(t.bare), 3);
  print_figure("bare_s4u_barrier_whole_process_seconds_per_run", median(t.barrier));
  print_figure("whole_process_ratio_to_bare_barrier", median(t.ring) / median(t.barrier), 3);
  // The bare ring given ringsim's allocator setting too: what the rest of a run costs.
  print_figure("bare_s4u_barrier_same_allocator_whole_process_seconds_per_run", median(t.barrier_tuned));
  print_figure("whole_process_ratio_to_bare_barrier_same_allocator", median(t.ring) / median(t.barrier_tuned), 3);
  // The front end alone (as every planner command), then with the simulation program and SimGrid.
  print_figure("startup_seconds", median(t.startup));
  print_figure("simulation_startup_seconds", median(t.startup_simulation));
  print_figure("bare_s4u_startup_seconds", median(t.startup_bare));
}

void bench_simulate(const std::string& builtin, int repeat, const std::string& scheme, int n, int iterations) {
  if (builtin != "ring32-noredistribution")
    throw InputError("unknown builtin benchmark '" + builtin + "' (available: ring32-noredistribution)");
  if (scheme != policy::kBaselineScheme) policy::scheme_redistributes(scheme, iterations, "--scheme");  // exit 2 before any run
  BenchFiles f;
  f.dir = fs::temp_directory_path() / ("ringsim-bench-" + std::to_string(getpid()));
  fs::create_directories(f.dir);
  f.platform = (f.dir / ("star" + std::to_string(n) + ".xml")).string();
  write_star_platform(f.platform, n);
  f.members = (f.dir / "members").string();
  f.makespans = (f.dir / "makespans").string();
  f.steps = (f.dir / "steps").string();
  const RunConfig cfg = ring_config(f.platform, n, iterations);
  f.config = write_ring_config(cfg, f.dir);
  xbt_log_control_set("xbt_cfg.thres:warning");
  const std::vector<BareMember> members = measure_bare_members(cfg, f);
  const InProcess in_process = time_in_process(cfg, members, scheme, repeat, f);
  const std::vector<double> ends = read_numbers(f.makespans);
  if (ends.size() != 2) throw std::runtime_error("benchmark runs did not report their makespans");
  const Breakdown steps = time_breakdown(repeat, f);
  const fs::path bare = fs::path(front_end_beside(io::self_executable())).parent_path() / "ringsim-bare-s4u";
  std::optional<WholeProcesses> whole;
  if (fs::exists(bare)) whole = time_whole_processes(cfg, repeat, f, bare);
  fs::remove_all(f.dir);
  std::printf("# %s: %d members, %d iterations, constant speeds, no redistribution; median of %d runs, each a "
              "process; the bare S4U ring simulates the same ring and work\n",
              builtin.c_str(), n, iterations, repeat);
  print_in_process(in_process, ends, scheme);
  std::printf("# a run's steps, as `simulate` and a sweep's runs take them (SimGrid loaded)\n");
  print_breakdown(steps);
  if (whole) print_whole_processes(*whole);
  else std::printf("# no ringsim-bare-s4u beside ringsim: whole-process figures skipped\n");
}

}  // namespace

void add_bench_simulate(CLI::App* cmd) {
  auto builtin = std::make_shared<std::string>("ring32-noredistribution");
  auto repeat = std::make_shared<int>(5);
  cmd->add_option("--builtin", *builtin, "builtin benchmark (ring32-noredistribution)");
  auto scheme = std::make_shared<std::string>(policy::kBaselineScheme);
  cmd->add_option("--repeat", *repeat, "runs of each")->check(CLI::Range(1, 1000));
  cmd->add_option("--scheme", *scheme,
                  "also time this scheme on the same ring (observe: reports piggybacked, never redistributing)");
  auto members = std::make_shared<int>(32);
  cmd->add_option("--members", *members, "ring members (a star platform of as many hosts)")->check(CLI::Range(2, 4096));
  auto iterations = std::make_shared<int>(100);
  cmd->add_option("--iterations", *iterations, "iterations of each run")->check(CLI::Range(1, 100000));
  cmd->callback([builtin, repeat, scheme, members, iterations] {
    bench_simulate(*builtin, *repeat, *scheme, *members, *iterations);
  });
}

}  // namespace ringsim::cli
