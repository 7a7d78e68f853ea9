// Speed trace files (src/io/trace_files.hpp): SimGrid profiles and CSVs of speeds, by time or by
// iteration, periodic ones unrolled, read back to multipliers of a host's peak; bad files refused
// in one line naming file:line; speeds above the peak and suspect lines reported; the multiplier
// of an iteration against a scan of seeded traces.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>

#include "io/trace_files.hpp"
#include "input_errors.hpp"
#include "model/errors.hpp"
#include "model/speed_traces.hpp"
#include "model/trace_families.hpp"

using namespace ringsim;

using testing::error_of;

TEST_CASE("profiles written by speed_profile_text read back to the same multipliers") {
  OnOffSpec oo;
  oo.seed = 9;
  oo.available = 5;
  oo.loaded = 3;
  RandomWalkSpec rw;
  rw.seed = 2;
  const std::vector<std::pair<std::string, double>> hosts = {{"a", 1e9}, {"b", 3.5e8}};
  auto traces = on_off_traces(hosts, oo, 60);
  for (auto& t : random_walk_traces(hosts, rw, 60)) traces.push_back(t);
  const double T = 0.37;
  for (double origin : {0.0, 2.5}) {
    for (const auto& t : traces) {
      const std::string text = speed_profile_text(t, T, origin);
      const HostTrace back = io::parse_speed_profile(text, "x.profile", t.host, t.peak_speed);
      // Read-back times are absolute here (the origin is inside them): compare with origin 0.
      for (double time = 0.0; time < 70 * T + origin; time += T / 7)
        CHECK(multiplier_at_time(back, T, time) == multiplier_at_time(t, T, time, origin));
      for (int it = 0; it <= 60; ++it)
        if (origin == 0.0) CHECK(multiplier_at_iteration(back, it, T) == multiplier_at_iteration(t, it));
      // Written again, the profile is byte-identical (time-indexed changes, origin 0).
      CHECK(speed_profile_text(back, T) == text);
    }
  }
}

TEST_CASE("time-indexed changes: profile text, multipliers, a first value at time 0, loops") {
  HostTrace t{"h", 1e9, {}};
  SpeedChange c;
  c.time = 0.0;
  c.multiplier = 0.5;
  t.changes.push_back(c);
  c.time = 3.0;
  c.multiplier = 2.0;
  t.changes.push_back(c);
  CHECK(speed_profile_text(t, 1.0) == "0 0.5\n3 2\n");
  CHECK(speed_profile_text(t, 1.0, 1.5) == "0 1.0\n1.5 0.5\n4.5 2\n");
  CHECK(multiplier_at_time(t, 1.0, 2.9) == 0.5);
  CHECK(multiplier_at_time(t, 1.0, 3.0) == 2.0);
  CHECK(multiplier_at_time(t, 1.0, 1.0, 1.5) == 1.0);
  CHECK(multiplier_at_iteration(t, 2, 1.0) == 0.5);
  CHECK(multiplier_at_iteration(t, 3, 1.0) == 2.0);
  t.period = 5.0;  // LOOPAFTER 2
  CHECK(speed_profile_text(t, 1.0) == "0 0.5\n3 2\nLOOPAFTER 2\n");
  CHECK(multiplier_at_time(t, 1.0, 5.5) == 0.5);
  CHECK(multiplier_at_time(t, 1.0, 8.5) == 2.0);
  CHECK(multiplier_at_time(t, 1.0, 1003.0) == 2.0);
  const HostTrace back = io::parse_speed_profile(speed_profile_text(t, 1.0), "p", "h", 1e9);
  CHECK(back.period == 5.0);
  for (double x = 0; x < 30; x += 0.25) CHECK(multiplier_at_time(back, 1.0, x) == multiplier_at_time(t, 1.0, x));
  // with an origin, the loop is written out
  const HostTrace unrolled = io::parse_speed_profile(speed_profile_text(t, 1.0, 2.0), "p", "h", 1e9);
  CHECK(unrolled.period == 0.0);
  for (double x = 0; x < 300; x += 0.25) CHECK(multiplier_at_time(unrolled, 1.0, x) == multiplier_at_time(t, 1.0, x, 2.0));
  // iteration-indexed traces are written as before
  HostTrace it{"h", 1e9, {{3, 0.5}, {7, 1.25}}};
  CHECK(speed_profile_text(it, 2.0, 1.0) == "0 1.0\n7 0.5\n15 1.25\n");
}

TEST_CASE("a CSV of speeds gives multipliers of the host's peak, by time or by iteration") {
  const auto by_time = io::parse_speed_csv("host,time,speed\na,0,5e8\nb,1.5,2e9\na,2,1e9\n", "s.csv");
  CHECK(!by_time.by_iteration);
  const HostTrace a = io::csv_trace(by_time, "a", 1e9);
  REQUIRE(a.changes.size() == 2);
  CHECK(a.changes[0].timed());
  CHECK(multiplier_at_time(a, 1.0, 1.0) == 0.5);
  CHECK(multiplier_at_time(a, 1.0, 2.0) == 1.0);
  CHECK(io::csv_trace(by_time, "b", 1e9).changes[0].multiplier == 2.0);
  CHECK(error_of([&] { io::csv_trace(by_time, "c", 1e9); }) == "no speed trace for host 'c' in 's.csv'");
  const auto by_it = io::parse_speed_csv("host, iteration, speed\r\na,10,2.5e8\r\n", "i.csv");
  CHECK(by_it.by_iteration);
  const HostTrace ai = io::csv_trace(by_it, "a", 1e9);
  CHECK(!ai.changes[0].timed());
  CHECK(ai.changes[0].iteration == 10);
  CHECK(multiplier_at_iteration(ai, 9) == 1.0);
  CHECK(multiplier_at_iteration(ai, 10) == 0.25);
}

TEST_CASE("bad trace files are rejected with one line naming file:line") {
  auto profile = [](const std::string& text) {
    return error_of([&] { io::parse_speed_profile(text, "p.profile", "h", 1e9); });
  };
  CHECK(profile("0 1.0\n5 0.5\n3 0.7\n") == "'p.profile':3: times must be sorted (3 after 5)");
  CHECK(profile("0 1.0\n5 0\n") == "'p.profile':2: speed multiplier must be > 0, got 0");
  CHECK(profile("0 1.0\n5 -2\n") == "'p.profile':2: speed multiplier must be > 0, got -2");
  CHECK(profile("0 1.0\nfive 2\n") == "'p.profile':2: expected 'time value' or 'LOOPAFTER d', got 'five 2'");
  CHECK(profile("0 1.0 3\n") == "'p.profile':1: expected 'time value' or 'LOOPAFTER d', got '0 1.0 3'");
  CHECK(profile("-1 1.0\n") == "'p.profile':1: negative time -1");
  CHECK(profile("0 1\nLOOPAFTER x\n") == "'p.profile':2: expected 'LOOPAFTER d' with d >= 0");
  CHECK(profile("2 1\nLOOPAFTER 3\n") == "'p.profile': LOOPAFTER needs a first line at time 0");
  CHECK(profile("# comment\n\n0 1\n") == "");
  auto csv = [](const std::string& text) { return error_of([&] { io::parse_speed_csv(text, "s.csv"); }); };
  CHECK(csv("host,when,speed\n") == "'s.csv':1: expected the header host,time,speed or host,iteration,speed");
  CHECK(csv("") == "'s.csv': empty (expected the header host,time,speed or host,iteration,speed)");
  CHECK(csv("host,time,speed\na,1,1e9\nb,0,1e9\na,0.5,1e9\n") ==
        "'s.csv':4: times of host 'a' must be sorted (0.5 after 1)");
  CHECK(csv("host,time,speed\na,1,0\n") == "'s.csv':2: speed must be > 0 (flop/s), got 0");
  CHECK(csv("host,time,speed\na,1\n") == "'s.csv':2: expected 'host,time,speed', got 'a,1'");
  CHECK(csv("host,iteration,speed\na,1.5,1e9\n") == "'s.csv':2: iteration must be an integer >= 0, got 1.5");
  CHECK(csv("host,time,speed\n,1,1e9\n") == "'s.csv':2: expected 'host,time,speed', got ',1,1e9'");
  const std::string missing = "/nonexistent/dir/x.profile";
  CHECK(error_of([&] { io::read_speed_profile(missing, "h", 1e9); }) == "cannot read '" + missing + "': No such file or directory");
  CHECK(error_of([&] { io::read_speed_csv(missing); }) == "cannot read '" + missing + "': No such file or directory");
}

TEST_CASE("speeds above the peak are kept and reported with file:line, host, speed and peak") {
  std::vector<SpeedAbovePeak> above;
  const HostTrace p = io::parse_speed_profile("0 1.0\n# burst\n4 1.25\n8 0.5\n", "h.profile", "h", 2e9, &above);
  CHECK(p.changes.at(1).multiplier == 1.25);  // kept, as SimGrid keeps it
  REQUIRE(above.size() == 1);
  CHECK(above[0].where == "'h.profile':3");
  CHECK(above[0].host == "h");
  CHECK(above[0].speed == 2.5e9);
  CHECK(above[0].peak == 2e9);
  above.clear();
  const auto csv = io::parse_speed_csv("host,time,speed\na,0,1e9\nb,0,5e8\na,3,3e9\n", "s.csv");
  CHECK(io::csv_trace(csv, "a", 1e9, &above).changes.at(1).multiplier == 3.0);
  REQUIRE(above.size() == 1);
  CHECK(above[0].where == "'s.csv':4");
  CHECK(above[0].speed == 3e9);
  io::csv_trace(csv, "b", 1e9, &above);  // at or below the peak: nothing to say
  CHECK(above.size() == 1);
  CHECK(io::has_trace(csv, "b"));
  CHECK(!io::has_trace(csv, "c"));
}

TEST_CASE("traces given by iteration, placed at the iterations' starts, and periodic traces unrolled") {
  const HostTrace by_iteration{"a", 1e8, {{0, 0.9}, {20, 0.5}, {70, 0.0625}}};
  HostTrace by_time{"b", 1e8, {}};
  SpeedChange c;
  c.time = 2.0;
  c.multiplier = 0.5;
  by_time.changes.push_back(c);
  CHECK(iteration_indexed(by_iteration));
  CHECK(!iteration_indexed(by_time));
  CHECK(!iteration_indexed(HostTrace{"c", 1e8, {}}));
  CHECK(to_string(TracePlacement::iteration) == std::string("iteration"));
  CHECK(to_string(TracePlacement::nominal_time) == std::string("nominal-time"));

  // A change at iteration k at the start of iteration k (iteration 0: before iteration 1).
  const std::vector<double> start = {10.0, 10.0, 11.0, 13.0};
  const auto start_of = [&](int k) { return k < 4 ? start[static_cast<std::size_t>(k)] : 13.0 + 3.0 * (k - 3); };
  const HostTrace timed = timed_by_iteration_start(by_iteration, start_of, 10.0);
  REQUIRE(timed.changes.size() == 3);
  CHECK(timed.changes[0].time == 0.0);
  CHECK(timed.changes[1].time == 13.0 + 3.0 * 17 - 10.0);
  CHECK(timed.changes[2].iteration == 70);
  CHECK(!iteration_indexed(timed));
  CHECK(timed_by_iteration_start(by_time, start_of).changes[0].time == 2.0);

  // Non-periodic: the steps as placed; periodic: every period up to `until`, one period at least.
  const auto steps = unrolled_changes(by_iteration, 0.5, 1.0);
  REQUIRE(steps.size() == 3);
  CHECK(steps[1] == std::pair<double, double>{10.0, 0.5});
  HostTrace loop = by_time;
  loop.period = 4.0;  // 0 1.0, 2 0.5, LOOPAFTER 2
  const auto short_run = unrolled_changes(loop, 0.0, 1.0);
  REQUIRE(short_run.size() == 1);
  CHECK(short_run[0].first == 2.0);
  const auto long_run = unrolled_changes(loop, 0.0, 15.0, 1.0);
  REQUIRE(long_run.size() == 4);  // 3, 7, 11, 15
  CHECK(long_run.back() == std::pair<double, double>{15.0, 0.5});
  for (const auto& [t, m] : long_run) CHECK(m == multiplier_at_time(loop, 0.0, t, 1.0));
}

TEST_CASE("the multiplier of an iteration is the last change at or before it (seeded traces against a scan)") {
  std::mt19937_64 rng(2104);
  for (int trial = 0; trial < 2000; ++trial) {
    HostTrace t{"h", 1e8, {}};
    int it = 0;
    const int changes = static_cast<int>(rng() % 12);
    for (int k = 0; k < changes; ++k) {
      it += static_cast<int>(rng() % 4);  // repeated iterations too: the later change wins
      t.changes.push_back({it, 0.1 + static_cast<double>(rng() % 100) / 50.0});
    }
    for (int q = -1; q <= it + 2; ++q) {
      double scan = 1.0;
      for (const auto& c : t.changes)
        if (c.iteration <= q) scan = c.multiplier;
      REQUIRE(multiplier_at_iteration(t, q) == scan);
    }
  }
}

TEST_CASE("the hosts trace files name, and their suspect lines: past the last iteration, below 1e-3 of the peak") {
  const auto dir = std::filesystem::temp_directory_path() / ("ringsim-suspect-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string csv = (dir / "s.csv").string(), profile = (dir / "p.profile").string();
  std::ofstream(csv) << "host,iteration,speed\nb,0,1e9\na,0,1e9\nb,12,5e5\na,11,1e9\nzz,3,1\n";
  std::ofstream(profile) << "0 1.0\n# slow\n2 0.0005\n3 0.0001\n";
  RunConfig cfg;
  cfg.traces.source = TraceSource::files;
  cfg.iterations = 10;
  cfg.traces.csv = csv;
  const auto hosts = io::trace_file_hosts(cfg);
  REQUIRE(hosts.size() == 3);  // in the order of their first lines
  CHECK(hosts[0].name == "b");
  CHECK(hosts[0].role == "'" + csv + "':2: host");
  CHECK(hosts[2].name == "zz");
  CHECK(hosts[2].role == "'" + csv + "':6: host");
  const auto peak_of = [](const std::string& h) { return h == "zz" ? 0.0 : 1e9; };  // zz: not on the platform
  auto lines = io::suspect_trace_lines(cfg, peak_of);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "2 trace line(s) past the run's last iteration (10), never used, the first at '" + csv +
                        "':4: host 'b' at iteration 12");
  CHECK(lines[1] == "1 trace speed(s) below 0.001 of their host's peak (a multiplier written as a speed in flop/s?), "
                    "the first at '" + csv + "':4: host 'b' at 500000 flop/s, peak 1e+09 flop/s");
  cfg.iterations = 12;  // iteration 12 is the run's last: used
  CHECK(io::suspect_trace_lines(cfg, peak_of).size() == 1);

  cfg.traces.csv.clear();
  cfg.traces.profiles = {{"a", profile}, {"b", profile}};
  REQUIRE(io::trace_file_hosts(cfg).size() == 2);
  CHECK(io::trace_file_hosts(cfg)[1].role == "traces 'profiles' (file '" + profile + "'): host");
  lines = io::suspect_trace_lines(cfg, peak_of);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == "4 trace speed(s) below 0.001 of their host's peak (a multiplier written as a speed in flop/s?), "
                    "the first at '" + profile + "':3: host 'a' at multiplier 0.0005, peak 1e+09 flop/s");
  cfg.traces.source = TraceSource::factor;  // generated traces: no files, nothing to say
  CHECK(io::trace_file_hosts(cfg).empty());
  CHECK(io::suspect_trace_lines(cfg, peak_of).empty());
  std::filesystem::remove_all(dir);
}
