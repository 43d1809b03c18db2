#!/usr/bin/env bash
# The whole test suite: build massif-native, then run every unit test and
# every lit test through ctest. Exits non-zero on any failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MASSIF_BUILD_DIR:-$root/build}
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure -j 2
