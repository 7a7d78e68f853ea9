#include "io/files.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "model/errors.hpp"

namespace ringsim::io {

void write_file_atomically(const std::string& path, const std::string& text) {
  // A name of our own: two processes writing the same file never share a temporary.
  const std::string tmp = path + ".tmp." + std::to_string(static_cast<long>(getpid()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError("cannot write '" + path + "'");
    out << text;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw InputError("cannot write '" + path + "'");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw InputError("cannot write '" + path + "'");
  }
}

std::string basename_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + '"';
}

}  // namespace ringsim::io
