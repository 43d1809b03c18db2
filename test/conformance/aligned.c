// memalign, posix_memalign, aligned_alloc and valloc: the useful bytes are
// the requested ones, the slop is what Valgrind's allocator adds for the
// alignment.
// RUN: %conform %s %t -- --time-unit=B --detailed-freq=1 --threshold=0
// --alignment changes the slop of every block, plain malloc's too (the
// program's pointers keep glibc's alignment natively).
// RUN: %conform %s %t.a64 -- --time-unit=B --detailed-freq=1 --threshold=0 --alignment=64
// RUN: %conform %s %t.a4096 -- --time-unit=B --detailed-freq=1 --threshold=0 --alignment=4096
#include <malloc.h>
#include <stdlib.h>

static void *keep[8];

int main(void) {
  keep[0] = memalign(64, 100);
  if (posix_memalign(&keep[1], 256, 1000) != 0)
    return 1;
  keep[2] = aligned_alloc(32, 96);
  keep[3] = valloc(5000);
  keep[4] = memalign(16, 40);
  keep[5] = malloc(10);
  for (int i = 5; i >= 0; i--)
    free(keep[i]);
  return 0;
}
