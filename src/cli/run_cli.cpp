#include "cli/run_cli.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "build_commit.hpp"
#include "io/process.hpp"

namespace ringsim::cli {

void describe_application(CLI::App& app) {
  app.description(
      "ringsim: data redistribution, ring construction and simulation of iterative applications on "
      "heterogeneous platforms (SimGrid)");
  app.set_version_flag("--version", std::string(RINGSIM_VERSION) + " (commit " + RINGSIM_BUILD_COMMIT + ")");
  app.require_subcommand(1);
}

namespace {

// CLI11 reads integers with strtoll/strtoull in base 0: "010" is 8, "0x10" 16, "-1" as an
// unsigned is 2^64 - 1, and values beyond 64 bits saturate without a word. An integer option
// takes decimal digits only (a leading '-' where the type is signed) whose value fits in 64 bits,
// leading zeros dropped (010 is ten); CLI11 then refuses what does not fit the option's own type
// ("Could not convert"), and the option's ranges apply to the exact value.
std::string strict_integer_problem(std::string& text, bool is_signed) {
  const bool negative = !text.empty() && text[0] == '-';
  if (negative && !is_signed) return "'" + text + "' is negative; expected an integer >= 0";
  const std::size_t sign = negative ? 1 : 0;
  if (text.size() == sign || text.find_first_not_of("0123456789", sign) != std::string::npos)
    return "'" + text + "' is not a decimal integer";
  const std::size_t first_digit = std::min(text.find_first_not_of('0', sign), text.size() - 1);
  text.erase(sign, first_digit - sign);  // "010" -> "10", "-007" -> "-7", "000" -> "0"
  const char* first = text.data();
  const char* last = first + text.size();
  bool fits = false;
  if (is_signed) {
    std::int64_t v = 0;
    fits = std::from_chars(first, last, v).ec == std::errc();
  } else {
    std::uint64_t v = 0;
    fits = std::from_chars(first, last, v).ec == std::errc();
  }
  return fits ? "" : "'" + text + "' is out of range (beyond 64 bits)";
}

void strict_integer_options(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_type_size_max() < 1) continue;  // a flag
    const std::string type = opt->get_type_name();
    const bool is_int = type.rfind("INT", 0) == 0, is_uint = type.rfind("UINT", 0) == 0;
    if (!is_int && !is_uint) continue;
    // First of the option's validators (transform() puts it there), so that its ranges see the
    // normalized text. No description: --help stays as it was.
    opt->transform(CLI::Validator([is_int](std::string& text) { return strict_integer_problem(text, is_int); }, ""));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) strict_integer_options(*sub);
}

// The command's status once its answer is out: an answer that cannot be written (a full disk,
// `> /dev/full`, a closed pipe) is an error, not a silent exit 0: the caller would believe it
// saved. This holds for every answer, --help and --version included.
int status_once_written(int status) {
  errno = 0;
  std::cout.flush();
  if (std::cout && std::fflush(stdout) == 0 && !std::ferror(stdout)) return status;
  const int e = errno;
  std::cerr << "ringsim: error: cannot write the answer to standard output"
            << (e ? std::string(": ") + std::strerror(e) : std::string()) << '\n';
  return 2;
}

extern "C" void exit_2_when_answer_unwritten() {
  if (status_once_written(0) != 0) std::_Exit(2);
}

int parse_and_run(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "ringsim: " << e.what() << '\n';
    return 2;
  } catch (...) {
    return io::report_failure(std::current_exception());
  }
  return 0;
}

}  // namespace

int run_cli(CLI::App& app, int argc, char** argv) {
  strict_integer_options(app);
  const int status = parse_and_run(app, argc, argv);
  return status == 0 ? status_once_written(status) : status;
}

void fail_exit_when_answer_unwritten() { std::atexit(exit_2_when_answer_unwritten); }

}  // namespace ringsim::cli
