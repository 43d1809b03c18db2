// Without the pass, every allocation reaches the runtime through the
// interposed malloc family, and each is charged to its call site: the
// whole malloc family, realloc's special cases, and nothing for a failed
// calloc or free(NULL).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %clang -g -O0 -fno-omit-frame-pointer %s -o prog -Wl,--whole-archive %build_lib/libmassif_rt.a -Wl,--no-whole-archive
// RUN: env MASSIF_OPTIONS="--time-unit=B --threshold=0 --detailed-freq=1 --massif-out-file=out" ./prog
// RUN: %python %S/Inputs/last-snapshot.py out > last
// RUN: %FileCheck %s < last
// RUN: %FileCheck %s --check-prefix=NEVER < out
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>

static void *keep[16];

int main(void) {
  keep[0] = malloc(100); // CHECK-DAG: {{^ }}n0: 100 0x{{[0-9A-F]+}}: main ({{.*}}interpose-no-pass.c:[[@LINE]])
  keep[1] = calloc(10, 30); // CHECK-DAG: {{^ }}n0: 300 0x{{[0-9A-F]+}}: main ({{.*}}interpose-no-pass.c:[[@LINE]])
  keep[2] = realloc(NULL, 50); // CHECK-DAG: {{^ }}n0: 50 0x{{[0-9A-F]+}}: main ({{.*}}interpose-no-pass.c:[[@LINE]])
  keep[3] = malloc(40); // CHECK-DAG: {{^ }}n0: 0 0x{{[0-9A-F]+}}: main ({{.*}}interpose-no-pass.c:[[@LINE]])
  keep[3] = realloc(keep[3], 400); // CHECK-DAG: {{^ }}n0: 400 0x{{[0-9A-F]+}}: main ({{.*}}interpose-no-pass.c:[[@LINE]])
  void *gone = malloc(77); // CHECK-DAG: {{^ }}n0: 0 0x{{[0-9A-F]+}}: main ({{.*}}interpose-no-pass.c:[[@LINE]])
  if (realloc(gone, 0) != NULL)
    return 2;
  if (posix_memalign(&keep[4], 64, 64)) // CHECK-DAG: {{^ }}n0: 64 0x{{[0-9A-F]+}}: main ({{.*}}interpose-no-pass.c:[[@LINE]])
    return 3;
  keep[5] = aligned_alloc(32, 96); // CHECK-DAG: {{^ }}n0: 96 0x{{[0-9A-F]+}}: main ({{.*}}interpose-no-pass.c:[[@LINE]])
  keep[6] = memalign(128, 128); // CHECK-DAG: {{^ }}n0: 128 0x{{[0-9A-F]+}}: main ({{.*}}interpose-no-pass.c:[[@LINE]])
  keep[7] = valloc(4000); // CHECK-DAG: {{^ }}n0: 4000 0x{{[0-9A-F]+}}: main ({{.*}}interpose-no-pass.c:[[@LINE]])
  keep[8] = reallocarray(NULL, 3, 11); // CHECK-DAG: {{^ }}n0: 33 0x{{[0-9A-F]+}}: main ({{.*}}interpose-no-pass.c:[[@LINE]])
  free(NULL);
  keep[9] = calloc(SIZE_MAX / 2, 4); // NEVER-NOT: ({{.*}}interpose-no-pass.c:[[@LINE]])
  if (keep[9])
    return 4;
  keep[10] = malloc(1); // CHECK-DAG: {{^ }}n0: 1 0x{{[0-9A-F]+}}: main ({{.*}}interpose-no-pass.c:[[@LINE]])
  return 0;
}
// The final snapshot holds the sum of the live blocks' requested sizes.
// CHECK-DAG: mem_heap_B=5172
