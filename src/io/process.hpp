// Processes: one simulation per process (SimGrid's clock cannot be reset), so a second simulation
// runs in a forked child, started before any Engine exists here; a failed command's one line and
// exit status; the running executable.
#pragma once

#include <sys/types.h>

#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace ringsim::io {

// One line on standard error for a command that failed, and its exit status: 2 for bad input
// (InputError, std::invalid_argument), 1 for anything else ("internal error").
int report_failure(const std::exception_ptr& failure);

// The path of the running ringsim executable (to run it again, or to find what is built beside it).
std::string self_executable();

// SimGrid's argv: the program name and whatever --cfg= / --log= options the user gave; anything
// else is rejected (InputError) before a simulation starts.
struct EngineArgs {
  std::vector<std::string> storage;
  std::vector<char*> argv;
  int argc = 0;
  explicit EngineArgs(const std::vector<std::string>& extras);
};

// A number computed by `body` in a forked child and sent back through a pipe (all 17 digits).
class ChildValue {
 public:
  ChildValue(const std::function<double()>& body, std::string what);
  ChildValue(const ChildValue&) = delete;
  ChildValue& operator=(const ChildValue&) = delete;
  ~ChildValue();
  double get();  // waits for the child; throws std::runtime_error naming `what` if it failed

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string what_;
};

}  // namespace ringsim::io
