#include "sim/simgrid_log.hpp"

#include <unistd.h>

namespace ringsim::sim {

std::string read_whole_fd(int fd) {
  std::string text;
  char chunk[4096];
  ::lseek(fd, 0, SEEK_SET);
  for (ssize_t k; (k = ::read(fd, chunk, sizeof chunk)) > 0;) text.append(chunk, static_cast<std::size_t>(k));
  return text;
}

std::string abort_reason(const std::string& log) {
  std::string line;
  for (std::size_t start = 0; start < log.size();) {
    auto end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    const std::string l = log.substr(start, end - start);
    const auto mark = l.find("CRITICAL] ");
    if (mark != std::string::npos) {
      line = l.substr(mark + 10);
      break;
    }
    if (l.find("Assertion") != std::string::npos) {
      line = l;
      break;
    }
    start = end + 1;
  }
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  for (auto at = line.find(" (0x"); at != std::string::npos; at = line.find(" (0x", at)) {
    const auto close = line.find(')', at);
    if (close == std::string::npos) break;
    line.erase(at, close + 1 - at);
  }
  return line;
}

}  // namespace ringsim::sim
