// The test runners' main. ctest runs one test case per process, selected by its name
// (doctest_discover_tests); a selection that matches no test case would run nothing and pass, as
// a test case whose name holds a ';' would (CMake splits a list there, so it is asked for by half
// its name). Here a run that was given a test-case filter and matched nothing fails.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>

namespace {

unsigned g_matched = 0;

// Only counts the test cases the filters let through.
struct MatchCounter : doctest::IReporter {
  explicit MatchCounter(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& stats) override { g_matched = stats.numTestCasesPassingFilters; }
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

bool selects_test_cases(int argc, char** argv) {
  for (int k = 1; k < argc; ++k)
    for (const char* option : {"--test-case=", "-tc=", "--dt-test-case=", "--dt-tc="})
      if (std::strncmp(argv[k], option, std::strlen(option)) == 0) return true;
  return false;
}

}  // namespace

DOCTEST_REGISTER_LISTENER("match-counter", 1, MatchCounter);

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int status = context.run();
  if (context.shouldExit()) return status;  // --list-test-cases and the like
  if (selects_test_cases(argc, argv) && g_matched == 0) {
    std::fprintf(stderr, "no test case matches the selection: nothing was run\n");
    return 1;
  }
  return status;
}
