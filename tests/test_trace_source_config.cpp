// The traces keys of a run config: "default" of a files source, the "platform" source, and the
// source a config without one gets (the 2004 machine list only on the paper's platform).
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "io/paper_platform.hpp"
#include "io/run_config_json.hpp"
#include "input_errors.hpp"
#include "model/errors.hpp"
#include "model/run_config.hpp"

using namespace ringsim;

namespace {

using testing::error_of;

RunConfig parse(const std::string& traces) {
  return io::parse_run_config(nlohmann::json::parse(R"({"ratio": 1, "traces": )" + traces + "}"), "c");
}

}  // namespace

TEST_CASE("files: default refuse (the default) or constant, and nothing else") {
  CHECK(!parse(R"({"source": "files", "csv": "s.csv"})").traces.default_constant);
  CHECK(!parse(R"({"source": "files", "csv": "s.csv", "default": "refuse"})").traces.default_constant);
  const RunConfig c = parse(R"({"source": "files", "csv": "s.csv", "default": "constant"})");
  CHECK(c.traces.default_constant);
  CHECK(io::run_config_to_json(c)["traces"]["default"] == "constant");
  CHECK(!io::run_config_to_json(parse(R"({"source": "files", "csv": "s.csv"})"))["traces"].contains("default"));
  CHECK(error_of([] { parse(R"({"source": "files", "csv": "s.csv", "default": "peak"})"); })
            .find("traces 'default' must be \"refuse\"") != std::string::npos);
  CHECK(error_of([] { parse(R"({"source": "measured", "default": "constant"})"); }).find("unknown key 'default'") !=
        std::string::npos);
}

TEST_CASE("the platform source takes no other key, no staging, and round-trips") {
  const RunConfig c = parse(R"({"source": "platform"})");
  CHECK(c.traces.source == TraceSource::platform);
  CHECK(trace_source_name(c) == "platform");
  CHECK(!draws_from_2004_machine_list(c));
  CHECK(io::run_config_to_json(c)["traces"] == nlohmann::json{{"source", "platform"}});
  CHECK(io::parse_run_config(io::run_config_to_json(c), "c").traces.source == TraceSource::platform);
  CHECK(error_of([] { parse(R"({"source": "platform", "seed": 2})"); }).find("unknown key 'seed'") != std::string::npos);
  CHECK(error_of([] {
          io::parse_run_config(nlohmann::json::parse(R"({"ratio": 1, "traces": {"source": "platform"}, "staging": {}})"), "c");
        }).find("cannot be combined with 'staging'") != std::string::npos);
}

TEST_CASE("no traces source: measured on the paper's platform only, factor elsewhere, a named source stays") {
  RunConfig none = parse(R"({"seed": 4})");
  CHECK(none.traces.source == TraceSource::unnamed);
  RunConfig on_paper = none, elsewhere = none;
  resolve_default_trace_source(on_paper, true);
  resolve_default_trace_source(elsewhere, false);
  CHECK(trace_source_name(on_paper) == "measured");
  CHECK(draws_from_2004_machine_list(on_paper));
  CHECK(trace_source_name(elsewhere) == "factor");
  CHECK(!draws_from_2004_machine_list(elsewhere));
  CHECK(elsewhere.traces.seed == 4);
  RunConfig asked = parse(R"({"source": "measured"})");
  resolve_default_trace_source(asked, false);
  CHECK(draws_from_2004_machine_list(asked));
  RunConfig factor = parse(R"({"source": "factor"})");
  resolve_default_trace_source(factor, true);
  CHECK(trace_source_name(factor) == "factor");
  // The canonical form names the source it resolved to: read back, it is given.
  const RunConfig back = io::parse_run_config(io::run_config_to_json(elsewhere), "c");
  CHECK(back.traces.source != TraceSource::unnamed);
  CHECK(trace_source_name(back) == "factor");
}

TEST_CASE("a file that is not the paper's platform is not recognized as it") {
  const auto path = (std::filesystem::temp_directory_path() / "ringsim-not-the-paper.xml").string();
  std::ofstream(path) << "<platform version=\"4.1\"/>\n";
  CHECK(!io::is_paper_platform(path));
  CHECK(!io::is_paper_platform(path + ".missing"));
  std::remove(path.c_str());
}
