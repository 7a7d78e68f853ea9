// Files as ringsim writes and names them.
#pragma once

#include <string>

namespace ringsim::io {

// Writes `text` to `path` through a temporary file and a rename, so readers never see half a file
// (InputError "cannot write '<path>'" when it cannot be written, the temporary file removed).
void write_file_atomically(const std::string& path, const std::string& text);

// The last component of a path ("a/b/c.xml" -> "c.xml").
std::string basename_of(const std::string& path);

}  // namespace ringsim::io
