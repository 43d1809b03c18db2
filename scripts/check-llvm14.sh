#!/usr/bin/env bash
# Runs the pass's tests against LLVM 14: the one-feature tests (test/pass)
# with opt-14 and lib/massif-native/massif-llvm14.so, and the pass's end-to-end tests
# (test/e2e-pass) built by mscc with clang-14 (MSCC_LLVM=14). The build
# (./build or $MASSIF_BUILD_DIR, from scripts/build.sh) makes
# massif-llvm14.so whenever LLVM 14's CMake package is installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MASSIF_BUILD_DIR:-$root/build}
[ -f "$build/lib/massif-native/massif-llvm14.so" ] || {
  echo "check-llvm14: $build/lib/massif-native/massif-llvm14.so is missing: build with LLVM 14 installed (or -DMASSIF_EXTRA_LLVM_VERSIONS=14)" >&2
  exit 1
}
lit=$(dirname "$(readlink -f "$(command -v FileCheck-19 || echo /usr/lib/llvm-19/bin/FileCheck)")")/../build/utils/lit/lit.py
exec python3 "$lit" -sv --param massif_llvm=14 "$build/test/pass" "$build/test/e2e-pass" "$@"
