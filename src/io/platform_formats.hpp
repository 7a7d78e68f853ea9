// The platform files ringsim accepts: SimGrid's own (XML 4.1, read by SimGrid's loader), and the two
// that SimGrid does not read, each converted to SimGrid XML 4.1 by ringsim's readers: Tiers graphs
// (.tiers, turned into hosts and links with the measured values, as `platform tiers` does) and the
// 2005 SimGrid XML of the paper's platform (reference/).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace pugi {
class xml_document;
}

namespace ringsim::io {

enum class PlatformFormat { simgrid4, simgrid2005, tiers };

// By content: a Tiers file starts with '#' comments or numbers, an XML file with '<'; the root
// element tells the two SimGrid formats apart. InputError when the file cannot be read or is empty.
PlatformFormat sniff_platform_format(const std::string& path);
const char* format_name(PlatformFormat f);

// A .tiers or 2005 file as SimGrid XML 4.1 text (defaults of `platform import`); InputError for a
// SimGrid 4.1 file (SimGrid reads it itself) or a file its reader rejects.
std::string converted_to_simgrid4(const std::string& path, PlatformFormat format);

// The SimGrid options a SimGrid XML 4.1 platform sets in its <config> elements (<prop id value>), in
// file order; none for the other formats (their conversions write none). Each is checked as
// --cfg's are (io/simgrid_option_values.hpp), and the file's numbers must be decimal (SimGrid
// also reads "0x10Gf"), its latencies and bandwidths >= 0: InputError naming the option or the
// line, and the file. Read once per process (io/platform_file.hpp).
const std::vector<std::pair<std::string, std::string>>& platform_config_options(const std::string& path);
// The same, from the parsed document of the SimGrid XML 4.1 file at `path`.
std::vector<std::pair<std::string, std::string>> config_options_in(const pugi::xml_document& doc, const std::string& path);

}  // namespace ringsim::io
