// The profile is written after the program's own atexit handlers and
// destructors ran, so what they allocate and free is in it; anything after
// the file is written is forwarded to glibc without being recorded.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscc -O0 %s -o prog
// RUN: env MASSIF_OPTIONS="--time-unit=B --threshold=0 --detailed-freq=1 --massif-out-file=out" ./prog
// RUN: %python %S/Inputs/last-snapshot.py out > last
// RUN: %FileCheck %s < last
#include <stdlib.h>

static void *keep[4];

static void atExitHandler(void) {
  keep[1] = malloc(4321); // CHECK-DAG: {{^ }}n{{[0-9]+}}: 4321 0x{{[0-9A-F]+}}: atExitHandler ({{.*}}exit-order.c:[[@LINE]])
}

__attribute__((destructor)) static void destructor(void) {
  keep[2] = malloc(1234); // CHECK-DAG: {{^ }}n{{[0-9]+}}: 1234 0x{{[0-9A-F]+}}: destructor ({{.*}}exit-order.c:[[@LINE]])
  free(malloc(1));
}

int main(void) {
  atexit(atExitHandler);
  keep[0] = malloc(100); // CHECK-DAG: {{^ }}n0: 100 0x{{[0-9A-F]+}}: main ({{.*}}exit-order.c:[[@LINE]])
  return 0;
}
// CHECK-DAG: mem_heap_B=5655
