// `ringsim bench simulate --builtin ring32-noredistribution`: the simulator's own cost against a
// bare S4U ring of the same size on the same platform (each run a child process: one simulation
// per process). Prints figures, never judges them.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <xbt/log.h>

#include "cli/command_table.hpp"
#include "cli/commands.hpp"
#include "io/process.hpp"
#include "io/files.hpp"
#include "io/json_input.hpp"
#include "model/run_config.hpp"
#include "model/errors.hpp"
#include "bench/bare_ring.hpp"
#include "bench/star_platform.hpp"
#include "policy/registry.hpp"
#include "sim/ring_simulation.hpp"

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

// A whole process: fork, exec `args` (standard output and error to /dev/null), wait.
ProcessTiming process(const std::vector<std::string>& args) {
  return timed_child(
      [&] {
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

void bench_simulate(const std::string& builtin, int repeat, const std::string& scheme, int n) {
  if (builtin != "ring32-noredistribution")
    throw InputError("unknown builtin benchmark '" + builtin + "' (available: ring32-noredistribution)");
  const auto dir = std::filesystem::temp_directory_path() / ("ringsim-bench-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string platform = (dir / ("star" + std::to_string(n) + ".xml")).string();
  write_star_platform(platform, n);

  RunConfig cfg;
  cfg.platform = platform;
  cfg.selection = RingSelection::hosts;
  for (int i = 0; i < n; ++i) cfg.ring_hosts.push_back("h" + std::string(i < 10 ? "0" : "") + std::to_string(i));
  cfg.ring_size = n;
  cfg.iterations = 100;
  cfg.ratio = 1.0;
  cfg.scheme.name = policy::kBaselineScheme;
  cfg.trace_windows.clear();  // constant speeds: the bare ring has no traces either
  cfg.baseline = false;

  char arg0[] = "ringsim";
  char* argv[] = {arg0, nullptr};
  xbt_log_control_set("xbt_cfg.thres:warning");
  // The bare ring simulates the same application: ringsim's ring, each member executing its own
  // columns' flops (the initial balance, which a run without redistribution keeps).
  const std::string members_file = (dir / "members").string();
  timed_child([&] {
    RunConfig one = cfg;
    one.iterations = 1;
    int argc = 1;
    io::write_file_atomically(members_file, bare_members_text(bare_members_of(sim::run_simulation(one, &argc, argv))));
  });
  const std::vector<BareMember> members = read_bare_members(members_file);
  RunConfig other = cfg;
  other.scheme.name = scheme;
  if (scheme != policy::kBaselineScheme) policy::scheme_redistributes(scheme, cfg.iterations, "--scheme");  // exit 2 before any run
  const double bytes = 8.0 * cfg.rows;
  const std::string makespans = (dir / "makespans").string();
  std::vector<double> ring_wall, ring_cpu, bare_wall, bare_cpu, barrier_wall, scheme_wall, scheme_cpu;
  for (int r = 0; r < repeat; ++r) {
    if (scheme != policy::kBaselineScheme) {
      const ProcessTiming s = timed_child([&] {
        int argc = 1;
        sim::run_simulation(other, &argc, argv);
      });
      scheme_wall.push_back(s.wall);
      scheme_cpu.push_back(s.cpu);
    }
    // The first repetition also notes both makespans, to check that the two simulate the same thing.
    const ProcessTiming a = timed_child([&] {
      int argc = 1;
      const double makespan = sim::run_simulation(cfg, &argc, argv).makespan;
      if (r == 0) append_number(makespans, makespan);
    });
    const ProcessTiming b = timed_child([&] {
      int argc = 1;
      run_bare_ring(platform, members, cfg.iterations, bytes, false, &argc, argv);
    });
    // The bare ring with the model's own per-iteration barrier (every member ends iteration k
    // before any starts k+1, as ringsim's iteration records and policies need).
    const ProcessTiming c = timed_child([&] {
      int argc = 1;
      const double makespan = run_bare_ring(platform, members, cfg.iterations, bytes, true, &argc, argv);
      if (r == 0) append_number(makespans, makespan);
    });
    barrier_wall.push_back(c.wall);
    ring_wall.push_back(a.wall);
    ring_cpu.push_back(a.cpu);
    bare_wall.push_back(b.wall);
    bare_cpu.push_back(b.cpu);
  }
  const std::vector<double> ends = read_numbers(makespans);
  if (ends.size() != 2) throw std::runtime_error("benchmark runs did not report their makespans");
  // The same two rings as whole processes: `ringsim simulate CONFIG` against ringsim-bare-s4u (a
  // program linked with SimGrid only), start-up and platform parsing included; and start-up alone:
  // `ringsim --version` (the front end), `ringsim simulate --help` (the front end, then the
  // simulation program it execs, which loads SimGrid).
  const fs::path self = front_end_beside(io::self_executable());
  const fs::path bare = self.parent_path() / "ringsim-bare-s4u";
  std::vector<double> whole, whole_bare, whole_barrier, startup, startup_simulation, startup_bare;
  if (fs::exists(bare)) {
    nlohmann::json config = {{"platform", platform}, {"ring", {{"selection", "hosts"}, {"hosts", cfg.ring_hosts}}},
                             {"iterations", cfg.iterations}, {"ratio", cfg.ratio}, {"scheme", policy::kBaselineScheme},
                             {"rows", cfg.rows}, {"columns", cfg.columns},
                             {"traces", {{"windows", nlohmann::json::array()}}}};
    const std::string config_file = (dir / "ring.json").string();
    io::write_file_atomically(config_file, config.dump() + "\n");
    char bytes_text[64];
    std::snprintf(bytes_text, sizeof bytes_text, "%.17g", bytes);
    const std::string iterations = std::to_string(cfg.iterations);
    for (int r = 0; r < repeat; ++r) {
      whole.push_back(process({self.string(), "simulate", config_file, "--no-baseline", "--out",
                               (dir / "result.json").string()}).wall);
      whole_bare.push_back(process({bare.string(), platform, members_file, iterations, bytes_text}).wall);
      whole_barrier.push_back(process({bare.string(), platform, members_file, iterations, bytes_text, "--barrier"}).wall);
      startup.push_back(process({self.string(), "--version"}).wall);
      startup_simulation.push_back(process({self.string(), "simulate", "--help"}).wall);
      startup_bare.push_back(process({bare.string(), "--version"}).wall);
    }
  }
  std::filesystem::remove_all(dir);
  std::printf("# %s: %d members, 100 iterations, constant speeds, no redistribution; median of %d runs, each a "
              "process; the bare S4U ring simulates the same ring and work\n",
              builtin.c_str(), n, repeat);
  // With the barrier, the bare ring is the same simulation: the same makespan, to the last bit.
  std::printf("makespan=%.17g\n", ends[0]);
  std::printf("bare_s4u_barrier_makespan=%.17g\n", ends[1]);
  std::printf("same_makespan=%s\n", ends[0] == ends[1] ? "yes" : "no");
  std::printf("seconds_per_run=%.4f\n", median(ring_wall));
  std::printf("cpu_seconds_per_run=%.4f\n", median(ring_cpu));
  std::printf("bare_s4u_seconds_per_run=%.4f\n", median(bare_wall));
  std::printf("bare_s4u_cpu_seconds_per_run=%.4f\n", median(bare_cpu));
  std::printf("ratio_to_bare=%.3f\n", median(ring_wall) / median(bare_wall));
  std::printf("bare_s4u_barrier_seconds_per_run=%.4f\n", median(barrier_wall));
  std::printf("ratio_to_bare_barrier=%.3f\n", median(ring_wall) / median(barrier_wall));
  if (!whole.empty()) {
    std::printf("whole_process_seconds_per_run=%.4f\n", median(whole));
    std::printf("bare_s4u_whole_process_seconds_per_run=%.4f\n", median(whole_bare));
    std::printf("whole_process_ratio_to_bare=%.3f\n", median(whole) / median(whole_bare));
    std::printf("bare_s4u_barrier_whole_process_seconds_per_run=%.4f\n", median(whole_barrier));
    std::printf("whole_process_ratio_to_bare_barrier=%.3f\n", median(whole) / median(whole_barrier));
    // The front end alone (as every planner command), then with the simulation program and SimGrid.
    std::printf("startup_seconds=%.4f\n", median(startup));
    std::printf("simulation_startup_seconds=%.4f\n", median(startup_simulation));
    std::printf("bare_s4u_startup_seconds=%.4f\n", median(startup_bare));
  } else {
    std::printf("# no ringsim-bare-s4u beside %s: whole-process figures skipped\n", self.string().c_str());
  }
  if (scheme != policy::kBaselineScheme) {
    std::printf("scheme=%s\n", scheme.c_str());
    std::printf("scheme_seconds_per_run=%.4f\n", median(scheme_wall));
    std::printf("scheme_cpu_seconds_per_run=%.4f\n", median(scheme_cpu));
    std::printf("scheme_ratio_to_none=%.3f\n", median(scheme_wall) / median(ring_wall));
  }
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
  cmd->callback([builtin, repeat, scheme, members] { bench_simulate(*builtin, *repeat, *scheme, *members); });
}

}  // namespace ringsim::cli
