#include "io/progress_line.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <utility>

namespace ringsim::io {

ProgressLine::ProgressLine(std::string what, double quiet_seconds)
    : what_(std::move(what)),
      quiet_seconds_(quiet_seconds),
      tty_(isatty(STDERR_FILENO) != 0),
      start_(clock::now()),
      step_start_(start_),
      last_shown_(start_) {}

ProgressLine::~ProgressLine() {
  if (shown_ && tty_) std::cerr << '\n' << std::flush;
}

void ProgressLine::update(const std::string& step, double done, double total) {
  const clock::time_point now = clock::now();
  if (step != step_) {
    step_ = step;
    step_start_ = now;
    last_tenth_ = -1;
  }
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (elapsed < quiet_seconds_ || !(total > 0.0)) return;
  const double share = std::clamp(done / total, 0.0, 1.0);
  const int tenth = static_cast<int>(std::floor(share * 10.0));
  // A terminal's line at most 4 times a second; a log's once per tenth of the step.
  if (tty_ ? std::chrono::duration<double>(now - last_shown_).count() < 0.25 && shown_ : tenth == last_tenth_) return;
  const double in_step = std::chrono::duration<double>(now - step_start_).count();
  char line[256];
  if (share > 0.0)
    std::snprintf(line, sizeof line, "%s: %s %.0f%%, %.0fs elapsed, ETA %.0fs", what_.c_str(), step_.c_str(),
                  100.0 * share, elapsed, in_step / share * (1.0 - share));
  else
    std::snprintf(line, sizeof line, "%s: %s 0%%, %.0fs elapsed", what_.c_str(), step_.c_str(), elapsed);
  if (tty_) std::cerr << "\r\033[K" << line << std::flush;
  else std::cerr << line << '\n' << std::flush;
  shown_ = true;
  last_tenth_ = tenth;
  last_shown_ = now;
}

}  // namespace ringsim::io
