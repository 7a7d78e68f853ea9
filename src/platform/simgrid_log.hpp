// SimGrid's log, read back after it aborted (xbt_die, xbt_assert): the one line that says why.
// Both places that let SimGrid abort on purpose -- loading a platform, asking a route in a forked
// child -- send its log to a memory file and turn that line into ringsim's one-line answer.
#pragma once

#include <functional>
#include <string>

namespace ringsim::platform {

// What a forked child said (its standard output and error, a memory file) and how it ended.
struct ChildOutcome {
  bool ok = false;     // exited with status 0
  int signal = 0;      // the signal that killed it, if one did
  std::string said;
};

// Runs `body` in a forked child whose standard output and error go to a memory file; the child
// ends when `body` returns (status 0) or calls io::end_child. For what SimGrid may abort on instead
// of throwing.
ChildOutcome in_child_with_log(const std::function<void()>& body, const char* what);

// Everything written to `fd` (a memory file) from its start.
std::string read_whole_fd(int fd);

// The reason on SimGrid's CRITICAL line (or an assertion's line) without its "[host:actor:(pid)
// time] file:line: [category/CRITICAL]" prefix, and without the addresses SimGrid prints
// ("(0x5612b61f4300)": they differ from run to run, ringsim's answers must not). Empty if none.
std::string abort_reason(const std::string& log);

}  // namespace ringsim::platform
