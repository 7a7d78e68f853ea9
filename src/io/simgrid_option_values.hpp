// The values of SimGrid 3.32 options that SimGrid accepts when they are set but cannot run with:
// it aborts (a bandwidth factor of 0, a max-min precision of 1), crashes (a stack of 1 KiB, a
// max-min precision of 1e-20), stops on SIGTRAP (debug/breakpoint) or never ends (a time
// precision of 0). Checked wherever an option enters (--cfg=, a run config's "simgrid", a
// platform's <config>) before any Engine exists, so that such a value is one line and exit 2.
#pragma once

#include <string>

namespace ringsim::io {

// Why SimGrid cannot run with option `name` at `value` ("must be > 0 (...)"), or "" when it can or
// when the option is not one ringsim checks. Values SimGrid cannot parse are left to SimGrid's
// own refusal.
std::string unrunnable_option_value(const std::string& name, const std::string& value);

// Throws InputError "SimGrid option NAME:VALUE WHERE: WHY" when unrunnable_option_value says why.
void refuse_unrunnable_option(const std::string& name, const std::string& value, const std::string& where);

// The same for a --cfg=name:value argument (a list of name:value pairs separated by spaces, commas
// or tabs); `where` names the source (" (--cfg)").
void refuse_unrunnable_cfg_argument(const std::string& argument, const std::string& where);

}  // namespace ringsim::io
