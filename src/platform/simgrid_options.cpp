#include "platform/simgrid_options.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include <simgrid/s4u/Engine.hpp>
#include <xbt/config.hpp>
#include <xbt/log.h>

#include "io/platform_formats.hpp"
#include "io/process.hpp"
#include "model/errors.hpp"
#include "platform/simgrid_log.hpp"

namespace ringsim::platform {
namespace {

bool is_default(const std::string& name) { return simgrid::config::is_default(name.c_str()); }

void set_option(const std::string& name, const std::string& value, const std::string& where) {
  try {
    simgrid::config::set_as_string(name.c_str(), value);
  } catch (const std::exception& e) {
    throw InputError("SimGrid option " + name + ":" + value + where + ": " + option_refusal(e.what()));
  }
}

// The platform's <config> settings that the run's preset replaced (apply_network_preset).
OptionList& overridden_platform_settings() {
  static OptionList overridden;
  return overridden;
}

// The papers' linear cost model (time = latency + size / bandwidth, fair sharing) or SimGrid's LV08,
// applied only when nobody chose the model: a model chosen by the user (--cfg, the config's
// "simgrid") comes with SimGrid's defaults for the rest, as it would in any SimGrid program. The
// preset is the run's choice over the platform's <config> (a platform is often shared between
// studies); each of its settings that it replaces is recorded, for the run to say so.
void apply_network_preset(NetworkModel network, const OptionList& platform_settings) {
  const auto set_if_default = [&](const std::string& name, const std::string& value) {
    if (!is_default(name)) return;
    for (const auto& [n, v] : platform_settings)
      if (n == name && v != value) overridden_platform_settings().emplace_back(n, v);
    simgrid::config::set_as_string(name.c_str(), value);
  };
  if (!is_default("network/model")) return;
  if (network == NetworkModel::lv08) {
    set_if_default("network/model", "LV08");
    return;
  }
  set_if_default("network/model", "CM02");
  set_if_default("network/TCP-gamma", "0");
  set_if_default("network/crosstraffic", "0");
}

void apply_tracing_defaults() {
  if (tracing_enabled() && is_default("tracing/platform")) simgrid::config::set_as_string("tracing/platform", "yes");
}

std::string value_in(const OptionList& list, const std::string& name, const std::string& otherwise) {
  for (const auto& [n, v] : list)
    if (n == name) return v;
  return otherwise;
}

// As options_in_force reads TCP-gamma back once let_rate_caps_bind has set it.
std::string no_window_gamma_as_printed() {
  static const std::string printed = [] {
    char text[32];
    std::snprintf(text, sizeof text, "%g", std::stod(kNoWindowGamma));
    return std::string(text);
  }();
  return printed;
}

}  // namespace

std::string option_refusal(const std::string& what) {
  const auto nl = what.find('\n');
  std::string line = what.substr(0, nl);
  if (nl != std::string::npos) {
    const auto hint = what.find("Did you mean", nl);
    if (hint != std::string::npos) line += " (" + what.substr(hint, what.find('\n', hint) - hint) + ")";
  }
  if (line.rfind("Bad config key", 0) == 0) line += " (ringsim --help-cfg lists them)";
  return line;
}

void apply_run_options(const OptionList& options, NetworkModel network, const OptionList& platform_settings) {
  for (const auto& [name, value] : options) {
    try {
      if (!is_default(name)) continue;  // --cfg on the command line wins
    } catch (const std::exception& e) {
      throw InputError("SimGrid option " + name + ":" + value + " in 'simgrid': " + option_refusal(e.what()));
    }
    set_option(name, value, " in 'simgrid'");
  }
  apply_network_preset(network, platform_settings);
  // The loader's INFO line about each replaced setting ("already defined by user!") would be a
  // second line beside preset_override_warning's.
  if (!overridden_platform_settings().empty()) xbt_log_control_set("surf_parse.thres:warning");
  apply_tracing_defaults();
}

// SimGrid 3.32 has no call that lists its options; the refusal of an unknown name lists every
// option with its current value ("  name: (type)value"), and is_default tells which were set.
OptionList options_in_force() {
  std::string listing;
  try {
    simgrid::config::is_default("ringsim/list-every-option");
  } catch (const std::out_of_range& e) {
    listing = e.what();
  }
  OptionList in_force;
  const auto start = listing.find("Existing config keys:\n");
  if (start == std::string::npos) return in_force;
  for (std::size_t at = listing.find('\n', start) + 1; at < listing.size();) {
    auto end = listing.find('\n', at);
    if (end == std::string::npos) end = listing.size();
    const std::string line = listing.substr(at, end - at);
    at = end + 1;
    const auto colon = line.find(": (");
    const auto close = line.find(')', colon == std::string::npos ? 0 : colon);
    if (colon == std::string::npos || close == std::string::npos) continue;
    const auto first = line.find_first_not_of(' ');
    const std::string name = line.substr(first, colon - first);
    if (!is_default(name)) in_force.emplace_back(name, line.substr(close + 1));
  }
  std::sort(in_force.begin(), in_force.end());
  return in_force;
}

std::string preset_override_warning(const std::string& platform_path, NetworkModel network) {
  const OptionList& overridden = overridden_platform_settings();
  if (overridden.empty()) return "";
  std::string settings, keep;
  for (const auto& [name, value] : overridden) {
    settings += (settings.empty() ? "" : ", ") + name + ":" + value;
    keep += " --cfg=" + name + ":" + value;
  }
  return "platform '" + platform_path + "' sets " + settings + " in its <config>; the run's network_model preset '" +
         to_string(network) + "' replaces it (" + keep.substr(1) + " or the config's \"simgrid\" keeps the platform's)";
}

std::string network_model_in_force(const OptionList& in_force) {
  const std::string model = value_in(in_force, "network/model", "LV08");
  const std::string gamma = value_in(in_force, "network/TCP-gamma", "");
  if (model == "CM02" && (gamma == "0" || gamma == no_window_gamma_as_printed()) &&
      value_in(in_force, "network/crosstraffic", "") == "0")
    return "linear";
  if (model == "LV08") return "lv08";
  return model;
}

void let_rate_caps_bind() {
  if (simgrid::config::get_value<std::string>("network/model") == "CM02" &&
      simgrid::config::get_value<double>("network/TCP-gamma") == 0.0)
    simgrid::config::set_as_string("network/TCP-gamma", kNoWindowGamma);
}

bool option_is_true(const std::string& value) {
  return value == "yes" || value == "on" || value == "true" || value == "1";
}

namespace {

// In the child: everything SimGrid does with the settings before a platform is read, one setting
// at a time so that a refusal names its setting.
[[noreturn]] void try_setup(const RunConfig& cfg, const std::vector<std::string>& args) {
  std::vector<std::string> storage{"ringsim"};
  std::vector<char*> argv{storage.front().data(), nullptr};
  int argc = 1;
  simgrid::s4u::Engine engine(&argc, argv.data());
  auto refuse = [](const std::string& setting, const std::string& why) {
    std::fprintf(stderr, "\nRINGSIM-REFUSED %s: %s\n", setting.c_str(), why.c_str());
    io::end_child(2);
  };
  std::vector<std::string> logs;
  for (const auto& l : cfg.simgrid_log) logs.push_back("--log=" + l + " (in 'simgrid_log')");
  for (const auto& a : args)
    if (a.rfind("--log=", 0) == 0) logs.push_back(a);
  for (const auto& l : logs) {
    const std::string setting = l.substr(6, l.find(' ') == std::string::npos ? std::string::npos : l.find(' ') - 6);
    std::fprintf(stderr, "\nRINGSIM-TRYING %s\n", l.c_str());
    std::fflush(nullptr);
    try {
      xbt_log_control_set(setting.c_str());
    } catch (const std::exception& e) {
      refuse(l, option_refusal(e.what()));
    }
  }
  for (const auto& a : args) {
    if (a.rfind("--cfg=", 0) != 0) continue;
    std::fprintf(stderr, "\nRINGSIM-TRYING %s\n", a.c_str());
    std::fflush(nullptr);
    try {
      simgrid::config::set_parse(a.substr(6));
    } catch (const std::exception& e) {
      refuse(a, option_refusal(e.what()));
    }
  }
  std::fprintf(stderr, "\nRINGSIM-TRYING the config's 'simgrid' options\n");
  std::fflush(nullptr);
  try {
    apply_run_options(cfg.simgrid, cfg.network_model,
                      cfg.platform.empty() ? OptionList{} : io::platform_config_options(cfg.platform));
  } catch (const std::exception& e) {
    refuse("the config's 'simgrid'", e.what());
  }
  if (tracing_enabled()) simgrid::config::set_as_string("tracing/filename", "/dev/null");  // the run's own, not this
  std::fprintf(stderr, "\nRINGSIM-TRYING the models chosen (network/model, cpu/model, host/model...)\n");
  std::fflush(nullptr);
  try {
    simgrid::s4u::create_full_zone("ringsim-option-check")->seal();
  } catch (const std::exception& e) {
    refuse("the models chosen", option_refusal(e.what()));
  }
  io::end_child(0);  // the Engine on this stack is not torn down
}

// The setting the child was trying when it died, and SimGrid's reason.
std::string refusal_in(const std::string& log) {
  const auto refused = log.rfind("RINGSIM-REFUSED ");
  if (refused != std::string::npos) return log.substr(refused + 16, log.find('\n', refused) - refused - 16);
  const auto trying = log.rfind("RINGSIM-TRYING ");
  const std::string setting =
      trying == std::string::npos ? "the SimGrid options" : log.substr(trying + 15, log.find('\n', trying) - trying - 15);
  const std::string why = abort_reason(log);
  return setting + ": " + (why.empty() ? "SimGrid refused it" : why);
}

}  // namespace

// Only options someone chose can be refused: without any from the command line, the config or the
// platform's <config>, SimGrid runs with its defaults and ringsim's network presets, which it takes.
static bool chooses_simgrid_options(const RunConfig& cfg, const std::vector<std::string>& args) {
  const bool on_command_line = std::any_of(args.begin(), args.end(), [](const std::string& a) {
    return a.rfind("--cfg=", 0) == 0 || a.rfind("--log=", 0) == 0;
  });
  return on_command_line || !cfg.simgrid.empty() || !cfg.simgrid_log.empty() ||
         (!cfg.platform.empty() && !io::platform_config_options(cfg.platform).empty());
}

void check_simgrid_setup(const RunConfig& cfg, const std::vector<std::string>& args) {
  if (!cfg.platform.empty()) io::platform_config_options(cfg.platform);  // refuses what SimGrid cannot run with
  if (!chooses_simgrid_options(cfg, args)) return;
  const ChildOutcome child = in_child_with_log([&] { try_setup(cfg, args); }, "ringsim-option-check");
  if (!child.ok) throw InputError("SimGrid refuses " + refusal_in(child.said));
}

int print_simgrid_help(const std::vector<std::string>& flags) {
  std::vector<std::string> args{"ringsim", "--log=xbt_cfg.thres:warning"};
  for (const auto& f : flags) {
    if (f == "--help-cfg" || f == "--cfg=help") args.emplace_back("--cfg-help");
    else if (f == "--log=help") args.emplace_back("--help-logs");
    else args.push_back(f);
  }
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());
  try {
    simgrid::s4u::Engine engine(&argc, argv.data());  // prints, then exits 0
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ringsim: error: %s\n", option_refusal(e.what()).c_str());
    return 2;
  }
  std::string asked;
  for (const auto& f : flags) asked += (asked.empty() ? "" : " ") + f;
  std::fprintf(stderr, "ringsim: error: SimGrid has no list of values for %s (ringsim --help-cfg describes every option)\n",
               asked.c_str());
  return 2;
}

bool tracing_enabled() { return simgrid::config::get_value<bool>("tracing"); }

}  // namespace ringsim::platform
