// Fields of the text files ringsim reads (speed profiles and CSV, FTA availability traces).
#pragma once

#include <string>

namespace ringsim::io {

// The text without its leading and trailing blanks (spaces, tabs, carriage returns).
std::string trim(const std::string& s);

// The whole text as a finite number (false for anything else: empty, trailing characters, out of
// range, infinite or NaN).
bool to_number(const std::string& s, double& out);

}  // namespace ringsim::io
