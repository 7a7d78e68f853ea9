// `ringsim bench kpbs`: planning time of GGP and OGGP on dense random n x n matrices.
#include <chrono>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "model/errors.hpp"
#include "model/kpbs.hpp"
#include "planners/kpbs/kpbs_planner.hpp"

namespace ringsim::cli {
namespace {

struct KpbsBenchOptions {
  std::vector<std::size_t> sizes{25, 50, 100, 200, 400};
  std::vector<std::string> algorithms{"ggp", "oggp"};
  double beta = 1.0;
  double max_time = 10.0;
  double k_fraction = 0.5;
  std::uint64_t seed = 1;
};

// Every entry uniform in (0, max_time]: a dense all-to-all redistribution.
KpbsInstance dense_instance(std::size_t n, const KpbsBenchOptions& o) {
  std::mt19937_64 rng(o.seed * 1000003 + n);
  std::uniform_real_distribution<double> time(0.0, o.max_time);
  KpbsInstance inst;
  inst.times.assign(n, std::vector<double>(n));
  for (auto& row : inst.times)
    for (double& x : row) x = o.max_time - time(rng);
  inst.k = std::max<std::size_t>(1, static_cast<std::size_t>(std::lround(o.k_fraction * static_cast<double>(n))));
  inst.beta = o.beta;
  return inst;
}

void bench_kpbs(const KpbsBenchOptions& o) {
  for (const auto& algo : o.algorithms) kpbs::check_kpbs_algorithm(algo);  // refused before any row
  std::cout << "# ringsim bench kpbs: planning time (validation + plan, no JSON) on dense random n x n matrices, "
               "times uniform in (0, " << o.max_time << "], beta = " << o.beta << ", k = " << o.k_fraction
            << " * n, seed " << o.seed << "\n";
  std::cout << "# seconds: wall clock; cpu_seconds: this process's CPU time (steadier on a loaded machine)\n"
               "# growth = cpu_seconds / cpu_seconds at the previous n; exponent = log(growth) / log(n / previous n)\n";
  std::cout << "algorithm,n,k,edges,seconds,cpu_seconds,growth,exponent,steps,comms,time,lower_bound,time_over_eta,valid\n";
  for (const auto& algo : o.algorithms) {
    double previous_s = 0.0;
    std::size_t previous_n = 0;
    for (std::size_t n : o.sizes) {
      const KpbsInstance inst = dense_instance(n, o);
      const auto t0 = std::chrono::steady_clock::now();
      const std::clock_t c0 = std::clock();
      const KpbsSchedule sched = kpbs::plan_kpbs(inst, algo);
      const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const KpbsCheck check = sched.kpbs_feasible ? check_kpbs_schedule(inst, sched) : check_kpbs_conservation(inst, sched);
      std::size_t comms = 0;
      for (const auto& st : sched.steps) comms += st.comms.size();
      std::cout << algo << ',' << n << ',' << inst.k << ',' << n * n << ',' << std::setprecision(4) << s << ',' << cpu
                << ',';
      if (previous_s > 0.0) {
        const double growth = cpu / previous_s;
        std::cout << std::setprecision(3) << growth << ','
                  << std::log(growth) / std::log(static_cast<double>(n) / static_cast<double>(previous_n));
      } else {
        std::cout << "-,-";
      }
      std::cout << ',' << sched.steps.size() << ',' << comms << ',' << std::setprecision(8) << sched.time << ','
                << sched.lower_bound << ',' << std::setprecision(5) << sched.time / sched.lower_bound << ','
                << (check.ok ? "yes" : "NO: " + check.error) << std::endl;
      previous_s = std::max(cpu, 1e-6);
      previous_n = n;
    }
  }
}

}  // namespace

void add_bench_kpbs(CLI::App* cmd) {
  auto o = std::make_shared<KpbsBenchOptions>();
  cmd->add_option("--sizes", o->sizes, "matrix sizes n (comma-separated)")->delimiter(',')->check(CLI::Range(1, 5000));
  cmd->add_option("--algorithms", o->algorithms, "algorithms to time (comma-separated)")->delimiter(',');
  cmd->add_option("--beta", o->beta, "setup delay")->check(CLI::Range(0.0, 1e9));
  cmd->add_option("--max-time", o->max_time, "entries uniform in (0, max-time]")->check(CLI::PositiveNumber);
  cmd->add_option("--k-fraction", o->k_fraction, "k = round(k-fraction * n), at least 1")->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--seed", o->seed, "random seed");
  cmd->callback([o] { bench_kpbs(*o); });
}

}  // namespace ringsim::cli
