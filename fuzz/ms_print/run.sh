#!/usr/bin/env bash
# Builds the ms_print fuzzer (clang-19, -fsanitize=fuzzer,address,undefined)
# and runs it for N seconds (default 60) on a seed corpus: the real
# profiles of test/ms_print/corpus and a few hundred generated files.
# Exits non-zero if the fuzzer finds a crash, a sanitizer report, a leak
# or a timeout; the reproducer is then left in the work directory, which
# is printed. A work directory the script made itself is removed after a
# clean run. Usage: fuzz/ms_print/run.sh [SECONDS] [WORK_DIR]
set -euo pipefail

seconds=${1:-60}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${2:-}
made_work=false
if [ -z "$work" ]; then
  work=$(mktemp -d -t msprint-fuzz.XXXXXX)
  made_work=true
fi
cxx=${CXX:-clang++-19}
mkdir -p "$work/obj" "$work/corpus" "$work/artifacts"

flags=(-std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=undefined -fno-omit-frame-pointer
       -I"$root/include")
for dir in io perl report model views; do flags+=(-I"$root/ms_print/$dir"); done
objs=()
for src in "$root"/ms_print/{io,perl,report,model}/*.cpp \
           "$root"/ms_print/views/{Json,JsonText}.cpp; do
  obj="$work/obj/$(basename "$src" .cpp).o"
  "$cxx" "${flags[@]}" -c "$src" -o "$obj"
  objs+=("$obj")
done
"$cxx" "${flags[@]}" "$here/MsPrintFuzzer.cpp" "${objs[@]}" -o "$work/msprint-fuzzer"

# Seeds: a leading options byte, then the file.
i=0
for f in "$root"/test/ms_print/corpus/*.out; do
  { printf "\\x$(printf %02x $((i % 32)))"; cat "$f"; } > "$work/corpus/real-$i"
  i=$((i + 1))
done
python3 "$root/test/ms_print/gen_massif.py" "$work/gen" --count 200 --seed 99
for f in "$work"/gen/*.out; do
  { printf "\\x$(printf %02x $((i % 32)))"; cat "$f"; } > "$work/corpus/gen-$i"
  i=$((i + 1))
done
for f in "$root"/test/views/Inputs/*.sites; do
  { printf "\\x00"; cat "$f"; } > "$work/corpus/sites-$i"
  i=$((i + 1))
done

echo "run.sh: fuzzing for ${seconds}s in $work"
status=0
"$work/msprint-fuzzer" "$work/corpus" -dict="$here/massif.dict" \
  -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
  -max_len=200000 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" > "$work/fuzz.log" 2>&1 || status=$?
tail -n 20 "$work/fuzz.log"
if [ "$status" -ne 0 ] || ls "$work"/artifacts/* >/dev/null 2>&1; then
  echo "run.sh: FAILED (status $status); see $work/fuzz.log and $work/artifacts" >&2
  exit 1
fi
echo "run.sh: no crash in ${seconds}s"
if $made_work; then
  rm -rf "$work"
fi
