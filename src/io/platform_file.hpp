// What ringsim reads of a platform file itself, beside SimGrid's own load: its format, the options
// its <config> sets and the profiles SimGrid will apply (each checked as platform_formats.hpp and
// platform_speed_files.hpp say). A run needs them at several steps (the option check, the load,
// the profile checks, a sweep's input digests): the file is read and parsed once per process, and
// only what was found is kept, not the parsed document (hundreds of megabytes for a large platform).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "io/platform_formats.hpp"
#include "io/platform_speed_files.hpp"

namespace ringsim::io {

struct PlatformFile {
  PlatformFormat format = PlatformFormat::simgrid4;
  std::vector<std::pair<std::string, std::string>> config_options;  // SimGrid XML 4.1 only
  std::vector<PlatformProfile> profiles;                            // SimGrid XML 4.1 only
  // A host may have a speed profile: the text names speed_file or trace_connect.
  bool may_hold_speed_profiles = false;
};

// The file at `path` as first read by this process (a platform does not change during a run or a
// sweep; a sweep's input digests notice one that changed between sweeps). InputError as its parts
// throw, every time it is asked for: a refused file is never kept.
const PlatformFile& platform_file(const std::string& path);

}  // namespace ringsim::io
