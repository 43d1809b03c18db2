#!/usr/bin/env bash
# Where the runtime's time goes, part by part, on lua and jsoncpp. The
# runtime is built from a worktree of HEAD with breakdown.patch applied: an
# experiment switch, MASSIF_BREAKDOWN, that keeps only part of each event's
# work.
#
#   interpose  the entry points and glibc, nothing recorded
#   capture    plus the stack captured and interned
#   ring       plus the event handed to the model, which drops it: the
#              model's lock taken (through the thread's ring, with threads
#              or MASSIF_MODEL_THREAD)
#   table      plus the block table (insert, remove)
#   records    plus the per-block records, the tree, the totals, the site
#              statistics and the snapshots, the slop estimated (no replay
#              of Valgrind's allocator)
#   full       the runtime as it is
#
# Each program is run RUNS times per mode, the modes alternating with the
# native build; the median wall time, CPU time (user + system, the model's
# thread included, if asked for) and peak RSS over native's are printed. Profiles are written and discarded. Not part of the test
# suite.
#
# usage: bash bench/breakdown/run.sh [RUNS]   (7 by default)
# The workloads' sources and inputs come from bench/.cache (bash bench/run.sh
# once, or bench/setup.sh and bench/bench.py --quick).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=$(dirname "$here")
root=$(dirname "$bench")
runs=${1:-7}
cache=${MASSIF_BENCH_CACHE:-$bench/.cache}
work=$cache/breakdown

for f in src/lua5.4.dir src/libjsoncpp.dir inputs/bench-8.json; do
  [ -e "$cache/$f" ] || {
    echo "breakdown: $cache/$f is missing: run bash bench/run.sh once" >&2
    exit 1
  }
done

rm -rf "$work"
mkdir -p "$work"
git -C "$root" worktree add --detach -q "$work/src" HEAD
trap 'git -C "$root" worktree remove --force "$work/src"' EXIT
git -C "$work/src" apply "$here/breakdown.patch" || {
  echo "breakdown: breakdown.patch no longer applies to HEAD; refresh it" >&2
  exit 1
}
echo "building the runtime with the switch ..." >&2
cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build "$work/build" -j "$(nproc)" > /dev/null

lua=$cache/src/$(cat "$cache/src/lua5.4.dir")/src
json=$cache/src/$(cat "$cache/src/libjsoncpp.dir")
luaSrc=$(ls "$lua"/*.c | grep -v -e '/luac\.c$' -e '/onelua\.c$')
luaFlags=(-I"$cache/gen/lua" -DLUA_COMPAT_5_3 -DLUA_USE_LINUX '-Dluai_makeseed(L)=0x2545F491u')
jsonSrc=$(ls "$json"/src/lib_json/*.cpp; echo "$bench/workloads/jsonbench.cpp")
common=(-O2 -g -gdwarf-4 -w)

# Both builds of a program lie side by side, under names of the same
# length: the same lua binary peaked at 36 MB run from /tmp and at 29 MB
# from bench/.cache.
echo "building lua and jsoncpp, native and instrumented ..." >&2
mkdir -p "$work/nat" "$work/ins"
# shellcheck disable=SC2086
clang-19 "${common[@]}" "${luaFlags[@]}" $luaSrc -o "$work/nat/lua" -lm -ldl
# shellcheck disable=SC2086
"$work/build/bin/mscc" "${common[@]}" "${luaFlags[@]}" $luaSrc -o "$work/ins/lua" -lm -ldl
# shellcheck disable=SC2086
clang++-19 "${common[@]}" -I"$json/include" $jsonSrc -o "$work/nat/jsonbench"
# shellcheck disable=SC2086
"$work/build/bin/mscxx" "${common[@]}" -I"$json/include" $jsonSrc -o "$work/ins/jsonbench"

modes=(interpose capture ring table records full)

# measure PROGRAM ARGS...: prints "mode seconds KB" lines, RUNS rounds,
# the native build first in each round.
measure() {
  local p=$1 m
  shift
  for _ in $(seq "$runs"); do
    for m in native "${modes[@]}"; do
      local bin=$work/ins/$p
      [ "$m" = native ] && bin=$work/nat/$p
      MASSIF_BREAKDOWN=$m MASSIF_OPTIONS="--massif-out-file=$work/out.massif" \
        /usr/bin/time -f "$m %e %M %U %S" -o "$work/time" "$bin" "$@" > /dev/null
      cat "$work/time"
    done
  done
}

echo "| mode | lua: wall | CPU | peak RSS | jsoncpp: wall | CPU | peak RSS |"
echo "|---|---:|---:|---:|---:|---:|---:|"
{
  measure lua "$bench/workloads/alloc.lua" 12 | sed 's/^/lua /'
  measure jsonbench "$cache/inputs/bench-8.json" 1 | sed 's/^/jsoncpp /'
} | python3 -c '
import sys, statistics, collections
t = collections.defaultdict(list)
rss = collections.defaultdict(list)
cpu = collections.defaultdict(list)
for line in sys.stdin:
    prog, mode, secs, kb, user, system = line.split()
    t[prog, mode].append(float(secs))
    rss[prog, mode].append(int(kb))
    cpu[prog, mode].append(float(user) + float(system))
med = statistics.median
modes = ["native"] + sys.argv[1:]
for m in modes:
    cells = []
    for p in ("lua", "jsoncpp"):
        cells.append("%.2f× (%.2f s)" % (med(t[p, m]) / med(t[p, "native"]),
                                        med(t[p, m])))
        cells.append("%.2f×" % (med(cpu[p, m]) / med(cpu[p, "native"])))
        cells.append("%.2f× (%.1f MB)" % (med(rss[p, m]) / med(rss[p, "native"]),
                                         med(rss[p, m]) / 1024))
    print("| %s | %s |" % (m, " | ".join(cells)))
' "${modes[@]}"
