#!/usr/bin/env bash
# Builds ringsim and runs every test (unit tests, one process per test case, and CLI contracts).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh
cd build
ctest -j"$(nproc)" --output-on-failure --timeout 900
