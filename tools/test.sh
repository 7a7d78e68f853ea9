#!/usr/bin/env bash
# Builds ringsim and runs every test (unit tests, one process per test case, simulation cases,
# CLI contracts, bounded fuzzing, the studies' quick forms), then again under ASan and UBSan (tools/sanitize.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh
# The sanitizers' build runs beside the Release tests: each leaves the processors idle at times (a
# link, a configure step, the last case of a batch) that the other fills. It runs in a process
# group of its own, ended with this script if the script stops first.
log=$(mktemp)
setsid tools/sanitize.sh --build-only >"$log" 2>&1 &
sanitize_build=$!
trap 'kill -- -$sanitize_build 2>/dev/null || true; rm -f "$log"' EXIT
status=0
ctest --test-dir build -j"$(nproc)" --output-on-failure --timeout 900 || status=1
tools/slowest-tests.sh build 10
if ! wait $sanitize_build; then
  echo "the sanitizers' build failed:"; tail -40 "$log"; exit 1
fi
[ $status -eq 0 ] || exit 1
tools/sanitize.sh --tests-only
