// Processes: one simulation per process (SimGrid's clock cannot be reset), so a second simulation
// runs in a forked child, started before any Engine exists here; a failed command's one line and
// exit status; the running executable.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <exception>
#include <stdexcept>
#include <functional>
#include <string>
#include <vector>

namespace ringsim::io {

// One line on standard error for a command that failed, and its exit status: 2 for bad input
// (InputError, std::invalid_argument, a path the file system refuses), 1 for anything else
// ("internal error").
int report_failure(const std::exception_ptr& failure);

// The path of the running ringsim executable (to run it again, or to find what is built beside it).
std::string self_executable();

// The processors this process may run on: its CPU affinity, which taskset and batch systems
// (SLURM's allocation) set; 1 if it cannot be read.
int usable_processors();

// SimGrid's argv: the program name and whatever --cfg= / --log= options the user gave; anything
// else is rejected (InputError) before a simulation starts.
struct EngineArgs {
  std::vector<std::string> storage;
  std::vector<char*> argv;
  int argc = 0;
  explicit EngineArgs(const std::vector<std::string>& extras);
};

// ---- forked children ----
// Every fork goes through fork_child. The parent's buffered output is flushed before it forks (a
// child never writes it a second time), and a child ends only in end_child: it never returns into
// the parent's stack and never runs the parent's atexit handlers.

// How a child ended, and what it used.
struct ChildStatus {
  int wait_status = 0;  // as waitpid reports it
  rusage usage{};       // its peak resident memory, its CPU time
  bool ok() const;      // exited with status 0
  int signal() const;   // the signal that killed it, or 0
  // As a shell reports it: the child's exit status, or 128 + N when signal N killed it.
  int exit_status() const;
};

// The child's ends of the pipes it was given (-1: not asked for).
struct ChildEnds {
  int to_parent = -1;
  int from_parent = -1;
};

struct ChildOptions {
  std::string what;                 // names the child when the pipe or the fork cannot be made
  bool pipe_from_child = false;     // the child writes ChildEnds::to_parent, the parent reads Child::from_child
  bool pipe_to_child = false;       // the parent writes Child::to_child, the child reads ChildEnds::from_parent
  // The child's standard output and error: a descriptor of the parent's (a memory file it reads
  // afterwards), or a file the child opens, created or emptied ("/dev/null"); unchanged if neither
  // is given or the file cannot be opened.
  int stdout_fd = -1;
  int stderr_fd = -1;
  std::string stdout_file;
  std::string stderr_file;
  std::vector<int> close_in_child;  // the parent's descriptors the child must not hold (other children's pipes)
};

// A forked child, seen from the parent.
class Child {
 public:
  Child() = default;
  Child(pid_t pid, int from_child, int to_child) : pid_(pid), from_(from_child), to_(to_child) {}
  Child(Child&& other) noexcept;
  Child& operator=(Child&& other) noexcept;
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child();  // as wait(), unless it was called

  pid_t pid() const { return pid_; }
  int from_child() const { return from_; }
  int to_child() const { return to_; }
  // Everything the child writes to its pipe until it closes it (it ends); then the pipe is closed.
  std::string read_all();
  // Closes this side of the pipes (what the child has not read or said is lost), then blocks until
  // the child ends. A second call returns the same status.
  ChildStatus wait();

 private:
  void close_pipes();
  pid_t pid_ = -1;
  int from_ = -1;
  int to_ = -1;
  ChildStatus status_;
};

// Forks a child that runs `body` and ends with the status it returns (an exception that escapes
// `body`: report_failure's line on the child's standard error, and its status). Throws
// std::system_error ("<what>: pipe: <reason>", "<what>: fork: <reason>") in the parent.
Child fork_child(const std::function<int(const ChildEnds&)>& body, const ChildOptions& options = {});
Child fork_child(const std::function<int()>& body, const ChildOptions& options = {});

// Ends a forked child: its standard output and error flushed, then _exit(status). Neither
// destructors nor atexit handlers run: call it where the child must not unwind (a SimGrid Engine on
// its stack). Not for signal handlers (they call _exit alone).
[[noreturn]] void end_child(int status);

// A bad input that a child process has already told the user about (its one line on stderr, exit
// status 2): the parent answers exit status 2 and adds no line of its own.
struct ReportedInputError : std::runtime_error {
  explicit ReportedInputError(const std::string& what) : std::runtime_error(what) {}
};

// What `body` computes, or the failure that replaced it, as one line of text for a parent:
// V<the number, all 17 digits>, I<a bad input>, R (a bad input already told), E<any other failure>.
std::string answer_line(const std::function<double()>& body);

// The number of such a line, or what the child threw: InputError, ReportedInputError ("the <what>
// was refused"), std::runtime_error ("the <what> failed", and the child's message after E), the
// last also for a line that is no answer (empty: the child ended without one).
double answered_value(const std::string& line, const std::string& what);

// A number computed by `body` in a forked child and sent back through a pipe.
class ChildValue {
 public:
  // `options`: the child's output (the pipe and `what` are ChildValue's own).
  ChildValue(const std::function<double()>& body, std::string what, ChildOptions options = {});
  // Waits for the child: its answer line, R if it ended with status 2 and none, empty if it ended
  // otherwise without one or with a number but a failed status.
  std::string answer();
  double get() { return answered_value(answer(), what_); }

 private:
  Child child_;
  std::string what_;
};

}  // namespace ringsim::io
