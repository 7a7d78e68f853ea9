// Files as ringsim writes and names them.
#pragma once

#include <string>

namespace ringsim::io {

// Writes `text` to `path` through a temporary file and a rename, so readers never see half a file
// (InputError "cannot write '<path>'" when it cannot be written, the temporary file removed).
void write_file_atomically(const std::string& path, const std::string& text);

// The last component of a path ("a/b/c.xml" -> "c.xml").
std::string basename_of(const std::string& path);

// A CSV field (RFC 4180): as it is, unless it holds a comma, a quote or a line break; then quoted,
// its quotes doubled ("after:2,5" is one scheme, one field).
std::string csv_field(const std::string& text);

}  // namespace ringsim::io
