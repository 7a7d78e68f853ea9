// Experiment sweeps (`ringsim run EXPERIMENT.json`): a base run config and lists whose product is
// the set of runs (ring sizes x ratios x schemes x algorithms x seeds x repetitions). Each run is
// its own `ringsim simulate` process; results are merged into runs.csv, iterations.csv and a
// summary with provenance.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/fnv1a.hpp"

#include "model/run_config.hpp"
#include "model/run_memory.hpp"

namespace ringsim::sweep {

struct ExperimentRun {
  std::string id;              // readable and unique: p8_r1.5_every-10_auto_s1_k0
  int ring_size = 0;
  double ratio = 0.0;
  std::string scheme;
  std::string planner;
  std::uint64_t seed = 0;
  int repetition = 0;
  std::string baseline_id;     // the scheme-"none" run that normalizes this one
  nlohmann::json config;       // the `ringsim simulate` config
};

struct Experiment {
  std::string name;
  std::string description;
  std::vector<ExperimentRun> runs;
  std::uint64_t config_hash = 0;  // FNV-1a of the canonical experiment JSON (after --quick)
};

// A host a run names (a given ring's, a rebuild's, the staging gateway), and what it is for.
struct NamedHost {
  std::string name;
  std::string role;  // "ring host", "rebuild after iteration 50: ring host", "staging gateway",
                     // "'speeds.csv':4: host" (io::trace_file_hosts)
  bool router_ok = false;  // the staging gateway may be a router of a graph-routed platform
};

// How many hosts of a platform file a ring can use, after checking that every named host is one of
// its hosts (InputError "<role> 'name' is not in platform 'file'" otherwise). The sweep does not
// load platforms itself: SimGrid lives below, in the simulation layer; the command line passes a
// function that asks it, with one load of the platform.
using HostCount = std::function<std::size_t(const std::string& platform, const std::vector<NamedHost>& named)>;

// Reads the experiment's keys by their tables (sweep/experiment_keys.hpp), then reads and checks
// every run's config before anything runs (InputError on any problem): the platform and trace
// files exist and parse, the hosts named are the platform's, every swept ring size fits the
// platform and is the size of a given ring. Relative platform and trace file paths
// are resolved next to the experiment file first. A base that names no traces source gets the
// platform's default (run_config.hpp resolve_default_trace_source). The seeds draw the rings and
// the generated traces; a trace read from files or from the platform is the same in every run.
// A sweep of more than `max_runs` runs is refused before any run is built (each costs its config
// in memory and a folder on disk), and so is a sweep with a run whose sizes would hold more than
// `memory_bytes` (model/run_memory.hpp).
constexpr std::size_t kDefaultMaxRuns = 100000;
struct SweepLimits {
  std::size_t max_runs = kDefaultMaxRuns;
  double memory_bytes = kDefaultMemoryBudgetBytes;
};
Experiment load_experiment(const std::string& path, bool quick, const HostCount& host_count,
                           const SweepLimits& limits = {});

// The seeds of repetition k of base seed s (ring choice and speed traces).
std::uint64_t derived_seed(std::uint64_t seed, int repetition);

using io::fnv1a;  // the config hash (io/fnv1a.hpp)

// Whether a run's result holds every field runs_csv and the merge read, of the type they read: a
// result.json cut short, emptied or written by hand is not a finished run.
bool is_run_summary(const nlohmann::json& result);

// runs.csv from the per-run summaries (in run order; missing results are skipped).
std::string runs_csv(const Experiment& e, const std::vector<nlohmann::json>& results);

}  // namespace ringsim::sweep
