// The forked-child helper (src/io/process.hpp): how a child ends, what comes back through its pipes
// and its output, and what never runs in it (destructors, atexit handlers after end_child).
#include <doctest/doctest.h>

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "io/process.hpp"
#include "model/errors.hpp"

using namespace ringsim;

namespace {

// The child's standard error (report_failure's line) is not the test's.
io::ChildOptions quiet() {
  io::ChildOptions o;
  o.stderr_file = "/dev/null";
  return o;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("a forked child's exit status: its own, 2 for bad input, 1 for other failures, 128 + N for signal N") {
  CHECK(io::fork_child([] { return 0; }).wait().ok());
  const io::ChildStatus three = io::fork_child([] { return 3; }).wait();
  CHECK(!three.ok());
  CHECK(three.signal() == 0);
  CHECK(three.exit_status() == 3);
  CHECK(io::fork_child([]() -> int { throw InputError("bad"); }, quiet()).wait().exit_status() == 2);
  CHECK(io::fork_child([]() -> int { throw std::invalid_argument("bad"); }, quiet()).wait().exit_status() == 2);
  CHECK(io::fork_child([]() -> int { throw std::runtime_error("broken"); }, quiet()).wait().exit_status() == 1);
  const io::ChildStatus killed = io::fork_child([] {
                                   std::raise(SIGKILL);
                                   return 0;
                                 }).wait();
  CHECK(killed.signal() == SIGKILL);
  CHECK(killed.exit_status() == 128 + SIGKILL);
  io::Child child = io::fork_child([] { return 5; });
  CHECK(child.wait().exit_status() == 5);
  CHECK(child.wait().exit_status() == 5);  // a second wait says the same
}

TEST_CASE("a forked child's pipes: what the parent writes and what the child answers") {
  io::ChildOptions o;
  o.pipe_to_child = o.pipe_from_child = true;
  io::Child child = io::fork_child(
      [](const io::ChildEnds& ends) {
        char got[3];
        if (::read(ends.from_parent, got, sizeof got) != 3) return 1;
        const std::string answer = "got " + std::string(got, 3);
        return ::write(ends.to_parent, answer.data(), answer.size()) < 0 ? 1 : 0;
      },
      o);
  REQUIRE(::write(child.to_child(), "abc", 3) == 3);
  CHECK(child.read_all() == "got abc");
  CHECK(child.wait().ok());
}

TEST_CASE("a forked child's output goes to its file, flushed when it ends, without its destructors") {
  const auto file = std::filesystem::temp_directory_path() / ("ringsim-test-process-" + std::to_string(::getpid()));
  struct SaysBye {
    ~SaysBye() { std::printf(" bye"); }
  };
  io::ChildOptions o;
  o.stdout_file = file.string();
  CHECK(io::fork_child(
            []() -> int {
              SaysBye unsaid;
              std::printf("hello");  // buffered: a file is not a terminal
              io::end_child(4);
            },
            o)
            .wait()
            .exit_status() == 4);
  CHECK(read_text(file) == "hello");
  CHECK(io::fork_child(
            [] {
              std::printf("again");
              return 0;
            },
            o)
            .wait()
            .ok());
  CHECK(read_text(file) == "again");  // emptied, then written
  std::filesystem::remove(file);
}

TEST_CASE("a value computed in a forked child, and its failures as the parent's") {
  CHECK(io::ChildValue([] { return 0.1; }, "sum").get() == 0.1);  // all 17 digits
  CHECK_THROWS_WITH_AS(io::ChildValue([]() -> double { throw InputError("no such host"); }, "sum").get(),
                       "no such host", InputError);
  CHECK_THROWS_WITH_AS(io::ChildValue([]() -> double { throw std::runtime_error("oops"); }, "sum").get(),
                       "the sum failed: oops", std::runtime_error);
  CHECK_THROWS_WITH_AS(io::ChildValue([]() -> double { std::raise(SIGKILL); return 0; }, "sum").get(),
                       "the sum failed", std::runtime_error);
}
