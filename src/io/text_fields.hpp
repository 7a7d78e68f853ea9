// Fields of the text files ringsim reads (speed profiles and CSV, FTA availability traces).
#pragma once

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace ringsim::io {

// The text without its leading and trailing blanks (spaces, tabs, carriage returns).
std::string trim(const std::string& s);

// The whole text as a finite decimal number (false for anything else: empty, trailing characters,
// hexadecimal, out of range, infinite or NaN).
bool to_number(const std::string& s, double& out);

// Whether the text holds a hexadecimal number ("0x10", "-0X1p3", "1,0x2"): a number starting with
// 0x or 0X, which strtod (and so SimGrid) reads but no file ringsim reads means.
bool holds_hexadecimal(const std::string& s);

// 'where':line, the place every line error of these readers names.
std::string file_line(const std::string& where, std::size_t line);

// The fields of a line cut at `sep`, each trimmed; a line ending with `sep` ends with an empty
// field (a missing last value is reported as such, not silently dropped).
std::vector<std::string> split_fields(const std::string& line, char sep);

// Calls take(line_number, raw, trimmed) for every line of `text` that holds data: blank lines and
// lines starting with '#' are skipped; `raw` is the line without its '\r' (files written on
// Windows), `trimmed` the same without leading and trailing blanks. Line numbers count from 1
// over every line, so errors point into the file as an editor shows it.
template <class Take>
void for_each_data_line(const std::string& text, Take&& take) {
  std::istringstream in(text);
  std::string raw;
  std::size_t line = 0;
  while (std::getline(in, raw)) {
    ++line;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    const std::string trimmed = trim(raw);
    if (trimmed.empty() || trimmed[0] == '#') continue;
    take(line, raw, trimmed);
  }
}

}  // namespace ringsim::io
