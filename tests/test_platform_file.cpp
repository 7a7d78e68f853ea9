// io::platform_file reads a platform once and parses it only where its text could hold a <config>,
// a profile or a refused number: on seeded random platforms, what it returns (or refuses) must be
// what the full parse of every file finds (config_options_in and profiles_in on the whole document).
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "input_errors.hpp"
#include "io/platform_file.hpp"

using namespace ringsim;

namespace {

namespace fs = std::filesystem;

struct Parsed {
  std::string refusal;
  std::vector<std::pair<std::string, std::string>> options;
  std::vector<io::PlatformProfile> profiles;
};

// The oracle: the whole document parsed, no element filtered out.
Parsed parsed_whole(const std::string& path, const std::string& text) {
  Parsed p;
  pugi::xml_document doc;
  if (!doc.load_buffer(text.data(), text.size(), pugi::parse_default | pugi::parse_doctype, pugi::encoding_utf8)) return p;
  p.refusal = testing::error_of([&] {
    p.options = io::config_options_in(doc, path);
    p.profiles = io::profiles_in(doc, path);
  });
  if (!p.refusal.empty()) p.options.clear(), p.profiles.clear();
  return p;
}

Parsed read_once(const std::string& path) {
  Parsed p;
  p.refusal = testing::error_of([&] {
    const io::PlatformFile& f = io::platform_file(path);
    p.options = f.config_options;
    p.profiles = f.profiles;
  });
  return p;
}

// Attribute values of every kind the filter must tell apart: plain numbers, ids with dashes,
// exponents, negative values and list items, hexadecimal, entities spelling either.
const char* const kValues[] = {"1Gf",      "100MBps", "1e-3s",     "-1",         " -2",       "1,-2",  "0x10Gf",
                               "1,0X2",    "a-b",     "l-1",       "&#45;1",     "&#x30;x10", "50us",  "2",
                               "1e-06",    "host-3",  "1, 2",      "10ms",       "-0",        "3.5Gf", "x0",
                               "0.5,-0.5", "a&amp;b", "-",         "e-"};
const char* const kNumeric[] = {"speed", "bandwidth", "latency", "core"};

std::string random_platform(std::mt19937_64& rng) {
  auto pick = [&](auto& array) { return array[rng() % std::size(array)]; };
  std::string x = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                  "<platform version=\"4.1\">\n";
  if (rng() % 6 == 0) x += "  <config><prop id=\"network/TCP-gamma\" value=\"0\"/></config>\n";
  if (rng() % 8 == 0) x += "  <!-- a comment -->\n";
  x += "  <zone id=\"z-1\" routing=\"Full\">\n";
  const int hosts = 1 + static_cast<int>(rng() % 4);
  for (int h = 0; h < hosts; ++h) {
    x += "    <host id=\"h-" + std::to_string(h) + "\" " + pick(kNumeric) + "=\"" + pick(kValues) + "\"";
    if (rng() % 3 == 0) x += std::string(" speed=\"") + pick(kValues) + "\"";
    x += "/>\n";
  }
  x += std::string("    <link id=\"l-0\" bandwidth=\"") + pick(kValues) + "\" latency=\"" + pick(kValues) + "\"/>\n";
  if (rng() % 7 == 0)
    x += "    <trace id=\"t\" periodicity=\"10\">\n0 1\n5 0.5\n</trace>\n"
         "    <trace_connect kind=\"SPEED\" trace=\"t\" element=\"h-0\"/>\n";
  x += "  </zone>\n</platform>\n";
  return x;
}

}  // namespace

TEST_CASE("platform_file finds and refuses what the whole parse finds and refuses, on 3000 random platforms") {
  const fs::path dir = fs::temp_directory_path() / ("ringsim-platform-file-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::mt19937_64 rng(20261202);
  int refused = 0, with_options = 0, with_profiles = 0;
  for (int k = 0; k < 3000; ++k) {
    const std::string text = random_platform(rng);
    const std::string path = (dir / ("p" + std::to_string(k) + ".xml")).string();  // one file each: read once
    std::ofstream(path) << text;
    const Parsed whole = parsed_whole(path, text), once = read_once(path);
    INFO(text);
    CHECK(once.refusal == whole.refusal);
    CHECK(once.options == whole.options);
    REQUIRE(once.profiles.size() == whole.profiles.size());
    for (std::size_t i = 0; i < once.profiles.size(); ++i) CHECK(once.profiles[i].points == whole.profiles[i].points);
    refused += !whole.refusal.empty();
    with_options += !whole.options.empty();
    with_profiles += !whole.profiles.empty();
  }
  // The instances reach every case the filter must let through.
  CHECK(refused > 100);
  CHECK(with_options > 50);
  CHECK(with_profiles > 50);
  fs::remove_all(dir);
}

TEST_CASE("platform_file reads a file once and refuses a bad one every time it is asked") {
  const fs::path dir = fs::temp_directory_path() / ("ringsim-platform-once-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string good = (dir / "good.xml").string(), bad = (dir / "bad.xml").string();
  std::ofstream(good) << "<?xml version='1.0'?>\n<platform version=\"4.1\"><config><prop id=\"network/model\" "
                         "value=\"CM02\"/></config><zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/>"
                         "</zone></platform>\n";
  std::ofstream(bad) << "<?xml version='1.0'?>\n<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">\n"
                        "<host id=\"a\" speed=\"0x10Gf\"/></zone></platform>\n";
  const io::PlatformFile& first = io::platform_file(good);
  CHECK(first.config_options.size() == 1);
  std::ofstream(good) << "changed";  // a platform does not change during a process: the first read stands
  CHECK(&io::platform_file(good) == &first);
  const std::string refusal = testing::error_of([&] { io::platform_file(bad); });
  CHECK(refusal.find(bad + "':3") != std::string::npos);  // the line, read again from the file
  CHECK(refusal.find("numbers are decimal") != std::string::npos);
  CHECK(testing::error_of([&] { io::platform_file(bad); }) == refusal);
  fs::remove_all(dir);
}
