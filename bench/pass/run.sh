#!/usr/bin/env bash
# The pass's overhead budget (issue 5): lua and bzip2 built several ways,
# each run a few times, best CPU time reported.
#
#   plain     clang-19 -O2 -g, frame pointers; no pass, no runtime
#   rt        the same plus the runtime (interposition only, no pass)
#   pass      mscc with counters and probes off (MSCC_COUNTERS=0
#             MSCC_STACK_PROBES=0): allocation rewriting and frame pointers
#   counters  mscc with counters only
#   probes    mscc with probes only
#   both      mscc as it builds by default (counters and probes)
#
# and prints the ratios the budget is about:
#   pass/rt (B)         both off: the pass's own cost        (budget: none)
#   counters/pass (B)   the counters' cost, same runtime work (budget: 10%)
#   counters(i)/pass(B) the same plus reading the clock
#   probes/pass (B)     probes compiled in, --stacks=no
#   probes(s)/pass (B)  probes on, --stacks=yes              (budget: 2x)
#   both(i)/pass (B)    mscc's default build, --time-unit=i
#   both(i,s)/pass (B)  the same with --stacks=yes: the counters' code
#                       must not cost the probes more (a leaf they made
#                       look like a caller got probes)
#
# usage: bash bench/pass/run.sh [BUILD_DIR] [RUNS]   (RUNS: 7 by default)
# BUILD_DIR is the massif-native build (default ./build); the workloads'
# sources come from bench/.cache (bash bench/setup.sh bench/.cache).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=$(dirname "$here")
build=$(cd "${1:-$bench/../build}" && pwd)
runs=${2:-7}
cache=${MASSIF_BENCH_CACHE:-$bench/.cache}
work=$cache/pass
mkdir -p "$work"

lua=$cache/src/$(cat "$cache/src/lua5.4.dir")/src
bz=$cache/src/$(cat "$cache/src/bzip2.dir")
luaSrc=$(ls "$lua"/*.c | grep -v -e '/luac\.c$' -e '/onelua\.c$')
luaFlags=(-I"$cache/gen/lua" -DLUA_COMPAT_5_3 -DLUA_USE_LINUX '-Dluai_makeseed(L)=0x2545F491u')
bzSrc=$(for f in blocksort huffman crctable randtable compress decompress bzlib bzip2; do echo "$bz/$f.c"; done)
text=$cache/inputs/bench-24.txt
[ -f "$text" ] || text=$cache/inputs/bench-4.txt
[ -f "$text" ] || { echo "no input text in $cache/inputs: run bench/bench.py once" >&2; exit 1; }

rt=(-Wl,--whole-archive "$build/lib/massif-native/libmassif_rt.a" -Wl,--no-whole-archive)
common=(-O2 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer)

# build VARIANT PROGRAM: compiles each file separately (as a make would),
# with -j2 at most, then links.
build() {
  local v=$1 p=$2 out=$work/$1/$2 cc env=() flags=() srcs libs=() link=()
  mkdir -p "$out.o"
  case $p in
    lua) srcs=$luaSrc; flags=("${luaFlags[@]}"); libs=(-lm -ldl) ;;
    bzip2) srcs=$bzSrc; flags=(-D_FILE_OFFSET_BITS=64) ;;
  esac
  case $v in
    plain) cc=clang-19 ;;
    rt) cc=clang-19; link=("${rt[@]}") ;;
    pass) cc=$build/bin/mscc; env=(MSCC_COUNTERS=0 MSCC_STACK_PROBES=0) ;;
    counters) cc=$build/bin/mscc; env=(MSCC_STACK_PROBES=0) ;;
    probes) cc=$build/bin/mscc; env=(MSCC_COUNTERS=0) ;;
    both) cc=$build/bin/mscc ;;
  esac
  echo "$srcs" | xargs -P2 -I{} sh -c 'f={}; exec env "$@" -c "$f" -o "'"$out.o"'/$(basename "$f" .c).o"' _ \
    ${env[@]+"${env[@]}"} "$cc" "${common[@]}" "${flags[@]}"
  env ${env[@]+"${env[@]}"} "$cc" "${common[@]}" "$out.o"/*.o -o "$out" ${libs[@]+"${libs[@]}"} ${link[@]+"${link[@]}"}
}

# cpu VARIANT PROGRAM OPTIONS ARGS...: one run's CPU time (user plus
# system, in ms; the machine is shared, so CPU time is steadier than wall
# time).
cpu() {
  local v=$1 p=$2 opts=$3
  shift 3
  MASSIF_OPTIONS="$opts --massif-out-file=$work/out.massif" \
    /usr/bin/time -f "%U %S" -o "$work/time" "$work/$v/$p" "$@" > /dev/null
  awk '{ printf "%d", ($1 + $2) * 1000 }' "$work/time"
}

variants=(plain rt pass counters probes both)
for v in "${variants[@]}"; do
  for p in lua bzip2; do
    echo "building $v/$p" >&2
    build "$v" "$p"
  done
done

ratio() { python3 -c "print('%.3f' % ($1 / $2))"; }

# The configurations: name, variant, MASSIF_OPTIONS. Runs are interleaved
# (every configuration once per round) and the best of $runs is kept, so a
# burst of load from elsewhere hits all configurations alike.
configs=("plain plain -"
         "rt rt --time-unit=B"
         "pass pass --time-unit=B"
         "counters counters --time-unit=B"
         "counters_i counters --time-unit=i"
         "probes probes --time-unit=B"
         "probes_s probes --time-unit=B --stacks=yes"
         "both_i both --time-unit=i"
         "both_s both --time-unit=i --stacks=yes")
report() {
  local p=$1; shift
  local -A t
  for _ in $(seq "$runs"); do
    for c in "${configs[@]}"; do
      read -r name v opts <<< "$c"
      [ "$opts" = - ] && opts=
      local x
      x=$(cpu "$v" "$p" "$opts" "$@")
      if [ -z "${t[$name]:-}" ] || [ "$x" -lt "${t[$name]}" ]; then t[$name]=$x; fi
    done
  done
  echo "$p (best CPU ms of $runs): plain ${t[plain]}, rt ${t[rt]}, pass ${t[pass]}, counters ${t[counters]} (unit i ${t[counters_i]}), probes ${t[probes]} (--stacks=yes ${t[probes_s]}), both (unit i) ${t[both_i]} (--stacks=yes ${t[both_s]})"
  echo "  pass/rt             $(ratio "${t[pass]}" "${t[rt]}")"
  echo "  counters/pass       $(ratio "${t[counters]}" "${t[pass]}")"
  echo "  counters(i)/pass    $(ratio "${t[counters_i]}" "${t[pass]}")"
  echo "  probes/pass         $(ratio "${t[probes]}" "${t[pass]}")"
  echo "  probes(stacks)/pass $(ratio "${t[probes_s]}" "${t[pass]}")"
  echo "  both(i)/pass        $(ratio "${t[both_i]}" "${t[pass]}")"
  echo "  both(i,s)/pass      $(ratio "${t[both_s]}" "${t[pass]}")"
}

report lua "$bench/workloads/alloc.lua" 12
cp "$text" "$work/input.txt"
report bzip2 -9 -k -f "$work/input.txt"
