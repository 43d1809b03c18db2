#!/usr/bin/env bash
# The benchmark, in one command: prepares the machine (tools, deb-src,
# Debian source packages; see setup.sh), then builds and runs every workload
# natively, with mscc and under the other profilers (see bench.py --help).
#
# usage: bash bench/run.sh [--quick] [--runs N] [--configs a,b] [--workloads x,y]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${MASSIF_BENCH_CACHE:-$here/.cache}
for a in "$@"; do
  case "$a" in -h|--help) exec python3 "$here/bench.py" --help ;; esac
done
bash "$here/setup.sh" "$cache"
exec python3 "$here/bench.py" --cache "$cache" "$@"
