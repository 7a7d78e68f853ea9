#include "io/process.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "io/simgrid_option_values.hpp"
#include "model/errors.hpp"

namespace ringsim::io {

std::string self_executable() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

int report_failure(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const ReportedInputError&) {
    return 2;
  } catch (const InputError& e) {
    std::cerr << "ringsim: error: " << e.what() << '\n';
    return 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << "ringsim: error: " << e.what() << '\n';
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {
    // Paths come from the user (--out, a platform, a trace file): one that cannot be used (a file
    // where a folder is expected, a read-only place, a loop of links) is bad input, named.
    std::cerr << "ringsim: error: cannot use '" << e.path1().string() << "': " << e.code().message() << '\n';
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
    if (e.rfind("--cfg=", 0) == 0) refuse_unrunnable_cfg_argument(e.substr(6), " (--cfg)");
    storage.push_back(e);
  }
  for (auto& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  argc = static_cast<int>(storage.size());
}

bool ChildStatus::ok() const { return WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0; }

int ChildStatus::signal() const { return WIFSIGNALED(wait_status) ? WTERMSIG(wait_status) : 0; }

int ChildStatus::exit_status() const {
  return WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 128 + WTERMSIG(wait_status);
}

Child::Child(Child&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      from_(std::exchange(other.from_, -1)),
      to_(std::exchange(other.to_, -1)),
      status_(other.status_) {}

Child& Child::operator=(Child&& other) noexcept {
  if (this != &other) {
    wait();
    pid_ = std::exchange(other.pid_, -1);
    from_ = std::exchange(other.from_, -1);
    to_ = std::exchange(other.to_, -1);
    status_ = other.status_;
  }
  return *this;
}

Child::~Child() { wait(); }

void Child::close_pipes() {
  if (from_ >= 0) ::close(from_);
  if (to_ >= 0) ::close(to_);
  from_ = to_ = -1;
}

std::string Child::read_all() {
  std::string text;
  if (from_ < 0) return text;
  char chunk[1 << 16];
  for (;;) {
    const ssize_t k = ::read(from_, chunk, sizeof chunk);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    text.append(chunk, static_cast<std::size_t>(k));
  }
  ::close(from_);
  from_ = -1;
  return text;
}

ChildStatus Child::wait() {
  close_pipes();
  if (pid_ <= 0) return status_;
  ChildStatus s;
  pid_t got = -1;
  while ((got = ::wait4(pid_, &s.wait_status, 0, &s.usage)) < 0 && errno == EINTR) {
  }
  if (got != pid_) s.wait_status = 1 << 8;  // lost: as exit status 1
  pid_ = -1;
  status_ = s;
  return s;
}

int usable_processors() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return std::max(1, CPU_COUNT(&set));
}

void end_child(int status) {
  std::cout.flush();
  std::cerr.flush();
  std::clog.flush();
  std::fflush(nullptr);
  ::_exit(status);
}

namespace {

std::system_error os_error(const std::string& what, const char* call) {
  return std::system_error(errno, std::generic_category(), what.empty() ? call : what + ": " + call);
}

void make_pipe(int fds[2], const ChildOptions& options) {
  if (::pipe(fds) != 0) throw os_error(options.what, "pipe");
}

// In the child: `target` (its standard output or error) becomes `fd`, or the file `file`.
void redirect(int target, int fd, const std::string& file) {
  const int opened = file.empty() ? -1 : ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int source = opened >= 0 ? opened : fd;
  if (source < 0) return;
  ::dup2(source, target);
  if (opened >= 0) ::close(opened);
}

}  // namespace

Child fork_child(const std::function<int(const ChildEnds&)>& body, const ChildOptions& options) {
  int back[2] = {-1, -1}, forth[2] = {-1, -1};
  const auto close_all = [&] {
    for (int fd : {back[0], back[1], forth[0], forth[1]})
      if (fd >= 0) ::close(fd);
  };
  try {
    if (options.pipe_from_child) make_pipe(back, options);
    if (options.pipe_to_child) make_pipe(forth, options);
  } catch (...) {
    close_all();
    throw;
  }
  std::cout.flush();
  std::cerr.flush();
  std::clog.flush();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    const std::system_error failure = os_error(options.what, "fork");
    close_all();
    throw failure;
  }
  if (pid == 0) {
    if (back[0] >= 0) ::close(back[0]);
    if (forth[1] >= 0) ::close(forth[1]);
    for (int fd : options.close_in_child) ::close(fd);
    redirect(STDOUT_FILENO, options.stdout_fd, options.stdout_file);
    redirect(STDERR_FILENO, options.stderr_fd, options.stderr_file);
    int status = 1;
    try {
      status = body(ChildEnds{back[1], forth[0]});
    } catch (...) {
      status = report_failure(std::current_exception());
    }
    end_child(status);
  }
  if (back[1] >= 0) ::close(back[1]);
  if (forth[0] >= 0) ::close(forth[0]);
  return Child(pid, back[0], forth[1]);
}

Child fork_child(const std::function<int()>& body, const ChildOptions& options) {
  return fork_child([&](const ChildEnds&) { return body(); }, options);
}

std::string answer_line(const std::function<double()>& body) {
  std::string line;
  try {
    char digits[64];
    std::snprintf(digits, sizeof digits, "%.17g", body());
    line = std::string("V") + digits;
  } catch (const InputError& e) {
    line = std::string("I") + e.what();
  } catch (const ReportedInputError&) {
    line = "R";
  } catch (const std::exception& e) {
    line = std::string("E") + e.what();
  }
  std::replace(line.begin(), line.end(), '\n', ' ');
  return line;
}

double answered_value(const std::string& line, const std::string& what) {
  const char tag = line.empty() ? '\0' : line[0];
  if (tag == 'I') throw InputError(line.substr(1));
  if (tag == 'R') throw ReportedInputError("the " + what + " was refused");
  if (tag == 'E') throw std::runtime_error("the " + what + " failed: " + line.substr(1));
  if (tag != 'V' || line.size() < 2) throw std::runtime_error("the " + what + " failed");
  return std::stod(line.substr(1));
}

ChildValue::ChildValue(const std::function<double()>& body, std::string what, ChildOptions options)
    : what_(std::move(what)) {
  options.what = what_;
  options.pipe_from_child = true;
  child_ = fork_child(
      [&](const ChildEnds& ends) {
        const std::string line = answer_line(body);
        return ::write(ends.to_parent, line.data(), line.size()) < 0 ? 1 : 0;
      },
      options);
}

std::string ChildValue::answer() {
  const std::string text = child_.read_all();
  const ChildStatus status = child_.wait();
  if (text.empty() && status.exit_status() == 2) return "R";
  if (!text.empty() && text[0] == 'V' && !status.ok()) return "";
  return text;
}

}  // namespace ringsim::io
