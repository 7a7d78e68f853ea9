// SimGrid stops the process (xbt_die, xbt_assert, a crash in a model) on some inputs instead of
// throwing: a CRITICAL line, a symbolized backtrace, then a signal. While a guard lives, the
// process's stderr goes to a memory file; a fatal signal then becomes ringsim's one-line error
// (the CRITICAL line, or the signal's name) and exit status 2, as bad input is answered. When the
// guard ends normally, what was logged is passed on to the real stderr. A guard that does not
// capture (the user asked for SimGrid's logs, which then stream as written) still turns the
// signal into the error line.
#pragma once

#include <string>

namespace ringsim::platform {

class AbortGuard {
 public:
  // `doing`: what failed, as the error line says it ("SimGrid cannot load platform 'p.xml'").
  explicit AbortGuard(std::string doing, bool capture = true);
  ~AbortGuard();
  AbortGuard(const AbortGuard&) = delete;
  AbortGuard& operator=(const AbortGuard&) = delete;

 private:
  bool active_ = false;
};

}  // namespace ringsim::platform
