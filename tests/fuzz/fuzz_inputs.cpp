// A seeded mutation fuzzer for ringsim's readers of user input: the run-config parser, the
// redistribution and KPBS JSON readers, the .tiers reader, SimGrid speed profiles, the speed CSV
// and the 2005 platform XML. Each corpus file (tests/fuzz/corpus/, named TARGET-*.ext) must be
// accepted as it is; then `--mutations` mutants of it (byte flips, deletions, duplications,
// insertions of tokens that matter to these formats, truncations) must each be accepted or
// refused with an InputError, never anything else (another exception, a crash, a sanitizer
// report); accepted run configs must also survive their own canonical JSON form. Deterministic
// for a given --seed; `--seconds` bounds the run. Prints one line per target; exit 1 on a
// finding, with the mutant written to the --findings folder.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/kpbs_json.hpp"
#include "io/legacy_xml_2005.hpp"
#include "io/redistribution_json.hpp"
#include "io/run_config_json.hpp"
#include "io/tiers_reader.hpp"
#include "io/trace_files.hpp"
#include "model/errors.hpp"

namespace fs = std::filesystem;
using namespace ringsim;

namespace {

nlohmann::json json_of(const std::string& text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // what io::read_json_document turns into InputError
    throw InputError(std::string("malformed JSON: ") + e.what());
  }
}

// An accepted count is the count the JSON gave: a narrowing conversion must never wrap it.
void check_counts_kept(const nlohmann::json& doc, const RunConfig& cfg) {
  if (!doc.is_object()) return;
  const std::pair<const char*, long long> counts[] = {{"rows", cfg.rows}, {"columns", cfg.columns}, {"iterations", cfg.iterations}};
  for (const auto& [key, value] : counts)
    if (doc.contains(key) && doc[key].is_number_integer() &&
        (doc[key].is_number_unsigned() ? doc[key].get<std::uint64_t>() != static_cast<std::uint64_t>(value)
                                       : doc[key].get<long long>() != value))
      throw std::logic_error(std::string("'") + key + "' " + doc[key].dump() + " was accepted as " + std::to_string(value));
  if (!std::isfinite(cfg.ratio) || !std::isfinite(cfg.report_bytes) || !std::isfinite(cfg.decision_flops))
    throw std::logic_error("a config was accepted with a value that is not finite");
}

void run_config(const std::string& text) {
  const nlohmann::json doc = json_of(text);
  const RunConfig cfg = io::parse_run_config(doc, "fuzz");
  check_counts_kept(doc, cfg);
  // Its canonical form is a config too, and the same one.
  const nlohmann::json canonical = io::run_config_to_json(cfg);
  const nlohmann::json again = io::run_config_to_json(io::parse_run_config(canonical, "canonical"));
  if (canonical != again) throw std::logic_error("the canonical JSON of an accepted config does not read back the same");
}

const std::map<std::string, std::function<void(const std::string&)>>& targets() {
  static const std::map<std::string, std::function<void(const std::string&)>> all = {
      {"run_config", run_config},
      {"redistribution", [](const std::string& t) { io::parse_redistribution_text(t, "fuzz"); }},
      {"kpbs", [](const std::string& t) { io::parse_kpbs_request(json_of(t)); }},
      {"tiers", [](const std::string& t) { io::parse_tiers(t, "fuzz"); }},
      {"profile", [](const std::string& t) { io::parse_speed_profile(t, "fuzz", "h0", 1e8); }},
      {"speeds",
       [](const std::string& t) {
         const io::SpeedCsv csv = io::parse_speed_csv(t, "fuzz");
         for (const auto& [host, rows] : csv.rows) io::csv_trace(csv, host, 1e8);  // iterations and multipliers narrowed
       }},
      {"legacy2005", [](const std::string& t) { io::parse_legacy_platform_2005(t, "fuzz"); }},
  };
  return all;
}

const std::vector<std::string> kTokens = {
    "{", "}", "[", "]", "\"", ",", ":", "0", "-1", "1e308", "-1e308", "1e-320", "nan", "inf", "null", "true",
    "false", "\"\"", "9223372036854775807", "4294967296", "-0", "0.5", "\n", " ", "#", "\t", "<", ">", "/>",
    "=\"\"", "\"x\"", "[[]]", "{}", "[]", "LOOPAFTER", "\\u0000", "\xff", "2147483648", "1e9", "\"none\"",
    "\"every-0\"", "\"after:\"", "\"adaptive\"", ",,", "e", "."};

// Numbers at and beyond the widths readers narrow to (2^31, 2^32, 2^53, 2^63, 2^64), the double's
// extremes and denormals, and hexadecimal: each replaces a number of the input whole.
const std::vector<std::string> kExtremeNumbers = {
    "2147483647", "2147483648", "-2147483649", "4294967295", "4294967296", "4294967297", "4294968296",
    "9007199254740992", "9007199254740993", "9223372036854775807", "9223372036854775808", "18446744073709551615",
    "18446744073709551616", "1e308", "-1e308", "1.7976931348623157e308", "1e309", "4.9e-324", "2.2250738585072014e-308",
    "1e-300", "1e160", "1.9e19", "0x10", "0X1p4", "-0x1", "1e30", "-0", "0"};

// Replaces one number of `s` (a maximal run of digits, signs, dots and exponents) by an extreme one.
void replace_a_number(std::string& s, std::size_t at, const std::string& by) {
  const char* numeric = "0123456789+-.eE";
  const std::size_t begin = s.find_first_of("0123456789", at);
  if (begin == std::string::npos) return;
  std::size_t b = begin;
  while (b > 0 && std::string(numeric).find(s[b - 1]) != std::string::npos) --b;
  std::size_t e = s.find_first_not_of(numeric, begin);
  if (e == std::string::npos) e = s.size();
  s.replace(b, e - b, by);
}

std::string mutate(std::string s, std::mt19937_64& rng) {
  auto pick = [&rng](std::size_t n) { return n == 0 ? std::size_t{0} : static_cast<std::size_t>(rng() % n); };
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    switch (rng() % 9) {
      case 7:  // a number replaced by an extreme one (twice as likely as the other edits)
      case 8:
        replace_a_number(s, pick(s.size() + 1), kExtremeNumbers[pick(kExtremeNumbers.size())]);
        break;
      case 0:  // flip a byte
        if (!s.empty()) s[pick(s.size())] ^= static_cast<char>(1u << (rng() % 8));
        break;
      case 1: {  // delete a range
        if (s.empty()) break;
        const std::size_t at = pick(s.size());
        s.erase(at, 1 + pick(std::min<std::size_t>(16, s.size() - at)));
        break;
      }
      case 2: {  // duplicate a range
        if (s.empty()) break;
        const std::size_t at = pick(s.size());
        const std::string part = s.substr(at, 1 + pick(32));
        s.insert(pick(s.size() + 1), part);
        break;
      }
      case 3:  // insert a token
      case 4:
        s.insert(pick(s.size() + 1), kTokens[pick(kTokens.size())]);
        break;
      case 5: {  // replace a number-looking character with a digit or sign
        if (s.empty()) break;
        const std::size_t at = pick(s.size());
        s[at] = "0123456789-+.eE"[pick(15)];
        break;
      }
      default:  // truncate
        s.resize(pick(s.size() + 1));
        break;
    }
  }
  return s;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Feeds one input: accepted, refused with an InputError (as the command line turns into exit 2
// and one line), or a finding: what else happened.
struct Outcome {
  bool accepted = false;
  std::string finding;
};

Outcome feed(const std::function<void(const std::string&)>& target, const std::string& input) {
  try {
    target(input);
    return {true, ""};
  } catch (const InputError&) {
    return {false, ""};
  } catch (const std::exception& e) {
    return {false, std::string("unexpected exception: ") + e.what()};
  } catch (...) {
    return {false, "unexpected non-standard exception"};
  }
}

}  // namespace

int main(int argc, char** argv) {
  fs::path corpus, findings = fs::temp_directory_path() / "ringsim-fuzz-findings";
  long mutations = 2000;
  double seconds = 60;
  std::uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "fuzz_inputs: " << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    try {
      if (a == "--mutations") mutations = std::stol(value());
      else if (a == "--seconds") seconds = std::stod(value());
      else if (a == "--seed") seed = std::stoull(value());
      else if (a == "--findings") findings = value();
      else if (corpus.empty() && a.rfind("--", 0) != 0) corpus = a;
      else throw std::invalid_argument(a);
    } catch (const std::exception&) {
      std::cerr << "fuzz_inputs: bad argument '" << a << "' (CORPUS_DIR [--mutations N] [--seconds S] [--seed K] [--findings DIR])\n";
      return 2;
    }
  }
  if (corpus.empty() || !fs::is_directory(corpus)) {
    std::cerr << "fuzz_inputs: no corpus folder given (CORPUS_DIR [--mutations N] [--seconds S] [--seed K])\n";
    return 2;
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(corpus)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration<double>(seconds);
  std::map<std::string, std::pair<long, long>> tried;  // target -> (mutants, accepted)
  int problems = 0;
  for (const auto& file : files) {
    const std::string name = file.filename().string();
    const auto target = targets().find(name.substr(0, name.find('-')));
    if (target == targets().end()) {
      std::cerr << "fuzz_inputs: corpus file '" << name << "' names no target\n";
      return 2;
    }
    const std::string original = read(file);
    try {
      target->second(original);
    } catch (const std::exception& e) {
      std::cerr << "fuzz_inputs: corpus file '" << name << "' is not accepted: " << e.what() << "\n";
      return 2;
    }
    std::mt19937_64 rng(seed ^ std::hash<std::string>{}(name));
    for (long k = 0; k < mutations && std::chrono::steady_clock::now() < deadline; ++k) {
      const std::string input = mutate(original, rng);
      const Outcome outcome = feed(target->second, input);
      auto& [count, accepted] = tried[target->first];
      ++count;
      accepted += outcome.accepted;
      if (outcome.finding.empty()) continue;
      const std::string& what = outcome.finding;
      fs::create_directories(findings);
      const fs::path out = findings / (name + ".mutant" + std::to_string(k));
      std::ofstream(out, std::ios::binary) << input;
      std::cout << "FINDING " << name << " mutant " << k << ": " << what << " (input in " << out.string() << ")\n";
      ++problems;
    }
  }
  for (const auto& [target, counts] : tried)
    std::cout << target << ": " << counts.first << " mutants, " << counts.second << " accepted, the rest refused with one message\n";
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << (problems ? "fuzzing found " + std::to_string(problems) + " problem(s)" : "no finding") << " in "
            << took << " s\n";
  return problems ? 1 : 0;
}
