// A long computation's progress on stderr, as a sweep's is shown (src/cli/cmd_run.cpp): what it
// is, the step it is at, how far, the time taken and an estimate of the time left. Silent for a
// computation shorter than a few seconds; on a terminal the line is rewritten in place, elsewhere
// (a sweep's run log) one line per tenth of each step.
#pragma once

#include <chrono>
#include <string>

namespace ringsim::io {

class ProgressLine {
 public:
  explicit ProgressLine(std::string what, double quiet_seconds = 2.0);
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine();

  // `done` of `total` units of the step named `step` (a new name starts a new step, its time
  // measured from then: the estimate extrapolates the step's own pace).
  void update(const std::string& step, double done, double total);

 private:
  using clock = std::chrono::steady_clock;
  std::string what_, step_;
  double quiet_seconds_;
  bool tty_;
  bool shown_ = false;
  int last_tenth_ = -1;
  clock::time_point start_, step_start_, last_shown_;
};

}  // namespace ringsim::io
