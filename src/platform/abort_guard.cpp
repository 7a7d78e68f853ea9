#include "platform/abort_guard.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <utility>

#include "platform/simgrid_log.hpp"

namespace ringsim::platform {
namespace {

// One guard at a time: a signal handler reaches its state only through globals.
int g_log_fd = -1;
int g_saved_stderr = -1;
std::string g_doing;

// Under AddressSanitizer, memory faults are its to report (tools/sanitize.sh reads its logs).
#if defined(__SANITIZE_ADDRESS__)
constexpr int kGuardedSignals[] = {SIGABRT, SIGTRAP};
#else
constexpr int kGuardedSignals[] = {SIGABRT, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
#endif
constexpr std::size_t kSignalCount = sizeof kGuardedSignals / sizeof kGuardedSignals[0];
struct sigaction g_previous[kSignalCount];

// A crash in an actor may be a stack overflow: the handler runs on a stack of its own.
alignas(16) char g_handler_stack[1 << 16];

const char* signal_reason(int signal) {
  switch (signal) {
    case SIGSEGV:
    case SIGBUS:
      return "it crashed (a memory fault: an actor's stack too small for contexts/stack-size?)";
    case SIGFPE: return "it crashed (an arithmetic fault)";
    case SIGILL: return "it crashed (an illegal instruction)";
    case SIGTRAP: return "it stopped at a breakpoint (debug/breakpoint?)";
    default: return "it aborted";
  }
}

void on_fatal_signal(int signal) {
  const std::string why = g_log_fd < 0 ? std::string() : abort_reason(read_whole_fd(g_log_fd));
  const std::string msg = "ringsim: error: " + g_doing + ": " + (why.empty() ? std::string(signal_reason(signal)) : why) + "\n";
  if (::write(g_saved_stderr, msg.data(), msg.size()) < 0) {
  }
  ::_exit(2);
}

}  // namespace

AbortGuard::AbortGuard(std::string doing, bool capture) {
  std::fflush(stderr);
  g_doing = std::move(doing);
  g_log_fd = capture ? ::memfd_create("ringsim-simgrid-log", 0) : -1;
  g_saved_stderr = ::dup(STDERR_FILENO);
  if ((capture && g_log_fd < 0) || g_saved_stderr < 0) return;
  if (capture) ::dup2(g_log_fd, STDERR_FILENO);
  stack_t stack{};
  stack.ss_sp = g_handler_stack;
  stack.ss_size = sizeof g_handler_stack;
  ::sigaltstack(&stack, nullptr);
  struct sigaction action {};
  action.sa_handler = on_fatal_signal;
  action.sa_flags = SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (std::size_t k = 0; k < kSignalCount; ++k) ::sigaction(kGuardedSignals[k], &action, &g_previous[k]);
  active_ = true;
}

AbortGuard::~AbortGuard() {
  if (!active_) return;
  std::fflush(stderr);
  for (std::size_t k = 0; k < kSignalCount; ++k) ::sigaction(kGuardedSignals[k], &g_previous[k], nullptr);
  if (g_log_fd >= 0) {
    ::dup2(g_saved_stderr, STDERR_FILENO);
    // SimGrid's warnings reach the user as they would have, once the guarded work is over.
    const std::string log = read_whole_fd(g_log_fd);
    if (::write(STDERR_FILENO, log.data(), log.size()) < 0) {
    }
    ::close(g_log_fd);
  }
  ::close(g_saved_stderr);
  g_log_fd = g_saved_stderr = -1;
}

}  // namespace ringsim::platform
