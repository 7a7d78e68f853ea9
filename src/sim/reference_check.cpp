#include "sim/reference_check.hpp"

#include <sys/prctl.h>
#include <unistd.h>

#include <xbt/log.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <set>

#include "io/progress_line.hpp"
#include "model/errors.hpp"
#include "policy/registry.hpp"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(ringsim_app_reference_check, ringsim_app,
                                "ringsim: a reference simulated against the schemes it must beat");

namespace ringsim::sim {

namespace {

// The schemes of `check` to simulate, one per set of points; none with `own`'s points when given.
std::vector<std::string> one_per_points(const std::vector<std::string>& check, int iterations,
                                        const std::vector<int>* own) {
  std::set<std::vector<int>> seen;
  if (own) seen.insert(*own);
  std::vector<std::string> out;
  for (const auto& s : check)
    if (seen.insert(*policy::fixed_points_of(s, iterations)).second) out.push_back(s);
  return out;
}

// The fixed schemes of `check` to simulate beside `own`: none with the reference's own points unless
// the reference also chose its targets (then the same points move elsewhere).
std::vector<std::string> schemes_to_simulate(const SimulatedScheme& own, const std::vector<std::string>& check,
                                             int iterations) {
  if (!own.point_loads.empty()) return one_per_points(check, iterations, nullptr);
  const std::vector<int> points = *policy::fixed_points_of(own.scheme, iterations);
  return one_per_points(check, iterations, &points);
}

// What a check's child is called in its failures.
std::string check_of(const std::string& scheme) { return "check of the reference against scheme '" + scheme + "'"; }

// The answer line (io::answer_line) of `s` simulated in a child forked from the loaded simulation:
// the child's output and its trace events go nowhere (the run reports one scheme). The child ends
// with the process that forked it: no simulation outlives the run that asked for it.
std::string simulated_in_child(const SimulatedScheme& s, const RunToEnd& run_to_end,
                               const platform::PajeTraceFile& paje_trace) {
  io::ChildOptions quiet;
  quiet.stdout_file = quiet.stderr_file = "/dev/null";
  const pid_t parent = ::getpid();
  io::ChildValue makespan(
      [&] {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) io::end_child(1);
        paje_trace.discard_writes();
        return run_to_end(s);
      },
      check_of(s.scheme), quiet);
  return makespan.answer();
}

// The makespan an answer line gives for `scheme`; its failure is the run's.
double makespan_of(const std::string& scheme, const std::string& answer) {
  try {
    return io::answered_value(answer, check_of(scheme));
  } catch (const InputError& e) {
    throw InputError("simulating scheme '" + scheme + "' to check the reference: " + e.what());
  }
}

bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t k = ::write(fd, text.data() + done, text.size() - done);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    done += static_cast<std::size_t>(k);
  }
  return true;
}

}  // namespace

FixedSchemeChecks::FixedSchemeChecks(const std::vector<std::string>& check, int iterations, const RunToEnd& run_to_end,
                                     const platform::PajeTraceFile& paje_trace)
    : schemes_(one_per_points(check, iterations, nullptr)), makespans_(schemes_.size()), run_to_end_(run_to_end),
      paje_trace_(paje_trace) {
  if (schemes_.empty() || io::usable_processors() < 2) return;
  io::ChildOptions options;
  options.what = "check of the reference against the fixed schemes";
  options.pipe_from_child = true;
  options.stdout_file = options.stderr_file = "/dev/null";
  const pid_t parent = ::getpid();
  runner_ = io::fork_child(
      [this, parent](const io::ChildEnds& ends) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) return 1;
        paje_trace_.discard_writes();
        for (const auto& s : schemes_) {
          const std::string line = simulated_in_child(SimulatedScheme{s, {}}, run_to_end_, paje_trace_);
          if (!write_all(ends.to_parent, line + '\n') || line.empty() || line[0] != 'V') return 1;
        }
        return 0;
      },
      options);
}

FixedSchemeChecks::~FixedSchemeChecks() {
  if (runner_.pid() > 0 && !std::all_of(makespans_.begin(), makespans_.end(), [](const auto& m) { return m.has_value(); }))
    ::kill(runner_.pid(), SIGKILL);
}

double FixedSchemeChecks::makespan(const std::string& scheme) {
  const auto at = static_cast<std::size_t>(std::find(schemes_.begin(), schemes_.end(), scheme) - schemes_.begin());
  if (at == schemes_.size()) throw std::logic_error("a reference's check asked for a scheme it does not simulate");
  if (makespans_[at]) return *makespans_[at];
  if (runner_.pid() <= 0)
    return *(makespans_[at] = makespan_of(scheme, simulated_in_child(SimulatedScheme{scheme, {}}, run_to_end_, paje_trace_)));
  // The runner answers in the order of schemes_, a line each; it ends at its first failure.
  for (std::size_t next = static_cast<std::size_t>(std::count_if(makespans_.begin(), makespans_.end(),
                                                                  [](const auto& m) { return m.has_value(); }));
       next <= at; ++next) {
    std::size_t end;
    while ((end = unread_.find('\n')) == std::string::npos) {
      char chunk[4096];
      const ssize_t k = ::read(runner_.from_child(), chunk, sizeof chunk);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) break;  // the runner ended without this answer
      unread_.append(chunk, static_cast<std::size_t>(k));
    }
    const std::string line = end == std::string::npos ? std::string() : unread_.substr(0, end);
    unread_.erase(0, end == std::string::npos ? unread_.size() : end + 1);
    makespans_[next] = makespan_of(schemes_[next], line);
  }
  return *makespans_[at];
}

SimulatedScheme check_reference(int iterations, const SimulatedScheme& own, const std::vector<std::string>& check,
                                const RunToEnd& run_to_end, FixedSchemeChecks& fixed,
                                const platform::PajeTraceFile& paje_trace, RunResult::Hindsight& h) {
  const std::vector<std::string> others = schemes_to_simulate(own, check, iterations);
  if (others.empty()) return own;
  // One whole simulation per scheme: on a large ring they take minutes, told on stderr.
  io::ProgressLine line("reference check");
  const double runs = static_cast<double>(others.size() + 1);
  const char* step = "simulating its points and the fixed schemes";
  line.update(step, 0.0, runs);
  h.points_makespan = makespan_of(own.scheme, simulated_in_child(own, run_to_end, paje_trace));
  double simulated = 1.0;
  line.update(step, simulated, runs);
  SimulatedScheme best = own;
  double fastest = h.points_makespan;
  for (const auto& s : others) {
    const double makespan = fixed.makespan(s);
    line.update(step, ++simulated, runs);
    h.checked.push_back({s, makespan});
    XBT_INFO("reference %s: %.17g s; checked %s: %.17g s", own.scheme.c_str(), h.points_makespan, s.c_str(), makespan);
    if (makespan < fastest) {
      fastest = makespan;
      best = SimulatedScheme{s, {}};
    }
  }
  h.points_kept = best.scheme == own.scheme && best.point_loads == own.point_loads;
  return best;
}

double kept_makespan(const RunResult::Hindsight& h) {
  double fastest = h.points_makespan;
  for (const auto& c : h.checked) fastest = std::min(fastest, c.makespan);
  return fastest;
}

}  // namespace ringsim::sim
