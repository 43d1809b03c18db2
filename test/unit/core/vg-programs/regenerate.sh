#!/usr/bin/env bash
# Records Massif's real behaviour for the core's unit tests.
#
# Builds replay.c, writes the operation scripts (make_cases.py), runs each
# case under `valgrind --tool=massif --time-unit=B <options>` and keeps, in
# expected/:
#   <case>.ops         what the program did, with Valgrind's slop per block
#   <case>.massif.out  the file Massif wrote
#   sites.map          the frames of every call site's stack, as Massif
#                      printed them (address, function, file, line)
# The unit tests (ReplayTest.cpp) replay each .ops into the model and
# require the same massif.out, byte for byte, and the same slop per block.
#
# Then it builds arena.c and records the arena cases (make_arena_cases.py):
#   arena-<case>.ops         every allocator call with the address and usable
#                            size Valgrind's allocator gave
#   arena-<case>.massif.out  the file Massif wrote
# ClientArenaTest.cpp replays them into the model's ClientArena (addresses
# and usable sizes) and into Profile (every snapshot's numbers).
#
# Requires valgrind 3.19, clang-19 and python3. Run from anywhere.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$here/expected
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

clang-19 -gdwarf-4 -O0 -fno-omit-frame-pointer -o "$work/replay" "$here/replay.c"
clang-19 -gdwarf-4 -O0 -fno-omit-frame-pointer -o "$work/arena" "$here/arena.c"
python3 "$here/make_cases.py" "$work"
python3 "$here/make_arena_cases.py" "$work"
mkdir -p "$out"
rm -f "$out"/*.ops "$out"/*.massif.out "$out"/sites.map

cd "$work"
run() { # name script options...
  local name=$1 script=$2
  shift 2
  valgrind --tool=massif -q --time-unit=B "$@" \
    --massif-out-file="$name.massif.out" ./replay "$script" > "$name.ops"
}
run_arena() { # name options...
  local name=$1
  shift
  valgrind --tool=massif -q --time-unit=B "$@" \
    --massif-out-file="$name.massif.out" ./arena "$name.script" > "$name.ops"
}

# The call-site map: every site once, every entry printed (threshold 0,
# one detailed snapshot per operation), once with the ordinary cut at main
# and once with every frame down to main made an alloc-fn, which leaves the
# first frame below main.
run map map.script --threshold=0 --detailed-freq=1 --max-snapshots=1000
all_fns=()
for i in 0 1 2 3 4 5; do all_fns+=(--alloc-fn=asite$i --alloc-fn=rsite$i); done
for g in 0 1 2 3; do all_fns+=(--alloc-fn=group$g); done
all_fns+=(--alloc-fn=dispatch --alloc-fn=main)
run map-below map.script --threshold=0 --detailed-freq=1 \
  --max-snapshots=1000 "${all_fns[@]}"
python3 "$here/extract_sites.py" map.massif.out map-below.massif.out \
  > "$out/sites.map"

while read -r name opts; do
  # shellcheck disable=SC2086  # options are blank-separated on purpose
  run "$name" "$name.script" $opts
  cp "$name.ops" "$name.massif.out" "$out/"
done < cases.txt
while read -r name opts; do
  # shellcheck disable=SC2086  # options are blank-separated on purpose
  run_arena "$name" $opts
  cp "$name.ops" "$name.massif.out" "$out/"
done < arena-cases.txt
echo "regenerated $(cat cases.txt arena-cases.txt | wc -l) cases in $out"
