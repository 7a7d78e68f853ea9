// The PlanetLab/CoMon reader (io/planetlab_traces.hpp) and traces source "planetlab" in run configs.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "input_errors.hpp"
#include "io/planetlab_traces.hpp"
#include "io/run_config_json.hpp"

using namespace ringsim;
using testing::error_of;

namespace {

// The subset kept in the repository (traces/planetlab/README.md).
const std::string kDay = std::string(RINGSIM_TEST_DATA_DIR) + "/../../traces/planetlab/20110303";

std::string lines(std::initializer_list<int> values) {
  std::string text;
  for (int v : values) text += std::to_string(v) + "\n";
  return text;
}

// A folder of its own under the system's temporary folder, removed with the object.
struct TempFolder {
  std::filesystem::path path;
  explicit TempFolder(const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("ringsim-test-" + name)) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempFolder() { std::filesystem::remove_all(path); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

RealTraceConfig day_set(std::size_t samples = 288) {
  RealTraceConfig cfg;
  cfg.folder = kDay;
  cfg.samples = samples;
  cfg.availability.time_scale = 3000.0;
  return cfg;
}

std::vector<std::pair<std::string, double>> members(std::size_t n) {
  std::vector<std::pair<std::string, double>> m;
  for (std::size_t i = 0; i < n; ++i) m.emplace_back("h" + std::to_string(i), 1e9);
  return m;
}

std::vector<double> multipliers(const HostTrace& t) {
  std::vector<double> out;
  for (const auto& c : t.changes) out.push_back(c.multiplier);
  return out;
}

}  // namespace

TEST_CASE("PlanetLab file: one percentage per line, 300 s apart, exactly the samples stated") {
  const LoadSeries s = io::parse_planetlab_series(lines({24, 34, 29, 0, 100}), "vm a", 300.0, 5);
  CHECK(s.name == "'vm a'");
  CHECK(s.values == std::vector<double>{24, 34, 29, 0, 100});
  CHECK(s.times == std::vector<double>{0, 300, 600, 900, 1200});
  CHECK(s.span == 1500.0);
  // Windows line ends and a trailing blank line are read as the file means them.
  CHECK(io::parse_planetlab_series("5\r\n7\r\n\n", "w", 60.0, 2).values == std::vector<double>{5, 7});
}

TEST_CASE("PlanetLab file: every bad line named with its file and line") {
  const auto bad = [](const std::string& text, std::size_t samples) {
    return error_of([&] { io::parse_planetlab_series(text, "d/vm x", 300.0, samples); });
  };
  CHECK(bad("3\n101\n4\n", 3) == "'d/vm x':2: utilization 101 is not in [0, 100] (a utilization, percent of a CPU)");
  CHECK(bad("3\n-1\n4\n", 3) == "'d/vm x':2: utilization -1 is not in [0, 100] (a utilization, percent of a CPU)");
  CHECK(bad("3\n4\nabc\n", 3) == "'d/vm x':3: a CPU utilization (percent) must be a number, got 'abc'");
  CHECK(bad("3\n0x10\n", 2) == "'d/vm x':2: a CPU utilization (percent) must be a number, got '0x10'");
  CHECK(bad("3\n4\n", 288) == "'d/vm x': 2 samples, fewer than the 288 stated (traces 'samples')");
  CHECK(bad("", 1) == "'d/vm x': 0 samples, fewer than the 1 stated (traces 'samples')");
  CHECK(bad("1\n2\n3\n", 2) == "'d/vm x':3: more samples than the 2 stated (traces 'samples')");
}

TEST_CASE("PlanetLab set: the repository's day, names with spaces, hidden files aside, an empty set refused") {
  const auto files = io::planetlab_set_files(day_set());
  CHECK(files.size() == 30);
  CHECK(std::is_sorted(files.begin(), files.end()));
  CHECK(std::count_if(files.begin(), files.end(), [](const std::string& f) { return f.find(' ') != std::string::npos; }) == 3);
  io::check_planetlab_set(day_set());
  CHECK(error_of([] { io::check_planetlab_set(day_set(300)); }).find("fewer than the 300 stated") != std::string::npos);

  TempFolder folder("planetlab-set");
  RealTraceConfig cfg = day_set(2);
  cfg.folder = folder.path.string();
  CHECK(error_of([&] { io::planetlab_set_files(cfg); }) ==
        "trace set '" + cfg.folder + "' holds no file (an empty set)");
  folder.write(".hidden", "not a trace\n");
  std::filesystem::create_directory(folder.path / "sub");
  CHECK(error_of([&] { io::planetlab_set_files(cfg); }).find("an empty set") != std::string::npos);
  const std::string a = folder.write("vm a", "10\n20\n");
  CHECK(io::planetlab_set_files(cfg) == std::vector<std::string>{a});
  cfg.folder = (folder.path / "missing").string();
  CHECK(error_of([&] { io::planetlab_set_files(cfg); }) == "trace set '" + cfg.folder + "' is not a folder");
  cfg.folder.clear();
  CHECK(error_of([&] { io::planetlab_set_files(cfg); }) == "trace set traces 'set' (0 files) holds no file (an empty set)");
}

TEST_CASE("PlanetLab traces: each member its own file by seed, the same seed repeats, another draws others") {
  const auto one = io::planetlab_host_traces(day_set(), 1, members(4), 20);
  const auto same = io::planetlab_host_traces(day_set(), 1, members(4), 20);
  const auto two = io::planetlab_host_traces(day_set(), 2, members(4), 20);
  REQUIRE(one.size() == 4);
  bool differ = false;
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(one[i].host == "h" + std::to_string(i));
    CHECK(one[i].period == 288 * 300 / 3000.0);
    CHECK(one[i].changes.front().time == 0.0);
    CHECK(multipliers(one[i]) == multipliers(same[i]));
    differ = differ || multipliers(one[i]) != multipliers(two[i]);
    for (double m : multipliers(one[i])) {
      CHECK(m >= 0.05);
      CHECK(m <= 1.0);
    }
  }
  CHECK(differ);
  for (std::size_t i = 0; i + 1 < 4; ++i) CHECK(multipliers(one[i]) != multipliers(one[i + 1]));
  CHECK(error_of([] { io::planetlab_host_traces(day_set(), 1, members(31), 20); })
            .find("holds 30 series, the run 31 member(s)") != std::string::npos);
  // A list of files is a set too; a bad file is named when drawn.
  TempFolder folder("planetlab-list");
  RealTraceConfig cfg = day_set(3);
  cfg.folder.clear();
  cfg.files = {folder.write("ok", "1\n2\n3\n"), folder.write("bad", "1\n200\n3\n")};
  CHECK(error_of([&] { io::planetlab_host_traces(cfg, 1, members(2), 5); }) ==
        "'" + cfg.files[1] + "':2: utilization 200 is not in [0, 100] (a utilization, percent of a CPU)");
}

TEST_CASE("traces source planetlab: parsed, validated and written back in canonical form") {
  for (const char* text : {
           R"({"seed": 3, "source": "planetlab", "set": "day", "period": 300.0, "samples": 288, "conversion": "dedicated", "floor": 0.05, "time_scale": 6000.0, "offset": 0.0})",
           R"({"seed": 1, "source": "planetlab", "set": ["a", "b c"], "period": 60.0, "samples": 10, "conversion": "time-sharing", "floor": 0.2, "time_scale": "span", "offset": "random", "placement": "nominal-time"})",
           R"({"seed": 2, "source": "planetlab", "set": "day", "period": 300.0, "samples": 288, "conversion": "dedicated", "floor": 0.05, "per_iteration": 900.0, "offset": 600.0, "placement": "iteration"})"}) {
    const auto cfg = io::parse_run_config(nlohmann::json{{"ratio", 1}, {"traces", nlohmann::json::parse(text)}}, "t");
    CHECK(cfg.traces.source == TraceSource::planetlab);
    const auto j = io::run_config_to_json(cfg);
    CHECK(j["traces"] == nlohmann::json::parse(text));
    CHECK(io::run_config_to_json(io::parse_run_config(j, "t")) == j);
  }
  const auto defaults = io::parse_run_config(
      nlohmann::json::parse(R"({"ratio": 1, "traces": {"source": "planetlab", "set": "d", "conversion": "dedicated", "time_scale": 10}})"), "t");
  CHECK(defaults.traces.real.period == 300.0);
  CHECK(defaults.traces.real.samples == 288);
  CHECK(defaults.traces.real.availability.floor == kDefaultAvailabilityFloor);
  CHECK(defaults.traces.real.availability.offset == 0.0);
  CHECK(!defaults.traces.real.availability.random_offset);
  const auto err = [](const std::string& more) {
    return error_of([&] {
      io::parse_run_config(nlohmann::json::parse(R"({"ratio": 1, "traces": {"source": "planetlab")" + more + "}}"), "t");
    });
  };
  const std::string ok = R"(, "set": "d", "conversion": "dedicated", "time_scale": 10)";
  CHECK(err(ok).empty());
  CHECK(err(R"(, "conversion": "dedicated", "time_scale": 10)") ==
        "t: traces source planetlab needs a 'set' (a folder of trace files, or a list of files)");
  CHECK(err(R"(, "set": [], "conversion": "dedicated", "time_scale": 10)") ==
        "t: traces 'set' must name a folder or be a non-empty array of files");
  CHECK(err(R"(, "set": "d", "time_scale": 10)") ==
        "t: traces source planetlab needs a 'conversion': \"dedicated\", \"time-sharing\" or \"load\"");
  CHECK(err(R"(, "set": "d", "conversion": "load", "time_scale": 10)").find("PlanetLab files hold utilizations") !=
        std::string::npos);
  CHECK(err(R"(, "set": "d", "conversion": "shared", "time_scale": 10)").find("got 'shared'") != std::string::npos);
  CHECK(err(R"(, "set": "d", "conversion": "dedicated")").find("needs a 'time_scale'") != std::string::npos);
  CHECK(err(ok + R"(, "period": "5 min")").find("'period' must be a number") != std::string::npos);
  CHECK(err(ok + R"(, "period": 0)") == "t: traces 'period' must be > 0 (seconds per sample)");
  CHECK(err(ok + R"(, "samples": 0)") == "t: traces 'samples' must be >= 1");
  CHECK(err(ok + R"(, "floor": 0)").find("traces 'floor' must be in (0, 1]") != std::string::npos);
  CHECK(err(ok + R"(, "floor": 1e-9)").find("traces 'floor' must be in [1e-06, 1e+06]") != std::string::npos);
  CHECK(err(ok + R"(, "offset": -1)").find("traces 'offset' must be >= 0") != std::string::npos);
  CHECK(err(ok + R"(, "offset": "noon")").find("traces 'offset' must be a number of seconds >= 0 or \"random\"") !=
        std::string::npos);
  CHECK(err(R"(, "set": "d", "conversion": "dedicated", "time_scale": 0)").find("'time_scale' must be > 0") !=
        std::string::npos);
  CHECK(err(R"(, "set": "d", "conversion": "dedicated", "time_scale": "fast")").find("or \"span\"") != std::string::npos);
  CHECK(err(ok + R"(, "placement": "iteration")").find("'placement' applies to changes given by iteration") !=
        std::string::npos);
  CHECK(err(ok + R"(, "file": "x")").find("'file'") != std::string::npos);
  const std::string per = R"(, "set": "d", "conversion": "dedicated", "per_iteration": 300)";
  CHECK(err(per).empty());
  CHECK(err(per + R"(, "placement": "nominal-time", "offset": "random")").empty());
  CHECK(err(per + R"(, "time_scale": 10)") ==
        "t: traces 'per_iteration' and 'time_scale' both map the series' time to the run: give one");
  CHECK(err(R"(, "set": "d", "conversion": "dedicated", "per_iteration": 0)") ==
        "t: traces 'per_iteration' must be > 0 (seconds of the series each iteration covers)");
  CHECK(err(R"(, "set": "d", "conversion": "dedicated", "per_iteration": "5 min")").find("'per_iteration' must be a number") !=
        std::string::npos);
  CHECK(err(per + R"(, "offset": -1)").find("traces 'offset' must be >= 0") != std::string::npos);
}
