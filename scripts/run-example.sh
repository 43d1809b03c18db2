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
cd "$work"
"$build/bin/mscc" -O0 "$root/examples/example.c" -o example
"$build/bin/msrun" --time-unit=B --massif-out-file=massif.out ./example
"$build/bin/ms_print" massif.out
