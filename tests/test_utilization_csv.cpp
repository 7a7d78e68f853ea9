// The per-machine utilization CSV reader (io/utilization_csv.hpp) and traces source
// "utilization-csv" in run configs.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "input_errors.hpp"
#include "io/run_config_json.hpp"
#include "io/utilization_csv.hpp"

using namespace ringsim;
using testing::error_of;

namespace {

RealTraceConfig columns(const std::string& value, AvailabilityRule rule = AvailabilityRule::dedicated) {
  RealTraceConfig cfg;
  cfg.time_column = "timestamp";
  cfg.machine_column = "machine_id";
  cfg.value_column = value;
  cfg.samples = 2;
  cfg.availability.conversion = rule;
  return cfg;
}

const std::string kCsv =
    "timestamp,machine_id,cpu_util_percent,load1\n"
    "0,m_1,20,0.5\n"
    "0,m_2,90,3\n"
    "300,m_1,40,1\n"
    "300,m_2,95,4\n"
    "600,m_1,60,1.5\n";

}  // namespace

TEST_CASE("utilization CSV: columns by name, machines in order of appearance, the last row for the mean spacing") {
  const io::UtilizationCsv csv = io::parse_utilization_csv(kCsv, "u.csv", columns("cpu_util_percent"));
  CHECK(csv.machines == std::vector<std::string>{"m_1", "m_2"});
  REQUIRE(csv.series.size() == 2);
  CHECK(csv.series[0].name == "machine 'm_1' of 'u.csv'");
  CHECK(csv.series[0].times == std::vector<double>{0, 300, 600});
  CHECK(csv.series[0].values == std::vector<double>{20, 40, 60});
  CHECK(csv.series[0].span == 900.0);
  CHECK(csv.series[1].values == std::vector<double>{90, 95});
  CHECK(csv.series[1].span == 600.0);
  // Another value column: load averages; times need not start at 0 nor be evenly spaced.
  const auto load = io::parse_utilization_csv("t,m,l\n100,a,1\n110,a,2\n140,a,0\n", "l.csv",
                                              [] {
                                                RealTraceConfig c = columns("l", AvailabilityRule::load_average);
                                                c.time_column = "t";
                                                c.machine_column = "m";
                                                return c;
                                              }());
  CHECK(load.series[0].times == std::vector<double>{0, 10, 40});
  CHECK(load.series[0].span == 60.0);
}

TEST_CASE("utilization CSV: every bad input named with its file and line") {
  const auto bad = [](const std::string& text, RealTraceConfig cfg) {
    return error_of([&] { io::parse_utilization_csv(text, "u.csv", cfg); });
  };
  const RealTraceConfig util = columns("cpu_util_percent");
  CHECK(bad(kCsv, columns("cpu")) == "'u.csv':1: no column 'cpu' (traces 'value_column') in the header");
  RealTraceConfig no_time = util;
  no_time.time_column = "time";
  CHECK(bad(kCsv, no_time) == "'u.csv':1: no column 'time' (traces 'time_column') in the header");
  CHECK(bad("timestamp,machine_id,cpu_util_percent,cpu_util_percent\n", util) ==
        "'u.csv':1: column 'cpu_util_percent' (traces 'value_column') appears twice");
  CHECK(bad(kCsv + "900,m_1,101,1\n", util) ==
        "'u.csv':7: cpu_util_percent 101 is not in [0, 100] (a utilization, percent of a CPU)");
  CHECK(bad(kCsv + "900,m_1,-3,1\n", columns("load1", AvailabilityRule::load_average)) == "");
  CHECK(bad(kCsv + "900,m_1,3,-0.1\n", columns("load1", AvailabilityRule::load_average)) ==
        "'u.csv':7: load1 -0.1 is negative (a load average counts processes: >= 0)");
  CHECK(bad(kCsv + "9 min,m_1,3,1\n", util) == "'u.csv':7: time '9 min' (column 'timestamp') must be a number of seconds");
  CHECK(bad(kCsv + "900,m_1,,1\n", util) == "'u.csv':7: value '' (column 'cpu_util_percent') must be a number");
  CHECK(bad(kCsv + "900,m_1,3\n", util) == "'u.csv':7: expected 4 comma-separated fields (as the header), got 3");
  CHECK(bad(kCsv + "600,m_1,3,1\n", util) == "'u.csv':7: time 600 of machine 'm_1' does not come after its row at line 6");
  CHECK(bad(kCsv + "900,,3,1\n", util) == "'u.csv':7: empty machine (column 'machine_id')");
  CHECK(bad(kCsv + "900,m_3,3,1\n", util) == "'u.csv':7: machine 'm_3' has 1 row(s), fewer than the 2 stated (traces 'samples')");
  RealTraceConfig three = util;
  three.samples = 3;
  CHECK(bad(kCsv, three) == "'u.csv':3: machine 'm_2' has 2 row(s), fewer than the 3 stated (traces 'samples')");
  CHECK(bad("timestamp,machine_id,cpu_util_percent\n", util) == "'u.csv': no rows under the header (an empty set)");
  CHECK(bad("# nothing\n\n", util) == "'u.csv': no header line (expected the names of the columns)");
  RealTraceConfig missing = util;
  missing.file = "no-such.csv";
  CHECK(error_of([&] { io::read_utilization_csv(missing); }).find("no-such.csv") != std::string::npos);
}

TEST_CASE("traces source utilization-csv: parsed, validated and written back in canonical form") {
  for (const char* text : {
           R"({"seed": 3, "source": "utilization-csv", "file": "u.csv", "time_column": "time", "machine_column": "machine", "value_column": "cpu", "samples": 2, "conversion": "time-sharing", "floor": 0.05, "time_scale": 60.0, "offset": 300.0})",
           R"({"seed": 1, "source": "utilization-csv", "file": "u.csv", "time_column": "ts", "machine_column": "id", "value_column": "load1", "samples": 12, "conversion": "load", "floor": 0.1, "time_scale": "span", "offset": "random", "placement": "iteration"})"}) {
    const auto cfg = io::parse_run_config(nlohmann::json{{"ratio", 1}, {"traces", nlohmann::json::parse(text)}}, "t");
    CHECK(cfg.traces.source == TraceSource::utilization_csv);
    const auto j = io::run_config_to_json(cfg);
    CHECK(j["traces"] == nlohmann::json::parse(text));
    CHECK(io::run_config_to_json(io::parse_run_config(j, "t")) == j);
  }
  const auto err = [](const std::string& more) {
    return error_of([&] {
      io::parse_run_config(nlohmann::json::parse(R"({"ratio": 1, "traces": {"source": "utilization-csv")" + more + "}}"), "t");
    });
  };
  const std::string ok = R"(, "file": "u.csv", "value_column": "cpu", "conversion": "load", "time_scale": 10)";
  CHECK(err(ok).empty());
  CHECK(err(R"(, "value_column": "cpu", "conversion": "load", "time_scale": 10)") ==
        "t: traces source utilization-csv needs a 'file' (a CSV)");
  CHECK(err(R"(, "file": "u.csv", "conversion": "load", "time_scale": 10)") ==
        "t: traces source utilization-csv needs a 'value_column' (the column of the values)");
  CHECK(err(ok + R"(, "time_column": "")") == "t: traces 'time_column' must not be empty");
  CHECK(err(ok + R"(, "samples": 1)") == "t: traces 'samples' must be >= 2");
  CHECK(err(ok + R"(, "set": "d")").find("'set'") != std::string::npos);
}

TEST_CASE("utilization-csv traces: machines drawn by seed, converted by the rule chosen") {
  const std::string dir = std::string(RINGSIM_TEST_DATA_DIR);
  RealTraceConfig cfg = columns("load1", AvailabilityRule::load_average);
  cfg.file = dir + "/machine_usage.csv";
  cfg.availability.time_scale = 300.0;
  const std::vector<std::pair<std::string, double>> ring = {{"a", 1e9}, {"b", 1e9}};
  const auto t = io::utilization_csv_host_traces(cfg, 1, ring, 10);
  REQUIRE(t.size() == 2);
  // Both machines are drawn (two members, two machines), each with its own load.
  std::set<double> first;
  for (const auto& h : t) first.insert(h.changes.front().multiplier);
  CHECK(first == std::set<double>{1.0 / 1.5, 0.25});
  CHECK(std::set<double>{t[0].period, t[1].period} == std::set<double>{3.0, 2.0});
}
