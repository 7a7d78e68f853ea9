// What a policy knows arrived in a simulated message: a spy policy records, at every member and
// iteration, the reports it holds; one member's speed drops, and no other member may see the drop
// before a border message could have carried it (one hop per iteration each way), nor later.
// Each test case runs one SimGrid simulation (each case is its own process under ctest).
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/process.hpp"
#include "model/run_config.hpp"
#include "policy/registry.hpp"
#include "sim/ring_simulation.hpp"

using namespace ringsim;
using namespace ringsim::policy;

namespace {

constexpr std::size_t kMembers = 9;  // reach: 4 hops forward, 4 backward
constexpr std::size_t kSlowed = 3;
constexpr double kPeak = 100e6;

struct Seen {
  std::size_t member = 0;
  int iteration = 0;
  std::vector<Report> newest;
  int common_iteration = 0;
  std::vector<Report> common;
};

std::vector<Seen>& seen() {
  static std::vector<Seen> all;
  return all;
}

class Spy final : public RedistributionPolicy {
 public:
  bool piggybacks_reports() const override { return true; }
  bool reads_newest() const override { return true; }
  Act after_iteration(const MemberView& v) override {
    seen().push_back({v.me, v.iteration, *v.newest, v.common_iteration, *v.common});
    return Act::carry_on;
  }
};

// Decides at member 0 only: the simulation must refuse it.
class Liar final : public RedistributionPolicy {
 public:
  bool piggybacks_reports() const override { return true; }
  Act after_iteration(const MemberView& v) override {
    return v.me == 0 && v.iteration == 5 ? Act::gather_and_decide : Act::carry_on;
  }
};

// Records the ring's iteration time every member is told, and looks once, after iteration 20
// (every member alike), so that columns move in between.
struct Timed {
  std::size_t member = 0;
  int iteration = 0;
  double ring_time = 0.0;
};

std::vector<Timed>& timed() {
  static std::vector<Timed> all;
  return all;
}

class Timer final : public RedistributionPolicy {
 public:
  bool piggybacks_reports() const override { return true; }
  Act after_iteration(const MemberView& v) override {
    timed().push_back({v.me, v.iteration, v.ring_time});
    return v.iteration == 20 ? Act::gather_and_decide : Act::carry_on;
  }
};

void register_test_policies() {
  add_policy("timer", "test", [](const SchemeArgs&) { return std::make_unique<Timer>(); });
  add_policy("spy", "test", [](const SchemeArgs&) { return std::make_unique<Spy>(); });
  add_policy("liar", "test", [](const SchemeArgs&) { return std::make_unique<Liar>(); });
}

// A cluster of 9 identical hosts and a speed CSV where member 3 drops to a quarter after 10
// iterations; returns the run config.
RunConfig nine_member_run(const std::string& scheme, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "cluster9.xml") << R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-8" speed="100Mf" bw="10MBps" lat="1ms" bb_bw="1GBps" bb_lat="0s"/>
</platform>
)";
  std::ofstream csv(dir / "speeds.csv");
  csv << "host,iteration,speed\n";
  for (std::size_t i = 0; i < kMembers; ++i) csv << "h" << i << ",0," << kPeak << "\n";
  csv << "h" << kSlowed << ",10," << kPeak / 4 << "\n";
  csv.close();
  RunConfig cfg;
  cfg.platform = (dir / "cluster9.xml").string();
  cfg.ring.selection = RingSelection::hosts;
  for (std::size_t i = 0; i < kMembers; ++i) cfg.ring.hosts.push_back("h" + std::to_string(i));
  cfg.ring.size = static_cast<int>(kMembers);
  cfg.iterations = 40;
  cfg.columns = 180;
  cfg.rows = 100;
  cfg.ratio = 1.0;
  cfg.scheme.name = scheme;
  cfg.targets = TargetMode::measured;
  cfg.baseline = false;
  cfg.traces.source = TraceSource::files;
  cfg.traces.csv = (dir / "speeds.csv").string();
  return cfg;
}

std::filesystem::path scratch(const char* name) {
  return std::filesystem::temp_directory_path() / ("ringsim-simtest-" + std::to_string(getpid()) + "-" + name);
}

// The nine-member run under one of the test policies (one simulation: once per process).
RunResult run_nine_members(const std::string& scheme) {
  register_test_policies();
  const auto dir = scratch(scheme.c_str());
  const RunConfig cfg = nine_member_run(scheme, dir);
  char arg0[] = "ringsim";
  char* argv[] = {arg0, nullptr};
  int argc = 1;
  const RunResult res = sim::run_simulation(cfg, &argc, argv);
  std::filesystem::remove_all(dir);
  return res;
}

// Hops a report of member `from` travels to reach member `to` (forward up to floor(n/2), else backward).
int hops(std::size_t from, std::size_t to) {
  const std::size_t forward = (to + kMembers - from) % kMembers;
  return static_cast<int>(forward <= kMembers / 2 ? forward : kMembers - forward);
}

bool slowed(const Report& r) { return r.iteration > 0 && std::abs(r.speed - kPeak) > 0.05 * kPeak; }

}  // namespace

TEST_CASE("a policy sees a speed change exactly when a border message could have brought it") {
  const RunResult res = run_nine_members("spy");
  REQUIRE(res.iterations.size() == 40);
  REQUIRE(seen().size() == kMembers * 40);

  // The member itself measures the drop first, in some iteration c of the run.
  int c = 0;
  for (const Seen& s : seen())
    if (s.member == kSlowed && c == 0 && slowed(s.newest[kSlowed])) c = s.iteration;
  REQUIRE(c > 1);
  REQUIRE(c < 30);
  int checked = 0;
  for (const Seen& s : seen()) {
    for (std::size_t j = 0; j < kMembers; ++j) {
      // After iteration t, member i holds member j's report of iteration t - d + 1 (its own: t).
      const int d = hops(j, s.member);
      const int expected = d == 0 ? s.iteration : s.iteration - d + 1;
      CHECK(s.newest[j].iteration == (expected >= 1 ? expected : 0));
      ++checked;
    }
    // The drop of member 3 is known no sooner than a message could carry it, and no later.
    const int d = hops(kSlowed, s.member);
    const int first = d == 0 ? c : c + d - 1;
    CHECK(slowed(s.newest[kSlowed]) == (s.iteration >= first));
    // The common snapshot: every member's report of iteration t - 3 (t - floor(9/2) + 1), alike everywhere.
    if (s.iteration >= 4) {
      REQUIRE(s.common.size() == kMembers);
      CHECK(s.common_iteration == s.iteration - 3);
      for (const Report& r : s.common) CHECK(r.iteration == s.iteration - 3);
      CHECK(slowed(s.common[kSlowed]) == (s.common_iteration >= c));
    } else {
      CHECK(s.common_iteration == 0);
    }
  }
  CHECK(checked == static_cast<int>(kMembers * kMembers * 40));
}

TEST_CASE("every member is told the ring's previous iteration time, as the run records it, across a move") {
  const RunResult res = run_nine_members("timer");
  REQUIRE(res.iterations.size() == 40);
  REQUIRE(timed().size() == kMembers * 40);
  // Member 3 slowed at iteration 10: the look after iteration 20 moved columns away from it.
  REQUIRE(res.points.size() == 1);
  CHECK(res.points[0].after_iteration == 20);
  CHECK(res.points[0].performed);
  for (const Timed& t : timed()) {
    INFO("member ", t.member, ", iteration ", t.iteration);
    if (t.iteration <= 2) {
      // Nothing before iteration 1, and iteration 1 starts as each member's columns arrive.
      CHECK(t.ring_time == 0.0);
      continue;
    }
    // Iteration t - 1 from its common start (after the barrier or the move) to its barrier.
    const IterationRecord& rec = res.iterations[static_cast<std::size_t>(t.iteration - 2)];
    CHECK(t.ring_time == rec.end - rec.start);
    CHECK(t.ring_time > 0.0);
  }
  // The move made iterations shorter: what members were told shows it.
  CHECK(res.iterations[25].end - res.iterations[25].start < 0.9 * (res.iterations[15].end - res.iterations[15].start));
}

TEST_CASE("members that answer differently stop the simulation, naming the policy and the iteration") {
  register_test_policies();
  const auto dir = scratch("liar");
  const RunConfig cfg = nine_member_run("liar", dir);
  // An error raised inside an actor ends the simulation and is rethrown by run_simulation; the run
  // is a child (one simulation per process), and what it reports is kept from its stderr.
  const auto err = dir / "stderr.txt";
  io::ChildOptions options;
  options.stderr_file = err.string();
  const auto run = [&] {
    char arg0[] = "ringsim";
    char* argv[] = {arg0, nullptr};
    int argc = 1;
    sim::run_simulation(cfg, &argc, argv);
    return 0;
  };
  const io::ChildStatus status = io::fork_child(run, options).wait();
  std::ifstream in(err);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove_all(dir);
  CHECK_FALSE(status.ok());
  CHECK(text.find("policy 'liar' answered differently at members 0 and 1 after iteration 5") != std::string::npos);
}
