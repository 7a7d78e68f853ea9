#include "io/simgrid_option_values.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "model/errors.hpp"

namespace ringsim::io {
namespace {

// A numeric option's runnable range [least, most], ends excluded where `open_*` says so, and why.
struct Range {
  const char* name;
  double least;
  bool open_least;
  double most;
  const char* why;
};

// Measured on SimGrid 3.32 with a ring of three hosts: each bound is where SimGrid stops with an
// abort, a crash or a hang (or, for the precisions, gives times off by the precision itself).
constexpr double kHuge = 1.7976931348623157e308;
constexpr Range kRanges[] = {
    {"network/bandwidth-factor", 0.0, true, kHuge, "must be > 0 (SimGrid aborts at 0 or below)"},
    {"network/latency-factor", 0.0, false, kHuge, "must be >= 0 (a negative latency)"},
    {"network/weight-S", 0.0, false, kHuge, "must be >= 0"},
    {"network/TCP-gamma", 0.0, false, kHuge, "must be >= 0 (0: no window)"},
    {"network/loopback-bw", 0.0, true, kHuge, "must be > 0 (bytes/s)"},
    {"network/loopback-lat", 0.0, false, kHuge, "must be >= 0 (seconds)"},
    {"maxmin/precision", 1e-15, false, 0.1, "must be in [1e-15, 0.1] (SimGrid crashes or aborts outside)"},
    {"bmf/precision", 0.0, true, 0.1, "must be in (0, 0.1]"},
    {"surf/precision", 0.0, true, 1e-3, "must be in (0, 0.001] seconds (at 0 or below the run never ends)"},
    {"contexts/stack-size", 64, false, 4194304, "must be in [64, 4194304] KiB (smaller stacks crash the actors)"},
    {"contexts/guard-size", 0, false, 1e6, "must be in [0, 1000000] pages"},
    {"bmf/max-iterations", 1, false, 2147483647, "must be >= 1"},
    {"tracing/precision", 0, false, 17, "must be in [0, 17] digits"},
};

// SimGrid 3.32's context factories on Debian (src/kernel/context/ContextFactory).
constexpr const char* kContextFactories[] = {"raw", "ucontext", "boost", "thread"};

bool read_double(const std::string& text, double& out) {
  errno = 0;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

std::string range_refusal(const Range& r, const std::string& value) {
  double v = 0.0;
  if (!read_double(value, v)) return "";  // SimGrid refuses what it cannot parse, naming the option
  const bool above_least = r.open_least ? v > r.least : v >= r.least;
  return above_least && v <= r.most ? "" : r.why;
}

std::string context_factory_refusal(const std::string& value) {
  std::string known;
  for (const char* f : kContextFactories) {
    if (value == f) return "";
    known += std::string(known.empty() ? "" : ", ") + f;
  }
  return "unknown context factory (known: " + known + ")";
}

std::string breakpoint_refusal(const std::string& value) {
  double v = 0.0;
  if (!read_double(value, v) || v < 0.0) return "";
  return "stops the process with SIGTRAP at that simulated time; ringsim runs without a debugger (a negative value "
         "is off)";
}

}  // namespace

std::string unrunnable_option_value(const std::string& name, const std::string& value) {
  if (name == "contexts/factory") return context_factory_refusal(value);
  if (name == "debug/breakpoint") return breakpoint_refusal(value);
  for (const auto& r : kRanges)
    if (name == r.name) return range_refusal(r, value);
  return "";
}

void refuse_unrunnable_option(const std::string& name, const std::string& value, const std::string& where) {
  const std::string why = unrunnable_option_value(name, value);
  if (!why.empty()) throw InputError("SimGrid option " + name + ":" + value + where + ": " + why);
}

void refuse_unrunnable_cfg_argument(const std::string& argument, const std::string& where) {
  std::string list = argument;
  for (auto& c : list)
    if (c == ',' || c == '\t' || c == '\n') c = ' ';  // as a sweep splits --cfg (sweep_checks.cpp)
  std::istringstream in(list);
  for (std::string pair; in >> pair;) {
    const auto colon = pair.find(':');
    if (colon != std::string::npos) refuse_unrunnable_option(pair.substr(0, colon), pair.substr(colon + 1), where);
  }
}

}  // namespace ringsim::io
