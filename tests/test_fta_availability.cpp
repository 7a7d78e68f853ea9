// FTA availability traces (src/io/fta_availability.hpp): the example file's nodes, events and
// speed changes at the right times; contiguous, zero-length and unordered events; bad files refused
// in one line naming the file, the line and the problem; traces source "fta" in run configs.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "input_errors.hpp"
#include "io/fta_availability.hpp"
#include "io/run_config_json.hpp"
#include "model/errors.hpp"
#include "model/speed_traces.hpp"

using namespace ringsim;

using testing::error_of;

namespace {

const std::string kExample = std::string(RINGSIM_TEST_DATA_DIR) + "/fta_event_trace.tab";

// (time, multiplier) of each change.
std::vector<std::pair<double, double>> steps(const HostTrace& t) {
  std::vector<std::pair<double, double>> out;
  for (const auto& c : t.changes) {
    CHECK(c.timed());
    out.emplace_back(c.time, c.multiplier);
  }
  return out;
}

using Steps = std::vector<std::pair<double, double>>;

const std::string kHeader = "event_id\tcomponent_id\tnode_id\tplatform_id\tnode_name\tevent_type\tevent_start_time\t"
                            "event_stop_time\tevent_end_reason\n";

}  // namespace

TEST_CASE("FTA event trace: the example file's nodes, events and changes at the right times") {
  const io::FtaEventTrace t = io::read_fta_event_trace(kExample);
  CHECK(t.origin == 1262304000.0);
  CHECK(t.nodes == std::vector<std::string>{"101", "102", "103"});
  REQUIRE(t.events.at("102").size() == 3);
  CHECK(!t.events.at("102")[0].available);
  CHECK(t.events.at("102")[2].stop == 1262304090.5);
  CHECK(t.events.at("102")[2].line == 10);

  // Unavailable periods at 0.01 of the peak, available ones and uncovered time at the peak; times
  // from the file's earliest start.
  CHECK(steps(io::fta_host_trace(t, "101", "a", 1e9, 0.01, 1.0)) == Steps{{30, 0.01}, {50, 1.0}});
  CHECK(steps(io::fta_host_trace(t, "102", "b", 1e9, 0.01, 1.0)) ==
        Steps{{0, 0.01}, {20, 1.0}, {80, 0.01}, {90.5, 1.0}});
  CHECK(steps(io::fta_host_trace(t, "103", "c", 1e9, 0.01, 1.0)) == Steps{{75, 0.01}, {100, 1.0}});
  // time_scale: 10 s of trace per simulated second; another multiplier.
  CHECK(steps(io::fta_host_trace(t, "102", "b", 1e9, 0.2, 10.0)) ==
        Steps{{0, 0.2}, {2, 1.0}, {8, 0.2}, {9.05, 1.0}});
  const HostTrace b = io::fta_host_trace(t, "102", "b", 2e9, 0.01, 1.0);
  CHECK(b.host == "b");
  CHECK(b.peak_speed == 2e9);
  CHECK(multiplier_at_time(b, 1.0, 10.0) == 0.01);
  CHECK(multiplier_at_time(b, 1.0, 50.0) == 1.0);
  CHECK(multiplier_at_time(b, 1.0, 85.0) == 0.01);
  CHECK(multiplier_at_time(b, 1.0, 95.0) == 1.0);
  CHECK(speed_profile_text(b, 1.0) == "0 0.01\n20 1\n80 0.01\n90.5 1\n");
  CHECK(error_of([&] { io::fta_host_trace(t, "104", "d", 1e9, 0.01, 1.0); }) ==
        "no node '104' in FTA event trace '" + kExample + "'");
}

TEST_CASE("FTA event trace: contiguous and zero-length events, events out of order, no header") {
  // Two unavailable events back to back make one period; a zero-length one changes nothing;
  // lines of a node in any order; 8 columns (no event_end_reason); CRLF line ends.
  const std::string text =
      "1\t1\t7\t1\tn\t0\t100\t110\t1\r\n"
      "2\t1\t7\t1\tn\t0\t110\t130\r\n"
      "4\t1\t7\t1\tn\t0\t150\t150\t1\n"
      "3\t1\t7\t1\tn\t1\t130\t140\t0\n"
      "5\t1\t8\t1\tm\t1\t90\t95\t0\n";
  const io::FtaEventTrace t = io::parse_fta_event_trace(text, "x.tab");
  CHECK(t.origin == 90.0);
  CHECK(t.nodes == std::vector<std::string>{"7", "8"});
  CHECK(steps(io::fta_host_trace(t, "7", "h", 1.0, 0.05, 1.0)) == Steps{{10, 0.05}, {40, 1.0}});
  CHECK(steps(io::fta_host_trace(t, "8", "h", 1.0, 0.05, 1.0)).empty());
}

TEST_CASE("FTA event trace: bad files are one line naming the file, the line and the problem") {
  const auto bad = [](const std::string& body) { return error_of([&] { io::parse_fta_event_trace(kHeader + body, "f.tab"); }); };
  CHECK(bad("1\t1\t7\t1\tn\t0\t100\n") ==
        "'f.tab':2: expected 8 or 9 tab-separated columns (event_id, component_id, node_id, platform_id, node_name, "
        "event_type, event_start_time, event_stop_time [, event_end_reason]), got 7");
  CHECK(bad("1 1 7 1 n 0 100 110 1\n").find("'f.tab':2: expected 8 or 9 tab-separated columns") == 0);
  CHECK(bad("1\t1\t7\t1\tn\t0\t100\t90\t1\n") == "'f.tab':2: event_stop_time 90 is before event_start_time 100");
  CHECK(bad("1\t1\t7\t1\tn\t2\t100\t110\t1\n") ==
        "'f.tab':2: unknown event_type '2' (column 6: 0 = unavailable, 1 = available)");
  CHECK(bad("1\t1\t7\t1\tn\t0\tnoon\t110\t1\n") == "'f.tab':2: event_start_time (column 7) must be a number, got 'noon'");
  CHECK(bad("1\t1\t7\t1\tn\t0\t100\t\t1\n") == "'f.tab':2: event_stop_time (column 8) must be a number, got ''");
  CHECK(bad("1\t1\t\t1\tn\t0\t100\t110\t1\n") == "'f.tab':2: empty node_id (column 3)");
  CHECK(bad("1\t1\t7\t1\tn\t0\t100\t120\t1\n2\t1\t8\t1\tm\t0\t100\t120\t1\n3\t1\t7\t1\tn\t1\t110\t130\t0\n") ==
        "'f.tab':4: the event of node '7' overlaps the one at line 2 (each node's intervals must be disjoint)");
  // the later line is named, whichever comes first in time
  CHECK(bad("1\t1\t7\t1\tn\t0\t200\t220\t1\n2\t1\t7\t1\tn\t1\t150\t210\t0\n") ==
        "'f.tab':3: the event of node '7' overlaps the one at line 2 (each node's intervals must be disjoint)");
  CHECK(bad("") == "'f.tab': no events (expected tab-separated lines event_id, component_id, node_id, platform_id, "
                   "node_name, event_type, event_start_time, event_stop_time [, event_end_reason])");
  CHECK(error_of([] { io::read_fta_event_trace("no-such-file.tab"); }).find("no-such-file.tab") != std::string::npos);
}

TEST_CASE("traces source fta: parsed, validated and written back in canonical form") {
  for (const char* text : {
           R"({"ratio": 1, "traces": {"source": "fta", "file": "a.tab", "unavailable_multiplier": 0.01, "time_scale": 1.0}})",
           R"({"ratio": 1, "traces": {"source": "fta", "file": "a.tab", "unavailable_multiplier": 0.5, "time_scale": 60.0, "nodes": {"h1": "101", "h2": "7"}}})"}) {
    const auto cfg = io::parse_run_config(nlohmann::json::parse(text), "t");
    CHECK(cfg.traces.source == TraceSource::fta);
    const auto j = io::run_config_to_json(cfg);
    CHECK(j["traces"] == nlohmann::json::parse(text)["traces"]);
    CHECK(io::run_config_to_json(io::parse_run_config(j, "t")) == j);
  }
  const auto defaults = io::parse_run_config(nlohmann::json::parse(R"({"ratio": 1, "traces": {"source": "fta", "file": "a.tab", "nodes": {"h": 3}}})"), "t");
  CHECK(defaults.traces.fta.unavailable_multiplier == 0.01);
  CHECK(defaults.traces.fta.time_scale == 1.0);
  CHECK(defaults.traces.fta.nodes == std::vector<std::pair<std::string, std::string>>{{"h", "3"}});
  const auto err = [](const char* traces) {
    return error_of([&] { io::parse_run_config(nlohmann::json::parse(std::string(R"({"ratio": 1, "traces": )") + traces + "}"), "t"); });
  };
  CHECK(err(R"({"source": "fta"})") == "t: traces source fta needs 'file' (an FTA event_trace file)");
  CHECK(err(R"({"source": "fta", "file": "a.tab", "unavailable_multiplier": 0})").find("fta 'unavailable_multiplier' must be in (0, 1]") != std::string::npos);
  CHECK(err(R"({"source": "fta", "file": "a.tab", "unavailable_multiplier": 1.5})").find("fta 'unavailable_multiplier' must be in (0, 1]") != std::string::npos);
  CHECK(err(R"({"source": "fta", "file": "a.tab", "time_scale": 0})").find("fta 'time_scale' must be > 0") != std::string::npos);
  CHECK(err(R"({"source": "fta", "file": "a.tab", "nodes": {"h": 1.5}})").find("'nodes' entry 'h' must be a node_id") != std::string::npos);
  CHECK(err(R"({"source": "fta", "file": "a.tab", "nodes": []})").find("'nodes' must be a non-empty object") != std::string::npos);
  CHECK(err(R"({"source": "fta", "file": "a.tab", "seed": 3})").find("'seed'") != std::string::npos);
  CHECK(err(R"({"source": "fta", "file": "a.tab", "placement": "iteration"})").find("'placement'") != std::string::npos);
}
