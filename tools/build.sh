#!/usr/bin/env bash
# Configures and builds ringsim (Release) in build/ after installing missing packages.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
