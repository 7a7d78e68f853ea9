#!/usr/bin/env bash
# Builds ringsim with AddressSanitizer and UndefinedBehaviorSanitizer (build-sanitize/, option
# RINGSIM_SANITIZE) and runs the test suite under them, fuzzing included. The sanitizers
# write to log files (SimGrid's context switches make ASan print a warning that would otherwise
# break the tests' one-line stderr contracts); any error report in them fails the run.
#   tools/sanitize.sh [--build-only | --tests-only] [BUILD_DIR]
# --build-only builds and stops; --tests-only runs the tests of a folder built before.
set -euo pipefail
cd "$(dirname "$0")/.."
STEPS=all
case "${1:-}" in --build-only) STEPS=build; shift ;; --tests-only) STEPS=tests; shift ;; esac
BUILD=${1:-build-sanitize}
if [ "$STEPS" != tests ]; then
  tools/install-deps.sh
  # -O1 and line tables only (-g1): AddressSanitizer's recommended optimization, and reports that
  # still name file and line, built in half the time of -O2 -g. Clang compiles the instrumented
  # code in about 0.65 of GCC's time, and a second compiler's warnings and checks find what one misses.
  cmake -S . -B "$BUILD" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DRINGSIM_SANITIZE=ON >/dev/null
  cmake --build "$BUILD" -j"$(nproc)"
fi
[ "$STEPS" = build ] && exit 0
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
status=0
# RINGSIM_TEST_SIZES=sanitizer: property cases draw the first part of their random instances
# (tests/trial_count.hpp; tools/sanitizer-coverage.py checks that the unit suite still reaches the
# same lines and branches), and a few command-line scripts use smaller inputs that take the same branches.
# The studies' quick forms and the cost benchmarks (labels study and bench) run in the Release pass
# only: they check that a study's scripts regenerate its tables and print whole-process costs, neither
# of which a sanitizer changes, and the simulation paths they take are the command-line scripts' own.
# So do the cases of the plotting scripts (plots: Python reading outputs of runs other cases make) and
# those that read the source tree only (source).
RINGSIM_TEST_SIZES=sanitizer \
ASAN_OPTIONS="log_path=$logs/asan:detect_leaks=1:abort_on_error=1" \
UBSAN_OPTIONS="log_path=$logs/ubsan:print_stacktrace=1:halt_on_error=1" \
  ctest --test-dir "$BUILD" -j"$(nproc)" -LE '^(study|bench|plots|source)$' --output-on-failure --timeout 1800 || status=1
tools/slowest-tests.sh "$BUILD" 10 || true
reports=$(grep -l -E "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:" "$logs"/* 2>/dev/null || true)
if [ -n "$reports" ]; then
  echo "sanitizer reports:"
  for r in $reports; do echo "== $r"; head -40 "$r"; done
  status=1
fi
[ $status -eq 0 ] && echo "sanitizers: the test suite (but its study, bench, plots and source labels) passed under ASan and UBSan, no report"
exit $status
