#include "sweep/sweep_checks.hpp"

#include <iostream>
#include <set>
#include <sstream>

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

#include "sweep/sweep_files.hpp"
#include "io/process.hpp"
#include "io/run_config_json.hpp"
#include "io/trace_files.hpp"
#include "model/errors.hpp"
#include "platform/platform_reader.hpp"
#include "platform/reachable_hosts.hpp"
#include "platform/simgrid_options.hpp"

namespace ringsim::sweep {

namespace fs = std::filesystem;

std::size_t usable_host_count(const std::string& platform, const std::vector<NamedHost>& named) {
  io::ChildValue count(
      [&] {
        auto& engine = platform::reading_engine();
        platform::LoadedPlatform lp(engine, platform);
        for (const auto& h : named)
          if (h.router_ok ? !engine.netpoint_by_name_or_null(h.name) : !engine.host_by_name_or_null(h.name))
            throw InputError(h.role + " '" + h.name + "' is not in platform '" + platform + "'");
        const auto sets = platform::reachable_sets(lp, lp.hosts());
        return sets.sets.empty() ? 0.0 : static_cast<double>(sets.sets.front().size());
      },
      "reading platform '" + platform + "'");
  return static_cast<std::size_t>(count.get());
}

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

void add_command_line_options(Experiment& e, const fs::path& out,
                              const std::vector<std::pair<std::string, std::string>>& options) {
  for (auto& run : e.runs) {
    nlohmann::json& cfg = run.config;
    if (!options.empty() && !cfg.contains("simgrid")) cfg["simgrid"] = nlohmann::json::object();
    for (const auto& [name, value] : options) cfg["simgrid"][name] = value;
    if (!cfg.contains("simgrid") || !cfg["simgrid"].is_object() || !cfg["simgrid"].contains("tracing")) continue;
    const auto& t = cfg["simgrid"]["tracing"];
    const std::string on = t.is_string() ? t.get<std::string>() : t.dump();
    if (!platform::option_is_true(on)) continue;
    std::string file = "simgrid.trace";
    if (cfg["simgrid"].contains("tracing/filename") && cfg["simgrid"]["tracing/filename"].is_string())
      file = fs::path(cfg["simgrid"]["tracing/filename"].get<std::string>()).filename().string();
    cfg["simgrid"]["tracing/filename"] = fs::absolute(paths_of(out, run).dir / file).lexically_normal().string();
  }
}

void check_trace_lines(const Experiment& e, const std::string& where, bool strict) {
  if (e.runs.empty()) return;
  const RunConfig cfg = io::parse_run_config(e.runs.front().config, where + " run " + e.runs.front().id);
  if (cfg.traces.source != TraceSource::files) return;
  io::ChildValue checked(
      [&] {
        auto& engine = platform::reading_engine();
        platform::LoadedPlatform lp(engine, cfg.platform);
        const auto lines = io::suspect_trace_lines(cfg, [&](const std::string& name) {
          const auto* h = engine.host_by_name_or_null(name);
          return h ? h->get_speed() : 0.0;
        });
        if (strict && !lines.empty()) throw InputError(where + ": " + lines.front());
        for (const auto& l : lines) std::cerr << "ringsim: warning: " << where << ": " << l << '\n';
        return 0.0;
      },
      "reading platform '" + cfg.platform + "'");
  checked.get();
}

void check_simgrid_setups(const Experiment& e, const std::string& where, const std::vector<std::string>& logs) {
  std::set<std::string> seen;
  for (const auto& run : e.runs) {
    const RunConfig cfg = io::parse_run_config(run.config, where + " run " + run.id);
    std::string key = std::string(to_string(cfg.network_model));
    for (const auto& [n, v] : cfg.simgrid) key += '\n' + n + ':' + (n == "tracing/filename" ? "" : v);
    for (const auto& l : cfg.simgrid_log) key += "\nlog " + l;
    if (!seen.insert(key).second) continue;
    try {
      platform::check_simgrid_setup(cfg, logs);
    } catch (const InputError& err) {
      throw InputError(where + " run " + run.id + ": " + err.what());
    }
  }
}

}  // namespace ringsim::sweep
