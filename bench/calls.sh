#!/usr/bin/env bash
# The optimiser's decisions under mscc, in one command: prepares the machine
# (tools, deb-src, the workloads' Debian sources; see setup.sh), then
# compares the direct calls and tail jumps of the plain and mscc builds of
# lua, sqlite3, jsoncpp and tinyxml2 (see calls.py). Exits 1 if any differ.
#
# usage: bash bench/calls.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${MASSIF_BENCH_CACHE:-$here/.cache}
bash "$here/setup.sh" "$cache"
exec python3 "$here/calls.py" --cache "$cache" "$@"
