// The speed traces of a run's members (HiPC 2004, Figure 2), written as SimGrid profiles, and
// the ideal time they allow (every iteration balanced at the current speeds).
#include "sim/run_traces.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "io/files.hpp"
#include "io/fta_availability.hpp"
#include "io/planetlab_traces.hpp"
#include "io/platform_speed_files.hpp"
#include "io/trace_files.hpp"
#include "io/utilization_csv.hpp"
#include "model/errors.hpp"
#include "model/tiers_generator.hpp"
#include "planners/redistribution/load_balance.hpp"

namespace ringsim::sim {

// A lower bound on the run: every iteration perfectly balanced for the speeds the hosts have while
// it computes (columns divisible, loads set knowing the future), redistributions, rebuilds and the
// staging free (times counted from the start of iteration 1). A trace placed by iteration gives
// iteration it its multiplier of iteration it; a profile changes inside iterations, so its speed
// is integrated over the iteration's time (finish_of_pooled_work), never read once at its start.
double ideal_time(const RunSetup& s, const RingHistory& rings) {
  double t = 0.0;
  const double work = static_cast<double>(s.app.columns) * s.flops_per_column;
  std::size_t e = 0;
  std::vector<ProfiledHost> profiled;
  for (int it = 1; it <= s.app.iterations; ++it) {
    while (e + 1 < rings.size() && rings[e + 1].first <= it) ++e;
    const RingShape& ep = rings[e];
    double fixed = 0.0;
    profiled.clear();
    for (std::size_t i = 0; i < ep.peak.size(); ++i) {
      const HostTrace& trace = *ep.traces[i];
      if (placed_by_iteration(s, trace) || trace.changes.empty())
        fixed += ep.peak[i] * multiplier_during(s, trace, it, t, 0.0);
      else
        profiled.push_back({&trace, ep.peak[i]});
    }
    const double compute =
        profiled.empty() ? work / fixed : finish_of_pooled_work(profiled, fixed, s.iteration_time0, t, work, 0.0) - t;
    t += compute + ep.border_time;
  }
  return t;
}

// When each iteration starts (index k: iteration k; 0 counts as 1; beyond the run, one predicted
// iteration time each): after the run, as simulated; before it (`ringsim traces`), predicted: the
// initial plan's loads, each iteration at the speeds the traces placed by iteration give it
// (profiles at their peak: the nominal prediction).
static std::vector<double> iteration_starts(const RunSetup& s, const RingShape& ring, const RunOutputs& out,
                                            bool after_run) {
  const int n = s.app.iterations;
  std::vector<double> start(static_cast<std::size_t>(n) + 2, s.time_origin);
  if (after_run && !out.iterations.empty()) {
    for (const auto& rec : out.iterations) start[static_cast<std::size_t>(rec.iteration)] = rec.start;
    start[0] = start[1];
    start[static_cast<std::size_t>(n) + 1] = out.iterations.back().end;
    return start;
  }
  const std::vector<Count> loads = redistribution::balanced_targets(ring.peak, s.app.columns);
  std::vector<double> speeds(ring.n);
  for (int it = 1; it <= n; ++it) {
    for (std::size_t i = 0; i < ring.n; ++i)
      speeds[i] = ring.peak[i] * (placed_by_iteration(s, *ring.traces[i]) ? multiplier_at_iteration(*ring.traces[i], it) : 1.0);
    start[static_cast<std::size_t>(it) + 1] = start[static_cast<std::size_t>(it)] + predicted_tstep(s, ring, loads, speeds);
  }
  return start;
}

// traces.csv (one row per host and speed level) and one SimGrid profile file per host that is ever
// a ring member. Rows of time-indexed changes (traces from files) have an empty iteration; a
// periodic trace's rows cover every period up to the run's end (after the run: as simulated;
// before: the nominal prediction, origin + iterations * the first iteration's predicted time).
// A change given by iteration is at the start of its iteration (placement iteration: as simulated
// after the run, predicted before; its profile file then holds these times), or at origin +
// iteration * the first iteration's predicted time (placement nominal-time, the attached profile).
void write_traces(const RunSetup& s, const RingShape& ring, const RunOutputs& out, const std::string& dir,
                  bool after_run) {
  const std::vector<double> starts = iteration_starts(s, ring, out, after_run);
  const double end = after_run && !out.iterations.empty()
                         ? out.iterations.back().end
                         : s.time_origin + static_cast<double>(s.app.iterations) * s.iteration_time0;
  const auto start_of = [&](int k) {
    const auto last = static_cast<int>(starts.size()) - 1;
    if (k <= last) return starts[static_cast<std::size_t>(std::max(k, 0))];
    return starts.back() + static_cast<double>(k - last) * s.iteration_time0;
  };
  std::ostringstream csv;
  csv.precision(17);
  csv << "host,peak_flops,iteration,time,multiplier,speed_flops\n";
  // The profiles and traces.csv are written as one set (none of them when one cannot be); a host's
  // profile is named by io::file_name_of, so that it stays in `dir` and is its own.
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& t : s.all_traces) {
    const std::string host = io::csv_field(t.host);
    // Time-indexed changes at time 0 (a profile's first line) set the first row, as in the profile.
    std::size_t first = 0;
    double initial = 1.0;
    while (first < t.changes.size() && t.changes[first].timed() && s.time_origin + t.changes[first].time <= 0.0)
      initial = t.changes[first++].multiplier;
    if (first == 0) csv << host << ',' << t.peak_speed << ",0,0,1," << t.peak_speed << '\n';
    else csv << host << ',' << t.peak_speed << ",0,0," << initial << ',' << initial * t.peak_speed << '\n';
    const bool placed = placed_by_iteration(s, t);
    // After the run, a change placed by iteration took effect when this host's member began that
    // iteration (members of a ring start an iteration at different times); otherwise, or on a host
    // that was not a member then, at the iteration's start.
    const std::vector<double>* own = nullptr;
    if (after_run)
      if (const auto found = out.computed_from.find(sg4::Host::by_name_or_null(t.host));
          found != out.computed_from.end())
        own = &found->second;
    const auto start_on_host = [&](int k) {
      const auto at = static_cast<std::size_t>(std::max(k, 1));
      return own && at < own->size() && (*own)[at] >= 0.0 ? (*own)[at] : start_of(k);
    };
    if (!t.changes.empty() && t.changes.front().timed()) {
      // Time-indexed (traces from files): the iteration column is empty, the time is exact.
      const auto steps = unrolled_changes(t, s.iteration_time0, end, s.time_origin);
      for (std::size_t k = first; k < steps.size(); ++k)
        csv << host << ',' << t.peak_speed << ",," << steps[k].first << ',' << steps[k].second << ','
            << steps[k].second * t.peak_speed << '\n';
    } else {
      for (const SpeedChange& c : t.changes)
        csv << host << ',' << t.peak_speed << ',' << c.iteration << ','
            << (placed ? start_on_host(c.iteration) : s.time_origin + c.iteration * s.iteration_time0) << ','
            << c.multiplier << ',' << c.multiplier * t.peak_speed << '\n';
    }
    files.emplace_back(
        io::file_name_of(t.host) + ".profile",
        placed ? speed_profile_text(timed_by_iteration_start(t, start_on_host, s.time_origin), s.iteration_time0, s.time_origin)
               : speed_profile_text(t, s.iteration_time0, s.time_origin));
  }
  files.emplace_back("traces.csv", csv.str());
  io::write_file_set(dir, files);
}

// The FTA source's traces: each member's node by the config's map, or the file's nodes in order.
// A 'nodes' entry for a host the platform does not have is a misspelt name: with a ring drawn at
// random or chosen by the planner it would leave the member it meant on another node (the config
// reader checks the entries against a given ring's hosts; the platform is known only here).
static void check_fta_nodes_on_platform(const FtaTraceConfig& f, const std::string& platform) {
  for (const auto& [host, node] : f.nodes)
    if (sg4::Host::by_name_or_null(host) == nullptr)
      throw InputError("traces 'nodes' names host '" + host + "', which is not on the platform '" + platform +
                       "' (FTA file '" + f.file + "')");
}

// Every host the trace files name is on the platform (io::trace_file_hosts says why); hosts of
// the platform outside the ring are fine: their lines are not used.
static void check_trace_hosts_on_platform(const RunConfig& cfg) {
  for (const auto& h : io::trace_file_hosts(cfg))
    if (sg4::Host::by_name_or_null(h.name) == nullptr)
      throw InputError(h.role + " '" + h.name + "' is not in platform '" + cfg.platform + "'");
}

std::vector<std::string> suspect_trace_lines(const RunConfig& cfg) {
  return io::suspect_trace_lines(cfg, [](const std::string& name) {
    const sg4::Host* h = sg4::Host::by_name_or_null(name);
    return h ? h->get_speed() : 0.0;
  });
}

static std::vector<HostTrace> fta_traces(const FtaTraceConfig& f, const std::string& platform,
                                         const std::vector<std::pair<std::string, double>>& named) {
  check_fta_nodes_on_platform(f, platform);
  const io::FtaEventTrace trace = io::read_fta_event_trace(f.file);
  if (f.nodes.empty() && named.size() > trace.nodes.size())
    throw InputError("FTA event trace '" + f.file + "' has " + std::to_string(trace.nodes.size()) + " node(s), the run " +
                     std::to_string(named.size()) + " member(s) (map some to the same node with traces 'nodes')");
  std::vector<HostTrace> traces;
  for (std::size_t i = 0; i < named.size(); ++i) {
    const auto& [name, peak] = named[i];
    std::string node;
    if (f.nodes.empty()) {
      node = trace.nodes[i];
    } else {
      const auto it =
          std::find_if(f.nodes.begin(), f.nodes.end(), [&host = name](const auto& p) { return p.first == host; });
      if (it == f.nodes.end())
        throw InputError("no FTA node for host '" + name + "' in traces 'nodes' (every member needs one)");
      node = it->second;
    }
    traces.push_back(io::fta_host_trace(trace, node, name, peak, f.unavailable_multiplier, f.time_scale));
  }
  return traces;
}

// One trace per host that is ever a member: the initial ring's first (in ring order), then the
// rebuilt rings' newcomers, so that adding a rebuild does not change the first ring's traces.
// Speeds of trace files above a host's peak are kept and added to `above`.
std::vector<HostTrace> traces_for(const RunConfig& cfg, const std::vector<sg4::Host*>& ring,
                                  const std::vector<std::vector<sg4::Host*>>& rebuilt,
                                  std::vector<SpeedAbovePeak>* above) {
  std::vector<std::pair<std::string, double>> named;
  std::set<std::string> seen;
  auto add = [&](const sg4::Host* h) {
    if (seen.insert(h->get_name()).second) named.emplace_back(h->get_name(), h->get_speed());
  };
  for (const auto* h : ring) add(h);
  for (const auto& rr : rebuilt)
    for (const auto* h : rr) add(h);
  if (cfg.traces.source == TraceSource::random_walk) {
    RandomWalkSpec rw = cfg.traces.random_walk;
    rw.seed = cfg.traces.seed;
    return random_walk_traces(named, rw, cfg.iterations);
  }
  if (cfg.traces.source == TraceSource::on_off) {
    OnOffSpec oo = cfg.traces.on_off;
    oo.seed = cfg.traces.seed;
    return on_off_traces(named, oo, cfg.iterations);
  }
  if (cfg.traces.source == TraceSource::daily) {
    DailySpec d = cfg.traces.daily;
    d.seed = cfg.traces.seed;
    return daily_traces(named, d, cfg.iterations);
  }
  if (cfg.traces.source == TraceSource::fta) return fta_traces(cfg.traces.fta, cfg.platform, named);
  if (cfg.traces.source == TraceSource::planetlab)
    return io::planetlab_host_traces(cfg.traces.real, cfg.traces.seed, named, cfg.iterations);
  if (cfg.traces.source == TraceSource::utilization_csv)
    return io::utilization_csv_host_traces(cfg.traces.real, cfg.traces.seed, named, cfg.iterations);
  // A member without a trace of its own keeps its peak speed (files with "default": "constant";
  // the platform's hosts without a profile).
  auto constant = [](const std::string& name, double peak) { return HostTrace{name, peak, {}}; };
  if (cfg.traces.source == TraceSource::platform) {
    // The profiles SimGrid attached at load, read from the same files (it keeps their values).
    const auto declared = io::declared_speed_profiles(cfg.platform);
    std::vector<HostTrace> traces;
    for (const auto& [name, peak] : named) {
      const auto it = declared.find(name);
      traces.push_back(it == declared.end() ? constant(name, peak)
                                            : io::parse_speed_profile(it->second.text, it->second.where, name, peak, above));
    }
    return traces;
  }
  if (cfg.traces.source == TraceSource::files) {
    check_trace_hosts_on_platform(cfg);
    std::vector<HostTrace> traces;
    if (!cfg.traces.csv.empty()) {
      const io::SpeedCsv csv = io::read_speed_csv(cfg.traces.csv);
      for (const auto& [name, peak] : named)
        if (io::has_trace(csv, name)) traces.push_back(io::csv_trace(csv, name, peak, above));
        else if (cfg.traces.default_constant) traces.push_back(constant(name, peak));
        else throw InputError("no speed trace for host '" + name + "' in '" + csv.path + "' (\"default\": \"constant\" "
                              "keeps such members at their peak speed)");
      return traces;
    }
    for (const auto& [name, peak] : named) {
      const auto it = std::find_if(cfg.traces.profiles.begin(), cfg.traces.profiles.end(),
                                   [&host = name](const auto& p) { return p.first == host; });
      if (it != cfg.traces.profiles.end()) traces.push_back(io::read_speed_profile(it->second, name, peak, above));
      else if (cfg.traces.default_constant) traces.push_back(constant(name, peak));
      else throw InputError("no speed trace for host '" + name + "' in traces 'profiles' (\"default\": \"constant\" "
                            "keeps such members at their peak speed)");
    }
    return traces;
  }
  TraceSpec spec;
  spec.seed = cfg.traces.seed;
  spec.windows = cfg.traces.windows;
  spec.factor_low = cfg.traces.factor.low;
  spec.factor_high = cfg.traces.factor.high;
  if (draws_from_2004_machine_list(cfg))
    for (double mf : embedded_measured_values().machine_mflops) spec.speed_list.push_back(mf * 1e6);
  return generate_speed_traces(named, spec);
}

}  // namespace ringsim::sim
