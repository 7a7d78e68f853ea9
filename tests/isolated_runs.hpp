// Planner runs isolated in forked children (io::fork_child, src/io/process.hpp), so that a planner
// that crashes (SIGSEGV, abort) or hangs (killed after 120 s) is reported as a failure of that run
// instead of ending the whole test program. One child makes a whole batch of runs, in order, and
// sends each outcome as it ends: a crash loses only the run in progress, and a new child goes on
// with the next one (a fork per run would cost more than the runs under AddressSanitizer, whose
// shadow memory makes each fork copy large page tables). RINGSIM_TEST_NO_FORK=1 runs them in this
// process (for a debugger).
#pragma once

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "io/process.hpp"
#include "planners/ring/ring_plan.hpp"

namespace ringsim::testing {

struct PlanOutcome {
  std::string error;  // "" when the planner returned a plan; else "threw: ...", "crashed: ..."
  ring::RingPlan plan;
};

namespace isolated {

// A plan's bytes as the child writes them and the parent reads them back.
class Bytes {
 public:
  std::string data;
  std::size_t at = 0;
  void put_raw(const void* p, std::size_t n) { data.append(static_cast<const char*>(p), n); }
  void put(double x) { put_raw(&x, sizeof x); }
  void put(std::size_t x) { put_raw(&x, sizeof x); }
  void put(const std::string& s) {
    put(s.size());
    data += s;
  }
  void put(const std::vector<std::size_t>& v) {
    put(v.size());
    for (auto x : v) put(x);
  }
  void put(const std::vector<double>& v) {
    put(v.size());
    for (auto x : v) put(x);
  }
  bool get_raw(void* p, std::size_t n) {
    if (at + n > data.size()) return false;
    std::memcpy(p, data.data() + at, n);
    at += n;
    return true;
  }
  bool get(double& x) { return get_raw(&x, sizeof x); }
  bool get(std::size_t& x) { return get_raw(&x, sizeof x); }
  bool get(std::string& s) {
    std::size_t n = 0;
    if (!get(n) || at + n > data.size()) return false;
    s.assign(data, at, n);
    at += n;
    return true;
  }
  template <class T>
  bool get(std::vector<T>& v) {
    std::size_t n = 0;
    if (!get(n) || n > data.size()) return false;
    v.resize(n);
    for (auto& x : v)
      if (!get(x)) return false;
    return true;
  }
};

inline void put_plan(Bytes& b, const ring::RingPlan& plan) {
  b.put(plan.method);
  b.put(plan.ring);
  for (const auto* paths : {&plan.succ, &plan.pred}) {
    b.put(paths->size());
    for (const auto& path : *paths) {
      b.put(path.from);
      b.put(path.to);
      b.put(path.links);
    }
  }
  b.put(plan.succ_bw);
  b.put(plan.pred_bw);
  b.put(plan.tstep);
  b.put(plan.objective);
  b.put(std::size_t{plan.optimal ? (*plan.optimal ? 2u : 1u) : 0u});
}

inline bool get_plan(Bytes& b, ring::RingPlan& plan) {
  bool ok = b.get(plan.method) && b.get(plan.ring);
  for (auto* paths : {&plan.succ, &plan.pred}) {
    std::size_t n = 0;
    ok = ok && b.get(n) && n <= b.data.size();
    if (!ok) return false;
    paths->resize(n);
    for (auto& path : *paths) ok = ok && b.get(path.from) && b.get(path.to) && b.get(path.links);
  }
  std::size_t optimal = 0;
  ok = ok && b.get(plan.succ_bw) && b.get(plan.pred_bw) && b.get(plan.tstep) && b.get(plan.objective) && b.get(optimal);
  if (optimal) plan.optimal = optimal == 2;
  return ok;
}

// One outcome as the child sends it: its length, then 'P' and the plan, or 'E' and the message.
inline Bytes outcome_frame(const std::function<ring::RingPlan(std::size_t)>& run, std::size_t item) {
  Bytes b;
  try {
    const ring::RingPlan plan = run(item);
    b.data = "P";
    put_plan(b, plan);
  } catch (const std::exception& e) {
    b.data = std::string("E") + e.what();
  } catch (...) {
    b.data = "Ean exception that is not a std::exception";
  }
  Bytes frame;
  frame.put(b.data.size());
  frame.data += b.data;
  return frame;
}

inline bool write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const auto w = write(fd, data.data() + done, data.size() - done);
    if (w <= 0) return false;
    done += static_cast<std::size_t>(w);
  }
  return true;
}

// The child: items first, first + 1, ... count - 1, each outcome written as soon as it is known;
// its exit status (3: the parent stopped reading).
inline int run_batch_in_child(int fd, const std::function<ring::RingPlan(std::size_t)>& run, std::size_t first,
                              std::size_t count) {
  // doctest's crash handlers would report the crash from the child: the default action instead.
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGALRM}) std::signal(sig, SIG_DFL);
  for (std::size_t item = first; item < count; ++item) {
    alarm(120);  // a planner that never returns is reported as killed by SIGALRM
    if (!write_all(fd, outcome_frame(run, item).data)) return 3;
  }
  return 0;
}

// Outcome `out` from one frame of `b` (at b.at); false when the frame is cut short.
inline bool read_frame(Bytes& b, PlanOutcome& out) {
  std::size_t length = 0;
  if (!b.get(length) || b.at + length > b.data.size() || length == 0) return false;
  Bytes one;
  one.data = b.data.substr(b.at, length);
  b.at += length;
  if (one.data[0] == 'E') {
    out.error = "threw: " + one.data.substr(1);
  } else {
    one.at = 1;
    if (!get_plan(one, out.plan)) out.error = "crashed: unreadable plan from the child process";
  }
  return true;
}

inline std::string crash_message(const io::ChildStatus& status) {
  if (status.signal() != 0)
    return "crashed: signal " + std::to_string(status.signal()) + " (" + strsignal(status.signal()) + ")";
  return "crashed: the child process exited with status " + std::to_string(status.exit_status());
}

// Runs items first.. in one child and files their outcomes in `out`; returns the first item not
// done (after the one that crashed, whose outcome says how).
inline std::size_t run_batch(std::vector<PlanOutcome>& out, const std::function<ring::RingPlan(std::size_t)>& run,
                             std::size_t first) {
  io::ChildOptions options;
  options.what = "isolated planner runs";
  options.pipe_from_child = true;
  io::Child child = io::fork_child(
      [&](const io::ChildEnds& ends) { return run_batch_in_child(ends.to_parent, run, first, out.size()); }, options);
  Bytes b;
  b.data = child.read_all();
  const io::ChildStatus status = child.wait();
  std::size_t item = first;
  while (item < out.size() && read_frame(b, out[item])) ++item;
  if (item == out.size() && status.ok()) return item;
  if (item == out.size()) item = out.size() - 1;  // every frame came, then the child failed
  out[item] = PlanOutcome{};
  out[item].error = status.ok() ? "crashed: the child process ended before its answer" : crash_message(status);
  return item + 1;
}

}  // namespace isolated

// `run(i)` for i in [0, count), each run's plan or its failure.
inline std::vector<PlanOutcome> isolated_runs(std::size_t count,
                                              const std::function<ring::RingPlan(std::size_t)>& run) {
  std::vector<PlanOutcome> out(count);
  if (std::getenv("RINGSIM_TEST_NO_FORK")) {
    for (std::size_t i = 0; i < count; ++i) {
      try {
        out[i].plan = run(i);
      } catch (const std::exception& e) {
        out[i].error = std::string("threw: ") + e.what();
      }
    }
    return out;
  }
  for (std::size_t next = 0; next < count;) next = isolated::run_batch(out, run, next);
  return out;
}

}  // namespace ringsim::testing
