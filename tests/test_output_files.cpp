// Files as ringsim names and writes them (io/files.hpp), on fuzzed names: a host's file name stays
// in its folder, is a legal name of at most 255 bytes, ordinary names keep theirs, and two distinct
// names never share one; a list inside a CSV field reads back, with Python's rule (a ';'-separated
// CSV record inside an RFC 4180 field), as the items it was given.
#include <doctest/doctest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "io/files.hpp"
#include "model/errors.hpp"

namespace {

using ringsim::io::csv_list_field;
using ringsim::io::file_name_of;

std::string random_name(std::mt19937& rng) {
  std::uniform_int_distribution<int> length(1, 20), byte(1, 255), pick(0, 9);
  const std::string specials = "./%~;,\"\n '$`";
  std::string name;
  const int n = pick(rng) == 0 ? 200 + length(rng) * 5 : length(rng);  // long names too
  for (int i = 0; i < n; ++i)
    name += pick(rng) < 4 ? specials[static_cast<std::size_t>(byte(rng)) % specials.size()] : static_cast<char>(byte(rng));
  return name;
}

// One CSV record with separator `sep` (RFC 4180 quoting), as Python's csv.reader reads it.
std::vector<std::string> read_record(const std::string& text, char sep) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted && c == '"' && i + 1 < text.size() && text[i + 1] == '"') fields.back() += '"', ++i;
    else if (c == '"') quoted = !quoted;
    else if (!quoted && c == sep) fields.emplace_back();
    else fields.back() += c;
  }
  return fields;
}

}  // namespace

TEST_CASE("a host's file name stays in its folder and is its own") {
  CHECK(file_name_of("h0") == "h0");
  CHECK(file_name_of("c-2.example_org") == "c-2.example_org");
  CHECK(file_name_of("../../p") == "%2E.%2F..%2Fp");
  CHECK(file_name_of(".") == "%2E");
  CHECK(file_name_of("..") == "%2E.");
  CHECK(file_name_of("a") != file_name_of("./a"));
  std::mt19937 rng(65);
  std::set<std::string> names, files;
  for (int k = 0; k < 20000; ++k) {
    const std::string name = random_name(rng);
    if (!names.insert(name).second) continue;
    const std::string file = file_name_of(name);
    CHECK(files.insert(file).second);
    CHECK(file.find_first_of(std::string("/\n\0", 3)) == std::string::npos);
    CHECK(file.front() != '.');
    CHECK(file.size() + std::string(".profile").size() <= 255);
  }
}

TEST_CASE("a list inside a CSV field reads back as its items") {
  CHECK(csv_list_field({"h0", "h1", "h2"}) == "h0;h1;h2");
  std::mt19937 rng(4180);
  for (int k = 0; k < 2000; ++k) {
    std::vector<std::string> items(static_cast<std::size_t>(1 + k % 5));
    for (auto& item : items) item = random_name(rng).substr(0, 12);
    const std::vector<std::string> field = read_record(csv_list_field(items) + ",next", ',');
    REQUIRE(field.size() == 2);
    CHECK(read_record(field[0], ';') == items);
  }
}

TEST_CASE("two outputs on one path are refused, however spelt") {
  using ringsim::io::refuse_shared_outputs;
  CHECK_THROWS_AS(refuse_shared_outputs({{"--out", "F"}, {"--iterations-csv", "./F"}}), ringsim::InputError);
  CHECK_THROWS_AS(refuse_shared_outputs({{"--out", "d/../F"}, {"--iterations-csv", "F"}}), ringsim::InputError);
  CHECK_THROWS_AS(refuse_shared_outputs({{"--out", "d/x.csv"}, {"--traces-dir", "d/", true}}), ringsim::InputError);
  CHECK_NOTHROW(refuse_shared_outputs({{"--out", "F"}, {"--iterations-csv", "G"}, {"--traces-dir", "Fd", true}}));
  CHECK_NOTHROW(refuse_shared_outputs({{"--out", ""}, {"--iterations-csv", ""}}));
}
