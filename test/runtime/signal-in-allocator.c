// A fatal signal that arrives while its thread is inside the allocator
// (here glibc's free, which aborts on a double free) cannot write the
// profile safely: the thread may hold the model's, the arena's or glibc's
// own lock, and writing needs them. The runtime says so on stderr, writes
// nothing, and the process dies of the signal as it would have.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscc -O0 %s -o prog
// RUN: env MASSIF_OPTIONS="--time-unit=B --massif-out-file=out" sh -c './prog; echo "status $?"' > log 2>&1
// RUN: %FileCheck %s < log
// RUN: not test -e out
// CHECK: massif: warning: SIGABRT while inside the allocator; no profile written
// CHECK: status 134
#include <stdlib.h>

static void *volatile keep;

int main(void) {
  keep = malloc(100);
  free(keep);
  free(keep);
  return 0;
}
