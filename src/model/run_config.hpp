// One simulation run of the iterative application (`ringsim simulate CONFIG`): what to simulate.
// Plain values: the simulation (src/sim/) reads it, the sweep (src/sweep/) writes one per
// run; its JSON form is io/run_config_json.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/platform_graph.hpp"
#include "model/real_traces.hpp"
#include "model/storage_cluster.hpp"
#include "model/trace_families.hpp"

namespace ringsim {

// When to redistribute: the name of a redistribution policy (src/policy/), checked by the
// simulation layer's registry: none, once, every-K, after:a,b,..., adaptive, adaptive-gather-K...
// Whether its policy ever redistributes is the registry's answer (policy::scheme_redistributes),
// asked where it matters, so that nothing derived from the name can go stale.
struct Scheme {
  std::string name = "none";
};

enum class RingSelection { random, hosts, planner };
enum class TargetMode { oracle, measured };
enum class NetworkModel { linear, lv08 };

const char* to_string(RingSelection s);
const char* to_string(TargetMode m);
const char* to_string(NetworkModel m);

// Staging (KPBS seed, Figure 1): before iteration 1 the matrix lies on a storage cluster joined to
// the platform by a backbone ending at `gateway`; it reaches the ring members with a KPBS schedule.
struct StagingConfig {
  bool enabled = false;
  StorageClusterSpec cluster;
  std::string gateway;           // a platform host; empty: the first ring member
  std::size_t k = 0;             // 0: the interference-free concurrency of the routes; capped at min(v1, v2)
  double beta = 0.0;             // setup delay of a step, s
  std::string algorithm = "ggp";
  bool overlap = false;          // members start once they hold their columns, not when all is staged
};

// A rebuild: after iteration `after` the ring moves to another set of processors (drawn at random
// from the platform's hosts, or given), and the old holders hand their columns to the new ones
// with a KPBS schedule.
struct RebuildConfig {
  int after = 0;
  std::vector<std::string> hosts;  // given hosts, in ring order; empty: a random draw
  int size = 0;                    // random draw: how many (default: the current ring's size)
  std::uint64_t seed = 0;          // random draw (default: ring seed + 1 + the rebuild's index)
  std::size_t k = 0;
  double beta = 0.0;
  std::string algorithm = "ggp";
  bool overlap = false;
};

// Traces source "fta": CPU availability from a Failure Trace Archive event_trace file
// (io/fta_availability.hpp), fixed whatever the seed. Each ring member is given a node: by `nodes`
// (host -> node_id), or, when empty, the file's nodes in order of first appearance, to the members
// in their order (the initial ring's, then rebuilt rings' newcomers).
struct FtaTraceConfig {
  std::string file;
  std::vector<std::pair<std::string, std::string>> nodes;  // host -> node_id
  // The speed while unavailable, as a fraction of the peak: > 0, because a SimGrid speed profile
  // at 0 stops the host's work with no end the models can predict (ringsim's profile readers refuse
  // 0 for the same reason); 0.01 makes an unavailable period 100 times slower.
  double unavailable_multiplier = 0.01;
  double time_scale = 1.0;  // seconds of trace per simulated second
};

// Traces sources "planetlab" and "utilization-csv": measured CPU utilization (or load averages),
// turned into shares of the peak by `availability` (model/real_traces.hpp). The series form a set
// (planetlab: the files of `folder` or `files`; utilization-csv: the machines of `file`), and each
// member draws its own series, and its offset when random, by the run's trace seed.
struct RealTraceConfig {
  // planetlab `set`, a folder or a list of files: two fields, since the canonical JSON writes back
  // the form given.
  std::string folder;               // planetlab: every file in it (names starting with '.' aside)
  std::vector<std::string> files;   // planetlab: or these files
  double period = 300.0;            // planetlab: seconds per sample (CoMon's 5-minute averages)
  // planetlab: the samples every file holds (a day of 300 s samples: 288); utilization-csv: the
  // least number of rows of a machine.
  std::size_t samples = 288;
  std::string file;                 // utilization-csv
  std::string time_column = "time";
  std::string machine_column = "machine";
  std::string value_column;
  AvailabilitySpec availability;
};

// The range of a run's ratio: beyond it a column's work and its message differ by more than
// SimGrid's solver resolves. (What a run's sizes cost in memory: model/run_memory.hpp.)
constexpr double kLeastRatio = 1e-12;
constexpr double kGreatestRatio = 1e12;

// The fixed schemes of HiPC 2004, Figures 3 and 4: what a reference is checked against by default.
inline std::vector<std::string> default_reference_check() { return {"none", "once", "every-20", "every-10", "every-5"}; }

// Where a run's ring comes from (run config `ring`, docs/configs.md#ring).
struct RingConfig {
  RingSelection selection = RingSelection::random;
  int size = 8;
  std::vector<std::string> hosts;  // selection == hosts
  std::string method = "greedy";   // selection == planner
  RingRouting routing = RingRouting::automatic;  // selection == planner: how the planner routes
  std::size_t candidates = 0;      // selection == planner: the N fastest hosts only (0: all)
  std::uint64_t seed = 1;
};

// The source of the members' speeds (run config `traces` `source`, docs/traces.md), named in configs
// by to_string (io::config_keys::trace_sources lists them). `unnamed`: the config names none, and
// the platform decides (resolve_default_trace_source); until it has, the run reads as `measured`,
// the paper's setting.
// measured: new speeds drawn from the 2004 machine list; factor: each host's speed times a factor;
// platform: the speed profiles the platform file declares, as SimGrid attached them.
enum class TraceSource { measured, factor, files, platform, random_walk, on_off, daily, fta, planetlab,
                         utilization_csv, unnamed };
// Its name in a config (measured for unnamed).
const char* to_string(TraceSource s);

// Traces source factor: the range of the factor a new speed is the current one times.
struct FactorRange {
  double low = 0.5, high = 1.5;
};

// A run's speed traces (run config `traces`): one source, and the keys of each source. (A Paje trace
// of the simulation is a SimGrid option: `simgrid`, below.)
struct SpeedTracesConfig {
  TraceSource source = TraceSource::unnamed;
  std::uint64_t seed = 1;
  FactorRange factor;  // factor
  std::vector<std::pair<int, int>> windows = {{20, 40}, {60, 80}};  // measured and factor
  std::vector<std::pair<std::string, std::string>> profiles;  // files: host -> profile path
  std::string csv;                                            // files: or one CSV of speeds
  // files `default`: a member without a trace in them keeps its peak speed (true: "constant") or is
  // refused (false: "refuse"). Named for the value it tells apart: `default` is a C++ keyword.
  bool default_constant = false;
  RandomWalkSpec random_walk;
  OnOffSpec on_off;
  DailySpec daily;
  FtaTraceConfig fta;
  RealTraceConfig real;  // planetlab and utilization-csv
  // Changes given by iteration (every source but SimGrid profiles and a CSV by time) take effect at
  // the start of their iteration (iteration), or at iteration * the first iteration's predicted
  // time (nominal-time: the placement the paper regression's kept results were made with).
  TracePlacement placement = TracePlacement::iteration;
};

// Each field is named as its top-level key in the JSON form, whose key table (io/run_config_json.hpp,
// run_config_keys) reads, checks and writes it.
struct RunConfig {
  // SimGrid XML file; by default the 2004 paper's 90-host platform, platforms/paper2004_tiers90.xml
  std::string platform = "platforms/paper2004_tiers90.xml";
  RingConfig ring;
  int rows = 1000;
  int columns = 1000;
  int iterations = 100;
  double ratio = 1.0;                // column update time / column transfer time (ring means)
  Scheme scheme;
  std::string algorithm = "auto";    // redistribution planner
  TargetMode targets = TargetMode::oracle;  // the speeds a decision on gathered reports balances for
  SpeedTracesConfig traces;
  NetworkModel network_model = NetworkModel::linear;
  // SimGrid's own options ("simgrid": {"network/model": "LV08", ...}), as --cfg=name:value would
  // give them, and log settings ("simgrid_log": ["ringsim_app.thres:debug", ...]) as --log=. Order of
  // precedence: --cfg on the command line, then these, then `network_model`'s preset
  // (platform/simgrid_options.hpp).
  std::vector<std::pair<std::string, std::string>> simgrid;
  std::vector<std::string> simgrid_log;
  double decision_flops = 1e6;       // the planner's work at a redistribution point, per member
  double report_bytes = 16;          // one member's report in the all-gather
  bool baseline = true;              // also simulate scheme "none" (another process) to normalize
  // The fixed schemes a clairvoyant reference (hindsight, hindsight-targets) is simulated against:
  // it reports the fastest of its own points and these (empty: its points, unchecked). The default
  // is the paper's five.
  std::vector<std::string> reference_check = default_reference_check();
  StagingConfig staging;
  std::vector<RebuildConfig> rebuild;  // increasing `after`
};

// The traces source a run uses: measured, factor, files, random-walk, on-off, daily, fta or platform.
std::string trace_source_name(const RunConfig& cfg);
// Whether the run's new speeds are drawn from the 2004 machine list (tiers_generator's
// embedded_measured_values): the paper's setting, meaningful only on the paper's platform.
bool draws_from_2004_machine_list(const RunConfig& cfg);
// A config that names no traces source gets `measured` on the paper's platform (the paper's
// figures) and `factor` elsewhere (each host's own speed times a factor in [low, high]): the 2004
// machines' speeds (17-138 Mflop/s) mean nothing on another platform's hosts.
void resolve_default_trace_source(RunConfig& cfg, bool paper_platform);


}  // namespace ringsim
