#include "io/platform_file.hpp"

#include <cstring>
#include <map>
#include <memory>

#include <pugixml.hpp>

#include "io/json_input.hpp"

namespace ringsim::io {
namespace {

// Whether the text could hold what config_options_in or profiles_in find or refuse: a <config>, a
// profile (an attribute *_file, a <trace> or <trace_connect>), a hexadecimal number ("0x"), a value
// or list item starting with '-', or an entity reference (which could spell any of these). Most
// platforms hold none; their text is then not parsed (SimGrid parses it), nothing being lost.
bool may_hold_settings_or_refusals(const std::string& text) {
  for (const char* sign : {"<config", "_file", "trace", "0x", "0X", "&"})
    if (text.find(sign) != std::string::npos) return true;
  for (auto at = text.find('-'); at != std::string::npos; at = text.find('-', at + 1))
    if (at > 0 && std::strchr("\"',; \t\r\n", text[at - 1]) != nullptr) return true;
  return false;
}

PlatformFile read_platform_file(const std::string& path) {
  PlatformFile file;
  file.format = sniff_platform_format(path);
  if (file.format != PlatformFormat::simgrid4) return file;  // their conversions write no <config> nor profile
  std::string text = read_text(path);
  file.may_hold_speed_profiles =
      text.find("speed_file") != std::string::npos || text.find("trace_connect") != std::string::npos;
  if (!may_hold_settings_or_refusals(text)) return file;
  // Parsed in place: a large platform's text is not copied again (the copy, and the pages it
  // touches, cost a short run as much as the parse).
  pugi::xml_document doc;
  if (!doc.load_buffer_inplace(text.data(), text.size(), pugi::parse_default | pugi::parse_doctype,
                               pugi::encoding_utf8))
    return file;  // SimGrid's loader says what is wrong with the file
  file.config_options = config_options_in(doc, path);
  file.profiles = profiles_in(doc, path);
  return file;
}

}  // namespace

const PlatformFile& platform_file(const std::string& path) {
  static std::map<std::string, std::unique_ptr<const PlatformFile>> read;
  auto& kept = read[path];
  if (!kept) kept = std::make_unique<const PlatformFile>(read_platform_file(path));
  return *kept;
}

const std::vector<std::pair<std::string, std::string>>& platform_config_options(const std::string& path) {
  return platform_file(path).config_options;
}

const std::vector<PlatformProfile>& platform_profiles(const std::string& platform_path) {
  return platform_file(platform_path).profiles;
}

}  // namespace ringsim::io
