#include "io/text_fields.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace ringsim::io {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

bool to_number(const std::string& s, double& out) {
  // Decimal syntax only: strtod also takes hexadecimal ("0x10" is 16), "inf" and "nan", which no
  // file ringsim reads means.
  if (s.empty() || s.find_first_not_of("0123456789+-.eE") != std::string::npos) return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && errno == 0 && std::isfinite(out);
}

bool holds_hexadecimal(const std::string& s) {
  for (std::size_t at = s.find_first_of("xX"); at != std::string::npos; at = s.find_first_of("xX", at + 1)) {
    if (at == 0 || s[at - 1] != '0') continue;
    const std::size_t zero = at - 1;
    if (zero == 0 || std::string(" \t,;+-").find(s[zero - 1]) != std::string::npos) return true;
  }
  return false;
}

std::string file_line(const std::string& where, std::size_t line) { return "'" + where + "':" + std::to_string(line); }

std::vector<std::string> split_fields(const std::string& line, char sep) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string x; std::getline(in, x, sep);) fields.push_back(trim(x));
  if (!line.empty() && line.back() == sep) fields.push_back("");
  return fields;
}

}  // namespace ringsim::io
