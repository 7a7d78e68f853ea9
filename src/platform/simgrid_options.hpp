// SimGrid's options as its users know them (--cfg=name:value, --log=...), and the few that
// ringsim sets itself. Order of precedence, highest first:
//   1. --cfg= on the command line (consumed by Engine(argc, argv));
//   2. the run config's "simgrid" object (set here, each only where the option is still default);
//   3. the run config's `network_model` preset: "linear" = CM02, TCP-gamma 0, cross-traffic off (the
//      papers' model, docs/design.md), "lv08" = LV08; applied only when nobody chose network/model, and
//      then each of its options only where still default (the platform's <config> comes after: a
//      setting of it that the preset replaces is stated, preset_override_warning);
//   4. ringsim's tracing default, when tracing is on: tracing/platform on (SimGrid 3.32 writes a
//      header-only trace with tracing alone, cannot trace actors on hosts with a speed profile
//      without it, and the application's phases are states of the host containers it creates).
// Everything in force that differs from SimGrid's defaults is read back for the run's summary.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/run_config.hpp"

namespace ringsim::platform {

using OptionList = std::vector<std::pair<std::string, std::string>>;

// Levels 2-4 above; `platform_settings` are the platform's <config> options, whose settings the
// preset replaces are recorded for preset_override_warning. Call after the Engine is built, before the platform is
// loaded. Throws InputError naming the option when SimGrid refuses a name or a value.
void apply_run_options(const OptionList& options, NetworkModel network, const OptionList& platform_settings = {});

// One line saying which settings of the platform's <config> the preset replaced (apply_run_options),
// and how to keep them; "" when none.
std::string preset_override_warning(const std::string& platform_path, NetworkModel network);

// The options whose value is not SimGrid's default, sorted by name, as SimGrid prints them.
OptionList options_in_force();

// "linear" or "lv08" when that preset is exactly in force, otherwise SimGrid's network/model.
// TCP-gamma 0 and kNoWindowGamma are both "no window" (see let_rate_caps_bind).
std::string network_model_in_force(const OptionList& in_force);

// Comm::set_rate must bind under the linear preset too. SimGrid 3.32's CM02 bounds a transfer over
// a route of latency L > 0 by min(rate, TCP-gamma / 2L), and lmm reads a bound of 0 as no bound:
// with TCP-gamma 0 (no window) a rate on such a route is dropped. A gamma of 1e200 is no window
// as well (gamma / 2L exceeds any bandwidth for L above 1e-100 s) and lets the rate bind.
// Under CM02 with TCP-gamma 0, sets it to kNoWindowGamma; otherwise changes nothing. Call after the
// platform is loaded, before the transfers start.
inline constexpr const char* kNoWindowGamma = "1e200";
void let_rate_caps_bind();

bool tracing_enabled();

// The first line of SimGrid's refusal of an option, with its "Did you mean" hint if any.
std::string option_refusal(const std::string& what);

}  // namespace ringsim::platform

namespace ringsim::platform {

// Whether SimGrid accepts the command line's --cfg/--log (argv, as for the Engine) and the config's
// "simgrid" and "simgrid_log": tried in a forked child (a bad model name or log setting makes SimGrid
// abort, not throw) that builds the Engine, sets the options and creates an empty zone (which
// instantiates the models). Throws InputError with one line naming the refused setting. Call before
// any Engine exists in this process.
void check_simgrid_setup(const RunConfig& cfg, const std::vector<std::string>& args);

// SimGrid's own help for the flags of cli/command_table.hpp (kSimgridHelp, --cfg=name:help), on
// standard output; SimGrid exits 0 once it has printed. Returns 2 (after one line) for an option
// SimGrid has no list of values for.
int print_simgrid_help(const std::vector<std::string>& flags);

// What SimGrid's parse_bool takes as true.
bool option_is_true(const std::string& value);

}  // namespace ringsim::platform
