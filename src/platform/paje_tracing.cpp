#include "platform/paje_tracing.hpp"

#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <climits>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <simgrid/s4u/Engine.hpp>
#include <xbt/config.hpp>

#include "io/process.hpp"
#include "model/errors.hpp"
#include "platform/platform_reader.hpp"
#include "platform/simgrid_log.hpp"
#include "platform/simgrid_options.hpp"

namespace sg4 = simgrid::s4u;

namespace ringsim::platform {
namespace {

constexpr const char* kInstead =
    "run without tracing: --iterations-csv, --traces-dir and --log=ringsim_app.thres:debug show the run";

struct Trial {
  bool loaded = false;
  std::string said;  // what the child wrote on its way out
};

// SimGrid 3.32's tracing reads memory it does not own on some platforms (a link's container taken
// from an emptied zone stack while nested zones are sealed): the trial child ends there itself,
// with one line, instead of letting the invalid read run on or be reported as the process's own.
// The child's own stderr (the platform loader redirects stderr while SimGrid loads).
int g_trial_stderr = STDERR_FILENO;

extern "C" void on_crash_in_trial(int sig) {
  static const char said[] = "\nSimGrid crashed while loading the platform with tracing on\n";
  if (::write(g_trial_stderr, said, sizeof said - 1) < 0) {
  }
  ::_exit(128 + sig);
}

// The platform loaded and sealed in a forked child, as the run will load it.
Trial try_loading(const std::string& platform) {
  const ChildOutcome child = in_child_with_log(
      [&] {
        struct sigaction on_crash {};
        on_crash.sa_handler = on_crash_in_trial;
        sigemptyset(&on_crash.sa_mask);
        ::sigaction(SIGSEGV, &on_crash, nullptr);
        ::sigaction(SIGBUS, &on_crash, nullptr);
        g_trial_stderr = ::dup(STDERR_FILENO);
        try {
          sg4::Engine::set_config("tracing/filename:/dev/null");
          LoadedPlatform lp(*sg4::Engine::get_instance(), platform);
          lp.seal();
          io::end_child(0);  // the loaded platform is not torn down
        } catch (const std::exception& e) {
          std::fprintf(stderr, "\n%s\n", e.what());
          io::end_child(2);
        }
      },
      "ringsim-tracing-trial");
  Trial t{child.ok, child.said};
  if (child.signal)
    t.said += "\nSimGrid crashed (signal " + std::to_string(child.signal) + ") while loading it with tracing on";
  return t;
}

// The last non-empty line: SimGrid's (or ringsim's) reason.
std::string last_line(const std::string& text) {
  std::string line;
  std::size_t at = 0;
  while (at < text.size()) {
    auto end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    if (end > at) line = text.substr(at, end - at);
    at = end + 1;
  }
  const std::string prefix = "ringsim: error: ";
  if (line.rfind(prefix, 0) == 0) line.erase(0, prefix.size());
  return line;
}

}  // namespace

std::string tracing_limit(const std::string& what) {
  if (what.find("type with name (speed) not found") != std::string::npos)
    return "SimGrid 3.32 cannot trace actors on hosts whose speed changes while it does not trace their speed "
           "(tracing/platform off, or tracing/disable_power on) (" +
           what + "): leave tracing/platform on (ringsim's default with tracing) and tracing/disable_power off, or " +
           kInstead;
  if (what.find("(speed_used) not found") != std::string::npos || what.find("(bandwidth_used) not found") != std::string::npos)
    return "SimGrid 3.32's tracing/categorized works only with tracing/uncategorized:yes (" + what +
           ": its categorized path writes into the uncategorized variables); ringsim's activities carry no "
           "category, the application's phases are the host state ringsim_phase";
  if (what.find("No route from") != std::string::npos || what.find("map::at") != std::string::npos)
    return "SimGrid 3.32 cannot trace the topology of this platform (" + what +
           "; Floyd zones, nested zones): --cfg=tracing/platform/topology:no traces it without the topology graph";
  if (what.find("container") != std::string::npos || what.find("crashed") != std::string::npos)
    return "SimGrid 3.32 cannot trace this platform (" + what +
           "; <cluster> zones with split-duplex links, Dijkstra zones and some nested zones stop its Paje tracing): " +
           kInstead;
  return "SimGrid 3.32 cannot trace this run (" + what + "): " + kInstead;
}

void avoid_tracing_limits(const std::string& platform) {
  if (!tracing_enabled()) return;
  check_trace_file();
  Trial t = try_loading(platform);
  if (t.loaded) return;
  const std::string why = last_line(t.said);
  // SimGrid 3.32 reads the topology of Floyd zones before their routes exist ("No route from") and
  // fails on some nested zones ("map::at"): without the topology, the rest may trace.
  if (simgrid::config::is_default("tracing/platform/topology")) {
    sg4::Engine::set_config("tracing/platform/topology:no");
    const Trial without = try_loading(platform);
    if (without.loaded) {
      std::cerr << "ringsim: note: tracing without the platform's topology (tracing/platform/topology:no): "
                   "SimGrid 3.32 cannot trace it ("
                << why << ")\n";
      return;
    }
    throw InputError(tracing_limit(last_line(without.said)));
  }
  throw InputError(tracing_limit(why));
}

void refuse_untraceable_speed_changes(bool speeds_change) {
  if (!speeds_change || !tracing_enabled()) return;
  const auto on = [](const char* option) { return simgrid::config::get_value<bool>(option); };
  // SimGrid 3.32 (instr_platform.cpp): hosts are followed when TRACE_needs_platform(); their speed
  // variable exists only with categorized, uncategorized or platform and without disable_power.
  const bool hosts_followed = on("tracing/actor") || on("tracing/vm") || on("tracing/categorized") ||
                              on("tracing/uncategorized") || on("tracing/platform");
  const bool speed_traced = (on("tracing/categorized") || on("tracing/uncategorized") || on("tracing/platform")) &&
                            !on("tracing/disable_power");
  if (hosts_followed && !speed_traced)
    throw InputError(tracing_limit("type with name (speed) not found in parent type (HOST)"));
}

}  // namespace ringsim::platform

// SimGrid's trace stream (instr_config.cpp, SimGrid 3.20 to 3.35): it never checks its writes, so a
// full disk would leave a trace cut mid-line behind a run that ended well. Its state after the run
// (close() keeps the failbit of a failed write or flush) says whether every byte was written.
extern std::ofstream tracing_file;

namespace ringsim::platform {
namespace {

InputError cannot_trace(const std::string& name, const std::string& reason) {
  return InputError("cannot write the Paje trace '" + name + "' (tracing/filename): " + reason);
}

// A FIFO is written only when a process reads it: SimGrid's open would otherwise wait forever.
void require_reader(const std::string& name) {
  const int fd = ::open(name.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw cannot_trace(name, errno == ENXIO ? std::string("no process reads this FIFO") : std::strerror(errno));
  ::close(fd);
}

// The new file SimGrid will write, made now so that a path it cannot write (a missing folder, a
// read-only one) is refused before the run, with its reason, not met by SimGrid mid-load.
void create_empty(const std::string& path, const std::string& name) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw cannot_trace(name, std::strerror(errno));
  ::close(fd);
}

// Where a trace named `name` is written, by the rule of io::write_file_atomically: a regular file
// (or a new path) is written as "<file>.part" and renamed over it when the run has ended well; a
// link is followed (the file it names is replaced, a link to nothing refused); what is not a
// regular file (a device such as /dev/null, a FIFO with a reader) is written through.
struct TraceTarget {
  std::string file;  // `name`, its links followed
  bool through = false;
};

TraceTarget trace_target(const std::string& name) {
  struct stat st {};
  if (::stat(name.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) throw cannot_trace(name, "it is a folder");
    if (S_ISFIFO(st.st_mode)) require_reader(name);
    return {name, true};
  }
  struct stat own {};
  if (::lstat(name.c_str(), &own) != 0 || !S_ISLNK(own.st_mode)) return {name, false};
  char real[PATH_MAX];
  if (::realpath(name.c_str(), real) == nullptr) throw cannot_trace(name, "it is a symbolic link to a missing file");
  return {real, false};
}

int fsync_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  const int error = ::fsync(fd) == 0 ? 0 : errno;
  ::close(fd);
  return error;
}

}  // namespace

PajeTraceFile::PajeTraceFile() {
  if (!tracing_enabled()) return;
  final_ = simgrid::config::get_value<std::string>("tracing/filename");
  const TraceTarget t = trace_target(final_);
  if (t.through) {
    written_ = final_;
    return;
  }
  target_ = t.file;
  partial_ = target_ + ".part";
  create_empty(partial_, final_);
  written_ = partial_;
  simgrid::config::set_as_string("tracing/filename", partial_);
}

void check_trace_file() {
  if (!tracing_enabled()) return;
  const std::string name = simgrid::config::get_value<std::string>("tracing/filename");
  const TraceTarget t = trace_target(name);
  if (t.through) return;
  const std::string probe = t.file + ".part";
  if (::access(probe.c_str(), F_OK) == 0) return;  // a run's own partial file: the run says more
  create_empty(probe, name);
  std::remove(probe.c_str());
}

void PajeTraceFile::finish() {
  if (written_.empty()) return;
  if (::tracing_file.fail() || ::tracing_file.is_open())
    throw cannot_trace(final_, ::tracing_file.is_open() ? "SimGrid did not close it"
                                                        : "a write failed (a full disk or device?)");
  if (partial_.empty()) return;
  if (const int error = fsync_file(partial_); error != 0) throw cannot_trace(final_, std::strerror(error));
  if (std::rename(partial_.c_str(), target_.c_str()) != 0) throw cannot_trace(final_, std::strerror(errno));
  partial_.clear();
}

void PajeTraceFile::discard_writes() const {
  if (written_.empty()) return;
  struct stat file {};
  if (::stat(written_.c_str(), &file) != 0) return;
  const int null = ::open("/dev/null", O_WRONLY);
  if (null < 0) throw std::runtime_error("cannot open /dev/null: " + std::string(std::strerror(errno)));
  std::vector<int> open_on_file;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    const int fd = std::atoi(entry.path().filename().c_str());
    struct stat st {};
    if (fd != null && ::fstat(fd, &st) == 0 && st.st_dev == file.st_dev && st.st_ino == file.st_ino)
      open_on_file.push_back(fd);
  }
  for (int fd : open_on_file) ::dup2(null, fd);
  ::close(null);
}

PajeTraceFile::~PajeTraceFile() {
  if (!partial_.empty()) std::remove(partial_.c_str());
}

}  // namespace ringsim::platform
