#!/usr/bin/env bash
# Prints the slowest test cases of the last ctest run in a build folder, from ctest's log of that
# run (Testing/Temporary/LastTest.log: each case's name and time), and their sum.
#   tools/slowest-tests.sh [BUILD_DIR [COUNT]]      (default: build, 15)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
COUNT=${2:-15}
LOG="$BUILD/Testing/Temporary/LastTest.log"
[ -r "$LOG" ] || { echo "slowest-tests: no ctest log in $BUILD (run ctest there first)" >&2; exit 2; }
awk '
  /^[0-9]+\/[0-9]+ Testing: / { sub(/^[0-9]+\/[0-9]+ Testing: /, ""); name = $0 }
  /^Test time = / { printf "%s\t%s\n", $4, name }' "$LOG" | sort -t$'\t' -k1,1 -g -r |
  awk -F'\t' -v count="$COUNT" '
    { n++; sum += $1; if (n <= count) line[n] = sprintf("%8.1f s  %s", $1, substr($2, 1, 100)) }
    END {
      printf "%d cases in the last run, %.0f s in all (ctest -j runs them side by side)\n", n, sum
      for (i = 1; i <= n && i <= count; i++) print line[i]
    }'
