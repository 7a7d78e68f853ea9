// Hostile values in every reader of numbers: extreme, hexadecimal, infinite and NaN
// values are refused with an InputError naming the file (and line), or taken exactly; never a
// wrapped integer, never another exception.
#include <doctest/doctest.h>

#include <climits>
#include <string>
#include <vector>

#include "input_errors.hpp"
#include "io/simgrid_option_values.hpp"
#include "io/text_fields.hpp"
#include "io/tiers_reader.hpp"
#include "io/trace_files.hpp"
#include "model/errors.hpp"

using namespace ringsim;

using testing::error_of;

namespace {

const std::vector<std::string> kExtremes = {"2147483648", "4294967296",  "4294967396", "9223372036854775808",
                                            "18446744073709551617", "1e30", "1e308", "1e400", "-0", "0x10",
                                            "0X1p4", "inf", "-inf", "nan", "+nan", "1e-400", "-1e308"};

bool hexadecimal(const std::string& v) { return v.find_first_of("xX") != std::string::npos; }

}  // namespace

TEST_CASE("hexadecimal numbers are told apart from decimal ones with an x") {
  for (const char* hex : {"0x10", "0X10", "-0x1", "+0x1p3", "1,0x2", "0x10Gf", " 0x1"}) CHECK(io::holds_hexadecimal(hex));
  for (const char* dec : {"10", "1e-3", "100Mbps", "x0", "1x", "10x2", "ab0x", "-1.5e+07f"})
    CHECK_FALSE(io::holds_hexadecimal(dec));
}

TEST_CASE("a CSV trace's iteration and speed: refused with file and line, or an iteration past any run kept unused") {
  for (const auto& v : kExtremes) {
    CAPTURE(v);
    const std::string by_iteration = "host,iteration,speed\na,1,1e9\na," + v + ",5e8\n";
    std::string err = error_of([&] { io::parse_speed_csv(by_iteration, "t.csv"); });
    if (err.empty()) {
      const io::SpeedCsv csv = io::parse_speed_csv(by_iteration, "t.csv");
      const HostTrace t = io::csv_trace(csv, "a", 1e9);
      for (const auto& c : t.changes) CHECK(c.iteration >= 0);  // no wrapped iteration applied
      CHECK_FALSE(hexadecimal(v));
    } else {
      CHECK(err.find("'t.csv':3") == 0);
    }
    const std::string speed = "host,iteration,speed\na,1," + v + "\n";
    err = error_of([&] { io::csv_trace(io::parse_speed_csv(speed, "s.csv"), "a", 1.0); });
    CHECK(err.find("'s.csv':2") == 0);  // no speed of these is one a host of 1 flop/s runs at
  }
}

TEST_CASE("a profile's times, values and period: refused with file and line, or taken") {
  for (const auto& v : kExtremes) {
    CAPTURE(v);
    const std::string err = error_of([&] { io::parse_speed_profile("0 1\n" + v + " 0.5\n", "p.profile", "a", 1e9); });
    if (hexadecimal(v) || v.find("inf") != std::string::npos || v.find("nan") != std::string::npos)
      CHECK(err.find("'p.profile':2") == 0);
    const std::string value = error_of([&] { io::parse_speed_profile("0 1\n1 " + v + "\n", "p.profile", "a", 1e9); });
    CHECK(value.find("'p.profile':2") == 0);  // none is a multiplier SimGrid resolves
    const std::string loop = error_of([&] { io::parse_speed_profile("0 1\nLOOPAFTER " + v + "\n", "p.profile", "a", 1e9); });
    if (!loop.empty()) CHECK(loop.find("'p.profile'") == 0);
  }
  CHECK(error_of([] { io::parse_speed_profile("0 1\nLOOPAFTER 1e-12\n", "p.profile", "a", 1e9); }).find("less than 1e-06 s") !=
        std::string::npos);
  CHECK(error_of([] { io::parse_speed_profile("0 1\nLOOPAFTER 1e-6\n", "p.profile", "a", 1e9); }).empty());
}

TEST_CASE("a Tiers edge's bandwidth class is read in full before it is narrowed") {
  const std::string head = "# NODES\n0 0 0 0\n1 1 1 0\n# EDGES\n";
  for (const auto& v : kExtremes) {
    if (v == "-0") continue;  // class 0
    CAPTURE(v);
    const std::string err = error_of([&] { io::parse_tiers(head + "0 1 5 " + v + " 0 0 1\n", "t.tiers"); });
    CHECK(err.find("t.tiers:5") == 0);
  }
  const TiersGraph g = io::parse_tiers(head + "0 1 5 2147483647 0 0 1\n", "t.tiers");
  CHECK(g.edges.front().bandwidth_class == INT_MAX);
}

TEST_CASE("SimGrid option values SimGrid cannot run with are named, the others pass") {
  for (const auto& entry : std::vector<std::pair<std::string, std::string>>{
           {"network/bandwidth-factor", "0"}, {"network/bandwidth-factor", "-1"}, {"network/bandwidth-factor", "nan"},
           {"maxmin/precision", "1"}, {"maxmin/precision", "1e-20"}, {"surf/precision", "0"}, {"surf/precision", "-0"},
           {"surf/precision", "inf"}, {"contexts/stack-size", "1"}, {"contexts/stack-size", "0x1"},
           {"contexts/factory", "nonexist"}, {"debug/breakpoint", "0"}, {"network/latency-factor", "-1e-300"}}) {
    const auto& name = entry.first;
    const auto& value = entry.second;
    CAPTURE(name);
    CAPTURE(value);
    CHECK_FALSE(io::unrunnable_option_value(name, value).empty());
    CHECK(error_of([&] { io::refuse_unrunnable_cfg_argument("tracing:no " + name + ":" + value, " (--cfg)"); })
              .find("SimGrid option " + name + ":" + value + " (--cfg): ") == 0);
  }
  for (const auto& entry : std::vector<std::pair<std::string, std::string>>{
           {"network/bandwidth-factor", "0.97"}, {"maxmin/precision", "1e-5"}, {"surf/precision", "1e-9"},
           {"contexts/stack-size", "8192"}, {"contexts/factory", "raw"}, {"debug/breakpoint", "-1"},
           {"network/model", "CM02"}, {"surf/precision", "not-a-number"}}) {
    const auto& name = entry.first;
    const auto& value = entry.second;
    CAPTURE(name);
    CHECK(io::unrunnable_option_value(name, value).empty());
  }
}
