#!/usr/bin/env bash
# Builds and runs the stack benchmarks against a massif-native build:
#   capture    ns per capture+intern, depth 20: instrumented frames, through
#              a -O2 gcc library without frame pointers, through qsort
#   symbolize  ms to describe 10,000 distinct code addresses, cold, by the
#              symbolizer's code (runtime/symbolizer) in the program itself
#   pairs      end to end: ns per malloc/free pair at depth 20, profiled
#              (bench/micro/pairs.c built with mscc) and not
#
# usage: bash bench/stacks/run.sh [BUILD_DIR]   (default: ./build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The benchmarks include the runtime's headers: those of the parts they
# call (folders of runtime/native), and what every part sees
# (runtime/native/CMakeLists.txt).
rt=$root/runtime/native
inc=(-I"$root/runtime/support" -I"$root/include")
for part in base heap tree profile output control; do inc+=(-I"$root/runtime/core/$part"); done
# symbolize links the symbolizer's objects (CMake's object library
# massif_symbolizer_base; massif_support's come with the runtime), and
# elfutils, which they use.
symbolizer=("$build"/runtime/symbolizer/CMakeFiles/massif_symbolizer_base.dir/*.o)
[ -e "${symbolizer[0]}" ] || {
  echo "stacks: no massif_symbolizer_base objects under $build" >&2
  exit 1
}
export MASSIF_OPTIONS="--massif-out-file=/dev/null"

cd "$work"
gcc -O2 -fPIC -shared "$here/uninstr.c" -o libuninstr.so
"$build/bin/mscxx" -O2 -I"$rt/state" -I"$rt/unwind" "${inc[@]}" \
  "$here/capture.cpp" -o capture \
  -L. -luninstr -Wl,-rpath,"$work"
echo "== capture + intern (depth 20)"
./capture 20 1000000

python3 "$here/gen_sites.py" sites 10000 10
for f in sites/sites*.c; do "$build/bin/mscc" -O1 -c "$f" -o "${f%.c}.o"; done
"$build/bin/mscxx" -O1 -I"$rt/state" -I"$root/runtime/symbolizer" "${inc[@]}" \
  -Isites "$here/symbolize.cpp" sites/sites*.o "${symbolizer[@]}" \
  -ldw -lelf -lz -o symbolize
echo "== symbolization (cold)"
./symbolize

echo "== malloc/free pairs at depth 20 (bench/micro/pairs.c)"
clang-19 -O2 "$root/bench/micro/pairs.c" -o pairs-native
"$build/bin/mscc" -O2 "$root/bench/micro/pairs.c" -o pairs-mscc
echo -n "native:  "; ./pairs-native 20 2000000
echo -n "mscc:    "; ./pairs-mscc 20 2000000
