#!/usr/bin/env bash
# Rewrites test/ms_print/heavy-record.txt: the installed Valgrind ms_print's
# results with --x=1000 --y=1000 (each most of a second) on every file the
# differential tests use: the corpus, and the generated files made as
# differential-*.test make them (same count, same seed). The differential
# tests compare ours with these digests instead of running the reference
# again, and run it live on one case per shard to check the record.
# Usage: regenerate-record.sh [MS_PRINT]   (default /usr/bin/ms_print)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ref=${1:-/usr/bin/ms_print}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_massif.py" "$work/gen" --count 300 --seed 20240601
python3 "$here/differential.py" --write-record --record "$here/heavy-record.txt" \
  --ours /bin/false --ref "$ref" --jobs "$(nproc)" "$here/corpus" "$work/gen"
