// The progress line of long plannings (io/progress_line.hpp): silent while quiet, then a line per
// tenth of a step with its share, the time taken and an estimate of the time left (stderr is not
// a terminal under the tests).
#include <doctest/doctest.h>

#include <unistd.h>

#include <iostream>
#include <sstream>
#include <string>

#include "io/progress_line.hpp"

using namespace ringsim;

namespace {

// What the lines written while `body` runs were (std::cerr captured).
template <class Body>
std::string stderr_of(Body body) {
  std::ostringstream captured;
  std::streambuf* old = std::cerr.rdbuf(captured.rdbuf());
  body();
  std::cerr.rdbuf(old);
  return captured.str();
}

int lines_of(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

}  // namespace

TEST_CASE("progress line: nothing while quiet, then a line per tenth of each step with its share and an estimate") {
  if (isatty(STDERR_FILENO)) return;  // the terminal form rewrites one line in place instead
  CHECK(stderr_of([] {
          io::ProgressLine line("hindsight", 1e9);
          for (int k = 0; k < 100; ++k) line.update("recurrence", k, 100);
        }).empty());
  const std::string out = stderr_of([] {
    io::ProgressLine line("hindsight", 0.0);
    for (int k = 0; k < 100; ++k) line.update("recurrence", k, 100);
    for (int k = 0; k < 10; ++k) line.update("single changes, round 1", k, 20);
  });
  CHECK(lines_of(out) == 10 + 5);  // tenths 0-9 of the first step, 0-4 of the second
  CHECK(out.find("hindsight: recurrence 0%, 0s elapsed\n") == 0);
  CHECK(out.find("hindsight: recurrence 50%, ") != std::string::npos);
  CHECK(out.find("ETA ") != std::string::npos);
  CHECK(out.find("hindsight: single changes, round 1 40%, ") != std::string::npos);
  CHECK(out.find("hindsight: recurrence 95%") == std::string::npos);  // one line per tenth only
}
