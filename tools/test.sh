#!/usr/bin/env bash
# Builds ringsim and runs every test (unit tests, one process per test case, simulation cases,
# CLI contracts, bounded fuzzing), then the whole suite again under ASan and UBSan (tools/sanitize.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh
cd build
ctest -j"$(nproc)" --output-on-failure --timeout 900
cd ..
tools/slowest-tests.sh build 10
tools/sanitize.sh
