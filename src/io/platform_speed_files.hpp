// The speed profiles a SimGrid XML 4.1 platform file declares for its hosts (traces.source
// "platform"): a host's speed_file attribute, or a <trace> connected to it by
// <trace_connect kind="SPEED">. SimGrid attaches them at load and keeps their values to itself:
// ringsim reads the same files to know the speeds (traces.csv, oracle targets, ideal time).
// A relative file is found as SimGrid finds it: from the current directory, then beside the
// platform file.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace pugi {
class xml_document;
}

namespace ringsim::io {

struct DeclaredSpeedProfile {
  std::string where;  // the profile's file, or "'platform' <trace id=...>" for an inline trace
  std::string text;   // lines "time multiplier" (and "LOOPAFTER d" when it repeats)
};

// Host name -> its declared speed profile; InputError when a named file cannot be read.
std::map<std::string, DeclaredSpeedProfile> declared_speed_profiles(const std::string& platform_path);

// A profile of the platform file that SimGrid applies itself: a host's speed or state
// (speed_file, state_file, <trace_connect kind="SPEED|HOST_AVAIL">; <peer> elements too) or a
// link's bandwidth, latency or state (bandwidth_file, latency_file, state_file,
// kind="BANDWIDTH|LATENCY|LINK_AVAIL"), with its values.
struct PlatformProfile {
  bool host = true;     // a host's profile, else a link's
  std::string element;  // the host's or link's id
  std::string what;     // "speed", "state", "bandwidth", "latency"
  std::string where;    // the profile's file ('file'), or 'platform' <trace id='...'>
  std::vector<std::pair<double, double>> points;  // (time, value); LOOPAFTER and comments aside
};

// Every such profile of the platform, in document order (files found as SimGrid finds them);
// InputError when a named file cannot be read. Read once per process (io/platform_file.hpp).
const std::vector<PlatformProfile>& platform_profiles(const std::string& platform_path);
// The same, from the platform's parsed document (what platform_file.cpp reads once).
std::vector<PlatformProfile> profiles_in(const pugi::xml_document& doc, const std::string& platform_path);

// The first point whose value is outside [least, most] (NaN too), if any.
const std::pair<double, double>* first_outside(const PlatformProfile& p, double least, double most);

// "host 'b' is turned off at t = 0.05 s by its state profile 'b.state'", "link 'l' has its
// bandwidth at 0.5 at t = 3 s by its bandwidth profile ..." for that point of the profile.
std::string describe(const PlatformProfile& p, const std::pair<double, double>& point);

}  // namespace ringsim::io
