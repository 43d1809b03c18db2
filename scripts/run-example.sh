#!/usr/bin/env bash
# The main job: build massif-native, compile examples/example.c with mscc,
# run it with --time-unit=B and print the ms_print report of its profile.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MASSIF_BUILD_DIR:-$root/build}
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Compile from the example's own directory so the profile names example.c
# itself, as Massif would for the same command.
(cd "$root/examples" && "$build/bin/mscc" -O0 example.c -o "$work/example")
cd "$work"
"$build/bin/msrun" --time-unit=B --massif-out-file=massif.out ./example
"$build/bin/ms_print" massif.out
