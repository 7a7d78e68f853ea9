#include "io/process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "model/errors.hpp"

namespace ringsim::io {

std::string self_executable() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

int report_failure(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const InputError& e) {
    std::cerr << "ringsim: error: " << e.what() << '\n';
    return 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << "ringsim: error: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "ringsim: internal error: " << e.what() << '\n';
    return 1;
  } catch (...) {
    std::cerr << "ringsim: internal error: unknown exception\n";
    return 1;
  }
}

EngineArgs::EngineArgs(const std::vector<std::string>& extras) : storage{"ringsim"} {
  for (const auto& e : extras) {
    if (e.rfind("--cfg=", 0) != 0 && e.rfind("--log=", 0) != 0)
      throw InputError("unexpected argument '" + e + "' (only --cfg=... and --log=... go to SimGrid)");
    storage.push_back(e);
  }
  for (auto& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  argc = static_cast<int>(storage.size());
}

ChildValue::ChildValue(const std::function<double()>& body, std::string what) : what_(std::move(what)) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  std::cout.flush();
  std::cerr.flush();
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    close(fds[0]);
    // One tagged answer: V<value>, I<bad input message> (exit 2 upstream), E<other failure>.
    std::string answer;
    try {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", body());
      answer = std::string("V") + buf;
    } catch (const InputError& e) {
      answer = std::string("I") + e.what();
    } catch (const std::exception& e) {
      answer = std::string("E") + e.what();
    }
    int status = 0;
    if (write(fds[1], answer.data(), answer.size()) < 0) status = 1;
    close(fds[1]);
    _exit(status);
  }
  close(fds[1]);
  fd_ = fds[0];
}

double ChildValue::get() {
  std::string text;
  char buf[256];
  ssize_t got = 0;
  while ((got = read(fd_, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(got));
  close(fd_);
  fd_ = -1;
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  if (!text.empty() && text[0] == 'I') throw InputError(text.substr(1));
  if (!text.empty() && text[0] == 'E') throw std::runtime_error("the " + what_ + " failed: " + text.substr(1));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.size() < 2 || text[0] != 'V')
    throw std::runtime_error("the " + what_ + " failed");
  return std::stod(text.substr(1));
}

ChildValue::~ChildValue() {
  if (fd_ >= 0) close(fd_);
  if (pid_ > 0) waitpid(pid_, nullptr, 0);
}

}  // namespace ringsim::io
