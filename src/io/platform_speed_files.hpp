// The speed profiles a SimGrid XML 4.1 platform file declares for its hosts (traces.source
// "platform"): a host's speed_file attribute, or a <trace> connected to it by
// <trace_connect kind="SPEED">. SimGrid attaches them at load and keeps their values to itself:
// ringsim reads the same files to know the speeds (traces.csv, oracle targets, ideal time).
// A relative file is found as SimGrid finds it: from the current directory, then beside the
// platform file.
#pragma once

#include <map>
#include <string>

namespace ringsim::io {

struct DeclaredSpeedProfile {
  std::string where;  // the profile's file, or "'platform' <trace id=...>" for an inline trace
  std::string text;   // lines "time multiplier" (and "LOOPAFTER d" when it repeats)
};

// Host name -> its declared speed profile; InputError when a named file cannot be read.
std::map<std::string, DeclaredSpeedProfile> declared_speed_profiles(const std::string& platform_path);

}  // namespace ringsim::io
