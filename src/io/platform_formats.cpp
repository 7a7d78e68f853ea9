#include "io/platform_formats.hpp"

#include <cstring>
#include <fstream>

#include <pugixml.hpp>

#include "io/legacy_xml_2005.hpp"
#include "io/json_input.hpp"
#include "io/platform_xml.hpp"
#include "io/simgrid_option_values.hpp"
#include "io/text_fields.hpp"
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

namespace {

// The attributes of SimGrid XML 4.1 that hold numbers (with units), as SimGrid's DTD names them.
bool holds_numbers(const char* attribute) {
  static const char* const kNumeric[] = {"speed", "bandwidth", "latency", "bw", "lat", "bb_bw", "bb_lat",
                                         "loopback_bw", "loopback_lat", "limiter_link", "core", "read_bw",
                                         "write_bw", "size", "periodicity", "radical", "coordinates"};
  for (const char* name : kNumeric)
    if (std::strcmp(attribute, name) == 0) return true;
  return false;
}

// Whether one of the comma-separated values starts with a minus sign ("1e-3s" does not).
bool starts_negative(const std::string& value) {
  for (const auto& part : split_fields(value, ','))
    if (!part.empty() && part[0] == '-') return true;
  return false;
}

// What SimGrid reads wrong in a number: hexadecimal (its strtod takes "0x10Gf" for 16 Gflop/s), a
// negative latency or bandwidth (it runs with them, warning only that they are below its precision).
std::string number_refusal(const std::string& attribute, const std::string& value) {
  if (holds_hexadecimal(value)) return "numbers are decimal";
  const bool latency_or_bandwidth = attribute.find("lat") != std::string::npos || attribute.find("bw") != std::string::npos ||
                                    attribute == "bandwidth";
  if (latency_or_bandwidth && starts_negative(value)) return "a latency or bandwidth must be >= 0";
  return "";
}

// Only a value holding an 'x' or a '-' can be refused: the others (nearly all of a large
// platform's) are passed over without looking at their attribute's name.
bool may_be_refused(const char* value) { return std::strpbrk(value, "xX-") != nullptr; }

// The document may have been parsed in place (its text then cut by the parser): a refusal reads
// the file again to name the line.
void refuse_wrong_numbers(const pugi::xml_node& node, const std::string& path) {
  for (const auto& a : node.attributes())
    if (may_be_refused(a.value()) && holds_numbers(a.name()))
      if (const std::string why = number_refusal(a.name(), a.value()); !why.empty())
        throw InputError(xml_detail::location(read_text(path), "'" + path + "'", node) + ": " + a.name() + "=\"" +
                         a.value() + "\": " + why);
  for (const auto& child : node.children()) refuse_wrong_numbers(child, path);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> config_options_in(const pugi::xml_document& doc, const std::string& path) {
  std::vector<std::pair<std::string, std::string>> options;
  refuse_wrong_numbers(doc, path);
  for (const auto& config : doc.child("platform").children("config"))
    for (const auto& prop : config.children("prop")) {
      options.emplace_back(prop.attribute("id").value(), prop.attribute("value").value());
      refuse_unrunnable_option(options.back().first, options.back().second,
                               " in <config> of platform '" + path + "'");
    }
  return options;
}

}  // namespace ringsim::io
