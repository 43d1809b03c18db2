#!/usr/bin/env bash
# Rebuilds test/ms_print/corpus/*.out: real massif.out files written by the
# installed Valgrind's Massif for the small programs in this directory, run
# with a spread of Massif options. The files are kept exactly as Valgrind
# writes them (nothing masked); the differential test feeds them to both
# ms_prints.
#
# Everything runs in a temporary directory with relative paths, so the
# files name ./prog and basic.c, never a path of the machine that made
# them. Usage: regenerate.sh   (needs valgrind, clang-19, clang++-19)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=$here/../corpus
cc=${CC:-clang-19}
cxx=${CXX:-clang++-19}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

command -v valgrind >/dev/null || { echo "regenerate.sh: valgrind not found" >&2; exit 1; }

cp "$here"/*.c "$here"/*.cpp "$work"/
cd "$work"

# Debug info in DWARF 4, which Valgrind 3.19 reads fully.
for src in basic deep wide noalloc churn stacky pages; do
  "$cc" -g -gdwarf-4 -O0 -o "$src" "$src.c"
done
"$cc" -g -gdwarf-4 -O2 -o inlined inlined.c
"$cc" -g -gdwarf-4 -O0 -o hashname 'hash#name.c'
"$cxx" -g -gdwarf-4 -O1 -o cxxnew cxxnew.cpp

rm -f "$out"/*.out
count=0

# massif NAME PROGRAM [MASSIF OPTIONS...]: profiles ./PROGRAM into NAME.out.
massif() {
  local name=$1 prog=$2
  shift 2
  valgrind --tool=massif "$@" --massif-out-file="$name.out" "./$prog" \
    >/dev/null 2>"$name.log" || { cat "$name.log" >&2; exit 1; }
  cp "$name.out" "$out/$name.out"
  count=$((count + 1))
}

massif basic-i basic
massif basic-B basic --time-unit=B
massif basic-ms basic --time-unit=ms
massif basic-thr0 basic --time-unit=B --threshold=0
massif basic-thr30 basic --threshold=30
massif basic-depth1 basic --time-unit=B --depth=1
massif basic-depth3 basic --time-unit=B --depth=3 --threshold=0.5
massif basic-every basic --time-unit=B --detailed-freq=1 --peak-inaccuracy=0
massif basic-max10 basic --max-snapshots=10
massif basic-admin basic --time-unit=B --heap-admin=0 --alignment=64
massif basic-allocfn basic --time-unit=B --alloc-fn=leaf --alloc-fn=middle
massif basic-ignorefn basic --time-unit=B --ignore-fn=outer
massif basic-noheap basic --heap=no --stacks=yes --time-unit=B
massif deep-200 deep --time-unit=B --depth=200
massif deep-200-thr0 deep --time-unit=B --depth=200 --threshold=0
massif deep-default deep
massif wide-B wide --time-unit=B
massif wide-thr0 wide --time-unit=B --threshold=0
massif wide-thr5 wide --threshold=5
massif wide-every wide --time-unit=B --threshold=0.5 --detailed-freq=1
massif wide-depth2 wide --max-snapshots=100 --depth=2
massif inlined-B inlined --time-unit=B
massif inlined-noinfo inlined --time-unit=B --read-inline-info=no
massif cxxnew-B cxxnew --time-unit=B
massif cxxnew-thr0 cxxnew --time-unit=B --threshold=0 --depth=50
massif cxxnew-i cxxnew
massif noalloc-i noalloc
massif noalloc-B noalloc --time-unit=B
massif noalloc-stacks noalloc --time-unit=B --stacks=yes
massif churn-i churn
massif churn-max20 churn --time-unit=B --max-snapshots=20
massif churn-freq2 churn --time-unit=B --detailed-freq=2 --peak-inaccuracy=0
massif churn-ms churn --time-unit=ms --threshold=10
massif churn-peak50 churn --time-unit=B --peak-inaccuracy=50 --depth=4
massif stacky-B stacky --stacks=yes --time-unit=B
massif stacky-depth5 stacky --stacks=yes --depth=5
massif pages-B pages --pages-as-heap=yes --time-unit=B
massif pages-i pages --pages-as-heap=yes --threshold=2
massif hashname-B hashname --time-unit=B
massif hashname-thr0 hashname --time-unit=B --threshold=0

# An output file name with '#' shows up cut short in ms_print's preamble.
valgrind --tool=massif --time-unit=B '--massif-out-file=hash#desc.out' \
  ./basic >/dev/null 2>hash-desc.log
cp 'hash#desc.out' "$out/hash-desc.out"
count=$((count + 1))

# Nothing may name the scratch directory or the source tree.
root=$(cd "$here/../../.." && pwd)
if grep -l -F -e "$work" -e "$root" "$out"/*.out; then
  echo "regenerate.sh: the files above name a path of this machine" >&2
  exit 1
fi
echo "regenerate.sh: wrote $count files to test/ms_print/corpus"
