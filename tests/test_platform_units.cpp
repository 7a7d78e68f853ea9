// SimGrid unit suffixes: parsing as SimGrid 3.32 does, formatting that reads back exactly.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>

#include "io/units.hpp"
#include "model/errors.hpp"

using namespace ringsim;

namespace {
std::string error_of(double (*parse)(const std::string&, const std::string&), const std::string& text) {
  try {
    parse(text, "host 'h1'");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("units: speeds, bandwidths and times parse with SimGrid's suffixes") {
  CHECK(io::parse_speed("68.667Mf", "x") == std::strtod("68.667", nullptr) * 1e6);
  CHECK(io::parse_speed("1Gf", "x") == 1e9);
  CHECK(io::parse_speed("2kf", "x") == 2e3);
  CHECK(io::parse_speed("3megaflops", "x") == 3e6);
  CHECK(io::parse_speed("2.5flops", "x") == 2.5);
  CHECK(io::parse_speed("100", "x") == 100.0);  // unit-less: base unit, as SimGrid (with a warning)
  CHECK(io::parse_bandwidth("1.25MBps", "x") == 1.25e6);
  CHECK(io::parse_bandwidth("10Mbps", "x") == 1.25e6);
  CHECK(io::parse_bandwidth("1KiBps", "x") == 1024.0);
  CHECK(io::parse_bandwidth("1Gibps", "x") == std::pow(2.0, 30) / 8);
  CHECK(io::parse_bandwidth("8bps", "x") == 1.0);
  CHECK(io::parse_bandwidth("2GBps", "x") == 2e9);
  CHECK(io::parse_time("1ms", "x") == 1e-3);
  CHECK(io::parse_time("5us", "x") == 5 * 1e-6);  // number x scale, as SimGrid computes it
  CHECK(io::parse_time("2ns", "x") == 2 * 1e-9);
  CHECK(io::parse_time("1m", "x") == 60.0);
  CHECK(io::parse_time("1h", "x") == 3600.0);
  CHECK(io::parse_time("1d", "x") == 86400.0);
  CHECK(io::parse_time("0", "x") == 0.0);
}

TEST_CASE("units: unknown units and non-numbers are InputErrors naming the text") {
  CHECK(error_of(io::parse_speed, "1Xf").find("unknown unit 'Xf'") != std::string::npos);
  CHECK(error_of(io::parse_speed, "1Xf").find("host 'h1'") != std::string::npos);
  CHECK(error_of(io::parse_speed, "1Kf").find("unknown unit 'Kf'") != std::string::npos);  // SimGrid has kf only
  CHECK(error_of(io::parse_bandwidth, "1MB").find("unknown unit 'MB'") != std::string::npos);
  CHECK(error_of(io::parse_time, "1sec").find("unknown unit 'sec'") != std::string::npos);
  CHECK(error_of(io::parse_bandwidth, "fast").find("cannot read a number") != std::string::npos);
  CHECK(error_of(io::parse_speed, "1e999Mf").find("out of range") != std::string::npos);
}

TEST_CASE("units: formatting picks readable units") {
  CHECK(io::format_speed(68.667e6) == "68.667Mf");
  CHECK(io::format_speed(1e9) == "1Gf");
  CHECK(io::format_speed(5) == "5f");
  CHECK(io::format_bandwidth(1.25e6) == "1.25MBps");
  CHECK(io::format_bandwidth(117125) == "117.125kBps");
  CHECK(io::format_bandwidth(0.5) == "0.5Bps");
  CHECK(io::format_time(1e-3) == "1ms");
  CHECK(io::format_time(0.514433 * 1e-3) == "514.433us");
  CHECK(io::format_time(2.5) == "2.5s");
  CHECK(io::format_time(0) == "0s");
  CHECK(io::format_number(0.1) == "0.1");
}

TEST_CASE("units: every formatted value reads back to the same double") {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> exponent(-12, 15);  // the values, not the test's outcome, vary
  for (int i = 0; i < 3000; ++i) {
    const double v = std::pow(10.0, exponent(rng)) * (1 + static_cast<double>(rng() % 1000) / 7.0);
    CHECK(io::parse_speed(io::format_speed(v), "x") == v);
    CHECK(io::parse_bandwidth(io::format_bandwidth(v), "x") == v);
    CHECK(io::parse_time(io::format_time(v), "x") == v);
  }
}
