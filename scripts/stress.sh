#!/usr/bin/env bash
# The stress harness (test/stress/stress.py) for as long as it is given:
#   bash scripts/stress.sh [SECONDS] [stress.py options...]
# builds massif-native first, runs every scenario under every option set,
# two runs at a time, and prints one line per failed or hung run (the
# stacks of a hung one are in the log) and a summary. Exits non-zero when
# any run hung or failed. Add --plain clang-19 for the control run
# without the profiler.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MASSIF_BUILD_DIR:-$root/build}
seconds=${1:-3600}
shift || true
bash "$root/scripts/build.sh" >/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/massif-stress.XXXXXX")
echo "stress: runs in $work, log $work/stress.log" >&2
exec python3 "$root/test/stress/stress.py" --mscc "$build/bin/mscc" \
  --ms-print "$build/bin/ms_print" --work "$work" --duration "$seconds" \
  --children 20 --timeout 300 -j 2 "$@"
