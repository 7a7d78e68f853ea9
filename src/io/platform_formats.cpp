#include "io/platform_formats.hpp"

#include <fstream>

#include <pugixml.hpp>

#include "io/legacy_xml_2005.hpp"
#include "io/json_input.hpp"
#include "io/platform_xml.hpp"
#include "io/simgrid_option_values.hpp"
#include "io/tiers_reader.hpp"
#include "model/errors.hpp"
#include "model/tiers_generator.hpp"

namespace ringsim::io {

PlatformFormat sniff_platform_format(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read platform '" + path + "'");
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  const auto first = head.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  if (first == std::string::npos) throw InputError("platform '" + path + "' is empty");
  if (head[first] != '<') return PlatformFormat::tiers;
  for (auto pos = head.find('<'); pos != std::string::npos; pos = head.find('<', pos + 1)) {
    const char next = pos + 1 < head.size() ? head[pos + 1] : '\0';
    if (next == '?' || next == '!') continue;
    return head.compare(pos + 1, 20, "platform_description") == 0 ? PlatformFormat::simgrid2005
                                                                   : PlatformFormat::simgrid4;
  }
  return PlatformFormat::simgrid4;  // SimGrid's parser says what is wrong
}

const char* format_name(PlatformFormat f) {
  switch (f) {
    case PlatformFormat::simgrid4: return "SimGrid XML 4.1";
    case PlatformFormat::simgrid2005: return "SimGrid XML 2005";
    case PlatformFormat::tiers: return "Tiers";
  }
  return "?";
}

std::string converted_to_simgrid4(const std::string& path, PlatformFormat format) {
  switch (format) {
    case PlatformFormat::tiers:
      return format_platform_xml(tiers_to_platform(read_tiers_file(path), embedded_measured_values(), TiersConversion{}),
                                 "converted by ringsim from " + path);
    case PlatformFormat::simgrid2005:
      return format_platform_xml(read_legacy_platform_2005(path), "converted by ringsim from " + path);
    case PlatformFormat::simgrid4: break;
  }
  throw InputError("'" + path + "' is already SimGrid XML 4.1");
}

std::vector<std::pair<std::string, std::string>> platform_config_options(const std::string& path) {
  std::vector<std::pair<std::string, std::string>> options;
  if (sniff_platform_format(path) != PlatformFormat::simgrid4) return options;
  const std::string text = read_text(path);
  pugi::xml_document doc;
  if (!doc.load_buffer(text.data(), text.size(), pugi::parse_default | pugi::parse_doctype, pugi::encoding_utf8))
    return options;  // SimGrid's loader says what is wrong with the file
  for (const auto& config : doc.child("platform").children("config"))
    for (const auto& prop : config.children("prop")) {
      options.emplace_back(prop.attribute("id").value(), prop.attribute("value").value());
      refuse_unrunnable_option(options.back().first, options.back().second,
                               " in <config> of platform '" + path + "'");
    }
  return options;
}

}  // namespace ringsim::io
