#!/usr/bin/env bash
# Configures and builds massif-native into ./build (or $MASSIF_BUILD_DIR).
# A new build directory uses Ninja when it is installed (it schedules the
# build's steps more tightly than make and spends less time deciding what
# to rebuild); an existing one keeps the generator it was configured with.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MASSIF_BUILD_DIR:-$root/build}
generator=()
if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null; then
  generator=(-G Ninja)
fi
cmake -S "$root" -B "$build" ${generator[@]+"${generator[@]}"} -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$(nproc)"
