// Blocks the runtime never saw (from glibc's __libc_malloc, which the
// runtime leaves alone; Valgrind replaces it, so this has no live
// comparison) are ignored when freed or reallocated: no event, no time,
// and the program works as without the runtime.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscc -O0 %s -o prog
// RUN: env MASSIF_OPTIONS="--time-unit=B --detailed-freq=1 --massif-out-file=out" ./prog
// RUN: %FileCheck %s < out
// CHECK: snapshot=1
// CHECK: time=[[#T:]]
// CHECK-NEXT: mem_heap_B=100
// CHECK: snapshot=2
// CHECK: time=[[#T+T]]
// CHECK-NEXT: mem_heap_B=0
// CHECK-NOT: snapshot=
#include <stdlib.h>
#include <string.h>

void *__libc_malloc(size_t n);

int main(void) {
  char *seen = malloc(100);
  char *unseen = __libc_malloc(500);
  memset(unseen, 1, 500);
  unseen = realloc(unseen, 5000); // unknown: glibc's realloc, no event
  if (!unseen || unseen[499] != 1)
    return 1;
  free(unseen); // unknown: glibc's free, no event
  free(seen);
  return 0;
}
