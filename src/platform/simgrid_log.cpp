#include "platform/simgrid_log.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <stdexcept>

#include "io/process.hpp"

namespace ringsim::platform {

std::string read_whole_fd(int fd) {
  std::string text;
  char chunk[4096];
  ::lseek(fd, 0, SEEK_SET);
  for (ssize_t k; (k = ::read(fd, chunk, sizeof chunk)) > 0;) text.append(chunk, static_cast<std::size_t>(k));
  return text;
}

ChildOutcome in_child_with_log(const std::function<void()>& body, const char* what) {
  const int log = ::memfd_create(what, 0);
  if (log < 0) throw std::runtime_error(std::string(what) + ": memfd_create failed");
  io::ChildOptions options;
  options.what = what;
  options.stdout_fd = options.stderr_fd = log;
  io::ChildStatus status;
  try {
    status = io::fork_child(
                 [&] {
                   body();
                   return 0;
                 },
                 options)
                 .wait();
  } catch (...) {
    ::close(log);
    throw;
  }
  ChildOutcome out;
  out.ok = status.ok();
  out.signal = status.signal();
  out.said = read_whole_fd(log);
  ::close(log);
  return out;
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

}  // namespace ringsim::platform
