#!/usr/bin/env bash
# Rewrites test/suitecache/references.json.xz: Valgrind's Massif on the
# suite's own programs, every reference run of one lit run of the whole
# suite made live (SUITE_CACHE_NO_RECORD=1) and recorded (record.py pack).
# Run it when the suite's programs or their options change, or after an
# upgrade of Valgrind, clang or the C library: the runs the record no longer
# holds are made live meanwhile, and the suite takes longer.
# Usage: regenerate-record.sh [BUILD_DIR]   (default: build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
lit=/usr/lib/llvm-19/build/utils/lit/lit.py
python=$(command -v /usr/bin/python3 || command -v python3)
status=0
SUITE_CACHE_NO_RECORD=1 "$python" "$lit" -q "$build/test" || status=$?
if [ "$status" -ne 0 ]; then
  echo "regenerate-record.sh: the suite failed; nothing recorded" >&2
  exit "$status"
fi
python3 "$here/record.py" pack "$build/test/.suite-cache" "$here/references.json.xz"
